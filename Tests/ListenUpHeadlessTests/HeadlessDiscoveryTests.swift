import Foundation
import ListenUpTestSupport
import Testing

/// LAN discovery as the app shows it, through the real binary, on loopback
/// only: the server is announced with `avahi-publish`, which cannot choose
/// an interface (the loopback-only daemon of build-aux/with-avahi keeps it on
/// lo; ``LoopbackMDNS/publish(name:type:port:txt:)`` refuses where mDNS runs
/// on another interface), and the app is told LISTENUP_MDNS_INTERFACE=lo.
/// Without a daemon the first test is reported as skipped, or fails under
/// LISTENUP_REQUIRE_AVAHI=1 (make test).
@Suite("Headless LAN discovery", .serialized)
struct HeadlessDiscoveryTests {
    static func discovery(_ line: [String: Any]) -> (status: String?, servers: [[String: Any]]) {
        let state = line["state"] as? [String: Any]
        return (state?["discovery"] as? String, state?["discovered"] as? [[String: Any]] ?? [])
    }

    @Test func aServerAnnouncedOnTheLANIsListedAndCanBePicked() async throws {
        let id = "lib-headless\(UUID().uuidString.prefix(9))"
        let publisher = try LoopbackMDNS.publish(name: "ListenUp Headless \(UUID().uuidString.prefix(8))", port: 9,
                                                 txt: ["id=\(id)", "name=Shelf on the LAN", "version=1.0.0", "api=v1"])
        defer { publisher.stop() }
        let app = try HeadlessProcess(environment: LoopbackMDNS.appEnvironment)
        let listed = await app.waitForLine { line in
            Self.discovery(line).servers.contains { $0["id"] as? String == id } || Self.discovery(line).status == "unavailable"
        }
        guard let listed, Self.discovery(listed).status != "unavailable" else {
            app.closeInput()
            _ = await app.waitForExit()
            try ServiceRequirement.check(listed == nil, requiredBy: LoopbackMDNS.requiredBy,
                                         "no avahi-daemon: discovery unavailable: \(app.allLines.suffix(3))")
            Issue.record("the announced server was not listed: \(app.allLines.suffix(3))")
            return
        }
        let server = try #require(Self.discovery(listed).servers.first { $0["id"] as? String == id })
        #expect(server["name"] as? String == "Shelf on the LAN")
        #expect(server["version"] as? String == "1.0.0")
        #expect((server["hostAndPort"] as? String)?.hasSuffix(":9") == true)
        // Picking it checks it (nothing listens on port 9: unreachable).
        app.send(#"{"action":"pick","id":"\#(id)"}"#)
        let checked = await app.waitForLine { ($0["state"] as? [String: Any])?["status"] as? String == "failed" }
        #expect((checked?["state"] as? [String: Any])?["code"] as? String == "unreachable", "\(app.allLines.suffix(3))")
        app.closeInput()
        #expect(await app.waitForExit() == 0)
    }

    @Test func withoutAvahiDiscoveryIsUnavailableAndManualEntryWorks() async throws {
        let app = try HeadlessProcess(environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/listenup-test-bus"])
        let line = await app.waitForLine { Self.discovery($0).status == "unavailable" }
        #expect(line != nil, "\(app.allLines)")
        #expect(((line?["state"] as? [String: Any])?["discoveryMessage"] as? String)?.isEmpty == false)
        app.send(#"{"action":"connect","url":"ftp://x"}"#)
        #expect(await app.waitForLine { ($0["state"] as? [String: Any])?["code"] as? String == "unsupportedScheme" } != nil)
        app.closeInput()
        #expect(await app.waitForExit() == 0)
    }
}
