import Foundation
import LANDiscovery
import ListenUpCore
import ListenUpLive
import ListenUpTestSupport
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

@Suite("mDNS interface")
struct MDNSInterfaceTests {
    @Test func theEnvironmentNamesTheInterface() {
        #expect(MDNSInterface.fromEnvironment([:]) == .any)
        #expect(MDNSInterface.fromEnvironment(["LISTENUP_MDNS_INTERFACE": " "]) == .any)
        #expect(MDNSInterface.fromEnvironment(["LISTENUP_MDNS_INTERFACE": "lo"]) == .named("lo"))
        #expect(MDNSInterface.named("lo").index == Int32(bitPattern: if_nametoindex("lo")))
        #expect(MDNSInterface.named("listenup-none0").index == nil)
        #expect(MDNSInterface.any.index == nil)
    }

    /// A missing interface never widens to every interface.
    @Test func aMissingInterfaceBrowsesNothing() async {
        var events: [DiscoveryEvent] = []
        for await event in ServiceBrowser.browse(type: "_listenup._tcp", interface: .named("listenup-none0"), logger: Logger(label: "test")) {
            events.append(event)
        }
        #expect(events == [.unavailable(reason: "no network interface named listenup-none0")])
    }

    /// `/proc/net/igmp` and `igmp6` as Linux writes them: mDNS joined on lo
    /// only, then on eth0 too (IPv4 and IPv6 each).
    @Test func lanMembershipsAreFound() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("igmp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func write(igmp: String, igmp6: String) throws {
            try igmp.write(to: folder.appendingPathComponent("igmp"), atomically: true, encoding: .utf8)
            try igmp6.write(to: folder.appendingPathComponent("igmp6"), atomically: true, encoding: .utf8)
        }
        let header = "Idx\tDevice    : Count Querier\tGroup    Users Timer\tReporter\n"
        let loOnly = header + "1\tlo        :     2      V3\n\t\t\t\tFB0000E0     1 0:00000000\t\t0\n\t\t\t\t010000E0     1 0:00000000\t\t0\n"
            + "4\teth0      :     1      V3\n\t\t\t\t010000E0     1 0:00000000\t\t0\n"
        let lo6 = "1    lo              ff0200000000000000000000000000fb     1 00000004 0\n"
            + "4    eth0            ff020000000000000000000000000001     1 0000000C 0\n"
        try write(igmp: loOnly, igmp6: lo6)
        #expect(LoopbackMDNS.lanInterfaces(procNet: folder.path).isEmpty)
        try write(igmp: loOnly + "5\twlan0     :     2      V3\n\t\t\t\tfb0000e0     1 0:00000000\t\t0\n", igmp6: lo6)
        #expect(LoopbackMDNS.lanInterfaces(procNet: folder.path) == ["wlan0"])
        try write(igmp: loOnly, igmp6: lo6 + "4    eth0            ff0200000000000000000000000000fb     1 00000004 0\n")
        #expect(LoopbackMDNS.lanInterfaces(procNet: folder.path) == ["eth0"])
    }
}

/// Real Avahi, on loopback only: `avahi-publish` (which cannot choose an
/// interface: the daemon's configuration keeps it on lo) and
/// ``ServiceAdvertiser`` announce fake servers; browsing on `lo` must see
/// them come and go. Needs an avahi-daemon that serves loopback only:
/// `make test` runs these under build-aux/with-avahi and sets
/// LISTENUP_REQUIRE_AVAHI=1, so a missing daemon fails them; elsewhere they
/// are reported as skipped. Where mDNS is joined on any interface but lo (a
/// desktop's avahi-daemon), they skip (or fail) before publishing anything.
@Suite("Avahi browsing (real daemon, loopback)", .serialized)
struct AvahiBrowsingTests {
    static let loopback = MDNSInterface.named(LoopbackMDNS.interfaceName)

