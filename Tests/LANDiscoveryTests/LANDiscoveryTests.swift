import Foundation
import LANDiscovery
import ListenUpCore
import ListenUpLive
import Logging
import Testing

@Suite("TXT records")
struct TXTRecordTests {
    static func entries(_ texts: [String]) -> [[UInt8]] { texts.map { Array($0.utf8) } }

    @Test func aListenUpRecord() {
        let record = ListenUpTXTRecord(entries: Self.entries(["id=lib-CtCtqA_1YCrctMg6zrra6", "name=ListenUp Server", "version=1.0.0", "api=v1"]))
        #expect(record == ListenUpTXTRecord(id: "lib-CtCtqA_1YCrctMg6zrra6", name: "ListenUp Server", version: "1.0.0", api: "v1"))
        #expect(record.remote == nil)
        let remote = ListenUpTXTRecord(entries: Self.entries(["id=lib-x", "remote=https://listen.example.com"]))
        #expect(remote.remote == "https://listen.example.com")
    }

    @Test func junkIsIgnoredAndTheFirstKeyWins() {
        var entries = Self.entries(["", "=novalue", "flag", "ID=lib-first", "id=lib-second", "name=a=b", "remote="])
        entries.append([UInt8(ascii: "n"), UInt8(ascii: "="), 0xFF, 0xFE]) // not UTF-8
        let record = ListenUpTXTRecord(entries: entries)
        #expect(record.id == "lib-first")
        #expect(record.name == "a=b")
        #expect(record.remote == nil)
        #expect(ListenUpTXTRecord(entries: []) == ListenUpTXTRecord())
    }

    @Test func urlsBracketIPv6() {
        let v6 = DiscoveredService(serviceName: "s", hostName: "h.local", address: "fd00::2", port: 8080, txt: .init())
        #expect(v6.baseURL?.absoluteString == "http://[fd00::2]:8080")
        #expect(v6.identity == "s")
    }
}

/// Real Avahi: `avahi-publish` announces a fake server; the browser must see
/// it come and go. Needs avahi-daemon (make test starts it and sets
/// LISTENUP_REQUIRE_AVAHI=1; elsewhere these tests skip).
@Suite("Avahi browsing (real daemon)", .serialized)
struct AvahiBrowsingTests {
    static var required: Bool { ProcessInfo.processInfo.environment["LISTENUP_REQUIRE_AVAHI"] == "1" }

    static func publisher(name: String, port: Int, txt: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["avahi-publish", "-s", name, "_listenup._tcp", String(port)] + txt
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Ends a publisher. SIGKILL: a child may inherit ignored SIGINT/SIGTERM
    /// from the test runner, and avahi-daemon withdraws the service as soon as
    /// its D-Bus client goes away anyway.
    static func stop(_ process: Process) {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Collects events until `until` holds or `timeout` passes.
    static func collect(_ stream: AsyncStream<ServerDiscoveryEvent>, timeout: Duration = .seconds(8),
                        until: @escaping @Sendable ([ServerDiscoveryEvent]) -> Bool) async -> [ServerDiscoveryEvent] {
        let seen = LockedValue<[ServerDiscoveryEvent]>([])
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in stream {
                    let all = seen.withLock { $0.append(event); return $0 }
                    if until(all) { break }
                }
            }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
        return seen.value
    }

    @Test func aPublishedServerIsFoundThenLost() async throws {
        let logger = Logger(label: "test")
        let id = "lib-test\(UUID().uuidString.prefix(13))"
        let name = "ListenUp Test \(UUID().uuidString.prefix(8))"
        let publisher = try Self.publisher(name: name, port: 18080, txt: ["id=\(id)", "name=Shelf in Test", "version=1.0.0", "api=v1"])
        defer { if publisher.isRunning { Self.stop(publisher) } }

        let client = ServerDiscoveryClient.avahi(logger: logger)
        let events = await Self.collect(client.browse()) { seen in
            seen.contains { if case .found(let server) = $0 { server.id == id } else { false } }
                || seen.contains { if case .unavailable = $0 { true } else { false } }
        }
        if events.contains(where: { if case .unavailable = $0 { true } else { false } }) {
            if Self.required { Issue.record("Avahi unavailable: \(events)") }
            return
        }
        let found = events.compactMap { event -> LANServer? in
            if case .found(let server) = event, server.id == id { server } else { nil }
        }.first
        guard let found else {
            if Self.required { Issue.record("the published server was not found: \(events)") }
            return
        }
        #expect(found.name == "Shelf in Test")
        #expect(found.version == "1.0.0")
        #expect(found.hostAndPort.hasSuffix(":18080"))
        #expect(found.url.port == 18080)
        #expect(found.url.scheme == "http")

        // Watch it go away.
        let stream = client.browse()
        let watcher = Task { await Self.collect(stream, timeout: .seconds(10)) { seen in seen.contains(.lost(id: id)) } }
        try await Task.sleep(for: .seconds(1))
        Self.stop(publisher)
        let later = await watcher.value
        #expect(later.contains(.lost(id: id)), "\(later)")
    }

    @Test func otherAPIVersionsAreLeftOut() async throws {
        let id = "lib-v2test\(UUID().uuidString.prefix(11))"
        let publisher = try Self.publisher(name: "ListenUp Future \(UUID().uuidString.prefix(8))", port: 18081, txt: ["id=\(id)", "api=v2"])
        defer { if publisher.isRunning { Self.stop(publisher) } }
        let marker = "lib-marker\(UUID().uuidString.prefix(11))"
        let second = try Self.publisher(name: "ListenUp Marker \(UUID().uuidString.prefix(8))", port: 18082, txt: ["id=\(marker)", "api=v1"])
        defer { if second.isRunning { Self.stop(second) } }
        let events = await Self.collect(ServerDiscoveryClient.avahi(logger: Logger(label: "test")).browse()) { seen in
            seen.contains { if case .found(let server) = $0 { server.id == marker } else { false } }
        }
        guard events.contains(where: { if case .found(let server) = $0 { server.id == marker } else { false } }) else {
            if Self.required { Issue.record("the marker server was not found: \(events)") }
            return
        }
        #expect(!events.contains { if case .found(let server) = $0 { server.id == id } else { false } })
    }

    @Test func theAdvertiserPublishesAndWithdraws() async throws {
        let id = "lib-advert\(UUID().uuidString.prefix(11))"
        let advertiser = ServiceAdvertiser(name: "ListenUp Advert \(UUID().uuidString.prefix(8))", type: "_listenup._tcp", port: 18083,
                                           txt: ["id=\(id)", "name=Advertised", "version=1.0.0", "api=v1"], logger: Logger(label: "test"))
        advertiser.start()
        let client = ServerDiscoveryClient.avahi(logger: Logger(label: "test"))
        let found = await Self.collect(client.browse()) { seen in
            seen.contains { if case .found(let server) = $0 { server.id == id } else { false } }
        }
        guard let server = found.compactMap({ event -> LANServer? in if case .found(let s) = event, s.id == id { s } else { nil } }).first else {
            if Self.required { Issue.record("the advertised service was not found: \(found)") }
            advertiser.stop()
            return
        }
        #expect(server.name == "Advertised")
        let stream = client.browse()
        let watcher = Task { await Self.collect(stream, timeout: .seconds(10)) { $0.contains(.lost(id: id)) } }
        try await Task.sleep(for: .seconds(1))
        advertiser.stop()
        #expect(await watcher.value.contains(.lost(id: id)))
    }
}