    /// Collects events until `until` holds or `timeout` passes.
    static func collect<Event: Sendable>(_ stream: AsyncStream<Event>, timeout: Duration = .seconds(8),
                                         until: @escaping @Sendable ([Event]) -> Bool) async -> [Event] {
        let seen = LockedValue<[Event]>([])
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

    static func browseLoopback() -> AsyncStream<DiscoveryEvent> {
        ServiceBrowser.browse(type: "_listenup._tcp", interface: loopback, logger: Logger(label: "test"))
    }

    static func service(_ id: String, in events: [DiscoveryEvent]) -> DiscoveredService? {
        events.lazy.compactMap { if case .found(let service) = $0, service.txt.id == id { service } else { nil } }.first
    }

    /// Skips (or fails, when required) if the daemon is not there.
    static func requireDaemon(_ events: [DiscoveryEvent]) throws {
        let unavailable = events.first { if case .unavailable = $0 { true } else { false } }
        try ServiceRequirement.check(unavailable == nil, requiredBy: LoopbackMDNS.requiredBy,
                                     "no avahi-daemon: \(unavailable.map { "\($0)" } ?? "")")
    }

    static func isUnavailable(_ event: DiscoveryEvent) -> Bool { if case .unavailable = event { true } else { false } }

    @Test func aPublishedServerIsFoundOnLoopbackThenLost() async throws {
        let id = "lib-test\(UUID().uuidString.prefix(13))"
        let publisher = try LoopbackMDNS.publish(name: "ListenUp Test \(UUID().uuidString.prefix(8))", port: 18080,
                                                 txt: ["id=\(id)", "name=Shelf in Test", "version=1.0.0", "api=v1"])
        defer { publisher.stop() }
        let events = await Self.collect(Self.browseLoopback()) { seen in
            Self.service(id, in: seen) != nil || seen.contains(where: Self.isUnavailable)
        }
        try Self.requireDaemon(events)
        let found = try #require(Self.service(id, in: events), "the published server was not found: \(events)")
        #expect(found.txt.name == "Shelf in Test")
        #expect(found.txt.version == "1.0.0")
        #expect(found.port == 18080)
        #expect(found.address == "127.0.0.1", "resolved on loopback")
        #expect(found.baseURL?.absoluteString == "http://127.0.0.1:18080")

        // Watch it go away.
        let watcher = Task { await Self.collect(Self.browseLoopback(), timeout: .seconds(10)) { $0.contains(.lost(identity: id)) } }
        try await Task.sleep(for: .seconds(1))
        publisher.stop()
        let later = await watcher.value
        #expect(later.contains(.lost(identity: id)), "\(later)")
    }

    /// Browsing is confined to the interface named: another interface (one
    /// the loopback-only daemon does not serve) does not see the service.
    @Test func browsingAnotherInterfaceDoesNotSeeLoopback() async throws {
        let others = (try? FileManager.default.contentsOfDirectory(atPath: "/sys/class/net"))?.filter { $0 != "lo" }.sorted() ?? []
        guard let other = others.first else {
            try Test.cancel("skipped: no network interface besides lo")
        }
        let id = "lib-other\(UUID().uuidString.prefix(12))"
        let publisher = try LoopbackMDNS.publish(name: "ListenUp Other \(UUID().uuidString.prefix(8))", port: 18084, txt: ["id=\(id)", "api=v1"])
        defer { publisher.stop() }
        let onLoopback = await Self.collect(Self.browseLoopback()) { Self.service(id, in: $0) != nil || $0.contains(where: Self.isUnavailable) }
        try Self.requireDaemon(onLoopback)
        #expect(Self.service(id, in: onLoopback) != nil, "\(onLoopback)")
        let elsewhere = await Self.collect(ServiceBrowser.browse(type: "_listenup._tcp", interface: .named(other), logger: Logger(label: "test")),
                                           timeout: .seconds(3)) { Self.service(id, in: $0) != nil }
        #expect(Self.service(id, in: elsewhere) == nil, "browsing \(other) saw the loopback service: \(elsewhere)")
    }

    /// The app's discovery client leaves out servers of another API version.
    /// It browses `lo` only, as the app does under LISTENUP_MDNS_INTERFACE=lo.
    @Test func otherAPIVersionsAreLeftOut() async throws {
        let id = "lib-v2test\(UUID().uuidString.prefix(11))"
        let publisher = try LoopbackMDNS.publish(name: "ListenUp Future \(UUID().uuidString.prefix(8))", port: 18081, txt: ["id=\(id)", "api=v2"])
        defer { publisher.stop() }
        let marker = "lib-marker\(UUID().uuidString.prefix(11))"
        let second = try LoopbackMDNS.publish(name: "ListenUp Marker \(UUID().uuidString.prefix(8))", port: 18082, txt: ["id=\(marker)", "api=v1"])
        defer { second.stop() }
        let events = await Self.collect(ServerDiscoveryClient.avahi(interface: .named(LoopbackMDNS.interfaceName), logger: Logger(label: "test")).browse()) { seen in
            seen.contains { if case .found(let server) = $0 { server.id == marker } else { false } }
                || seen.contains { if case .unavailable = $0 { true } else { false } }
        }
        let unavailable = events.contains { if case .unavailable = $0 { true } else { false } }
        try ServiceRequirement.check(!unavailable, requiredBy: LoopbackMDNS.requiredBy, "no avahi-daemon: \(events)")
        #expect(events.contains { if case .found(let server) = $0 { server.id == marker } else { false } }, "the marker server was not found: \(events)")
        #expect(!events.contains { if case .found(let server) = $0 { server.id == id } else { false } })
    }

    @Test func theAdvertiserPublishesOnLoopbackAndWithdraws() async throws {
        try LoopbackMDNS.requireLoopbackOnly()
        let id = "lib-advert\(UUID().uuidString.prefix(11))"
        let advertiser = ServiceAdvertiser(name: "ListenUp Advert \(UUID().uuidString.prefix(8))", type: "_listenup._tcp", port: 18083,
                                           txt: ["id=\(id)", "name=Advertised", "version=1.0.0", "api=v1"], interface: Self.loopback,
                                           logger: Logger(label: "test"))
        advertiser.start()
        let found = await Self.collect(Self.browseLoopback()) { Self.service(id, in: $0) != nil || $0.contains(where: Self.isUnavailable) }
        do {
            try Self.requireDaemon(found)
        } catch {
            advertiser.stop()
            throw error
        }
        guard let service = Self.service(id, in: found) else {
            advertiser.stop()
            Issue.record("the advertised service was not found: \(found)")
            return
        }
        #expect(service.txt.name == "Advertised")
        #expect(service.address == "127.0.0.1")
        let watcher = Task { await Self.collect(Self.browseLoopback(), timeout: .seconds(10)) { $0.contains(.lost(identity: id)) } }
        try await Task.sleep(for: .seconds(1))
        advertiser.stop()
        #expect(await watcher.value.contains(.lost(identity: id)))
    }

    /// An advertiser told to use an interface that does not exist announces
    /// nothing (it never widens to every interface).
    @Test func anAdvertiserOnAMissingInterfaceAnnouncesNothing() async throws {
        try LoopbackMDNS.requireLoopbackOnly()
        let id = "lib-noif\(UUID().uuidString.prefix(13))"
        let advertiser = ServiceAdvertiser(name: "ListenUp NoIf \(UUID().uuidString.prefix(8))", type: "_listenup._tcp", port: 18085,
                                           txt: ["id=\(id)", "api=v1"], interface: .named("listenup-none0"), logger: Logger(label: "test"))
        advertiser.start()
        defer { advertiser.stop() }
        let events = await Self.collect(Self.browseLoopback(), timeout: .seconds(3)) { Self.service(id, in: $0) != nil || $0.contains(where: Self.isUnavailable) }
        try Self.requireDaemon(events)
        #expect(Self.service(id, in: events) == nil, "\(events)")
    }
}
