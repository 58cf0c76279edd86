import Foundation

/// mDNS in the tests stays on this machine: tests publish and browse on the
/// loopback interface only, through an avahi-daemon that serves loopback only
/// (`build-aux/with-avahi`, which `make test` uses). See docs/architecture.md,
/// "Tests stay on this machine".
public enum LoopbackMDNS {
    /// The interface every test names when it browses or announces.
    public static let interfaceName = "lo"

    /// For a child process running the app: browse and announce on `lo`
    /// only (`LISTENUP_MDNS_INTERFACE`, read through LANDiscovery's
    /// `MDNSInterface.fromEnvironment()` where the app builds its discovery).
    public static let appEnvironment = ["LISTENUP_MDNS_INTERFACE": interfaceName]

    /// `LISTENUP_REQUIRE_AVAHI=1` (set by `make test`): a missing daemon fails
    /// the Avahi tests instead of skipping them.
    public static let requiredBy = "LISTENUP_REQUIRE_AVAHI"

    /// The interfaces other than `lo` on which the mDNS group (224.0.0.251 or
    /// ff02::fb) is joined in this network namespace: where an mDNS responder
    /// such as avahi-daemon would announce whatever a test publishes. Empty
    /// when mDNS stays on loopback (or nothing listens at all).
    ///
    /// avahi-daemon binds 0.0.0.0:5353 whatever its configuration allows, so
    /// the group memberships (`/proc/net/igmp`, `/proc/net/igmp6`), not the
    /// bound sockets, say where it runs.
    public static func lanInterfaces(procNet: String = "/proc/net") -> [String] {
        var found = Set<String>()
        // igmp: an interface line ("1\tlo        :     2      V3"), then its
        // groups indented, each address in little-endian hex (FB0000E0).
        if let igmp = try? String(contentsOfFile: procNet + "/igmp", encoding: .utf8) {
            var device: String?
            for line in igmp.split(separator: "\n") {
                let fields = line.split(whereSeparator: \.isWhitespace)
                guard let first = fields.first else { continue }
                if line.first?.isWhitespace == false {
                    device = first.allSatisfy(\.isNumber) && fields.count > 1 ? String(fields[1]) : nil
                } else if first.uppercased() == "FB0000E0", let device {
                    found.insert(device)
                }
            }
        }
        // igmp6: "index name group users flags timer".
        if let igmp6 = try? String(contentsOfFile: procNet + "/igmp6", encoding: .utf8) {
            for line in igmp6.split(separator: "\n") {
                let fields = line.split(whereSeparator: \.isWhitespace)
                if fields.count > 2, fields[2].lowercased() == "ff0200000000000000000000000000fb" { found.insert(String(fields[1])) }
            }
        }
        found.remove(interfaceName)
        return found.sorted()
    }

    /// Ends the test (fails it under `LISTENUP_REQUIRE_AVAHI=1`, skips it
    /// visibly otherwise) when mDNS is joined on an interface other than `lo`:
    /// publishing through that daemon would announce on the LAN.
    public static func requireLoopbackOnly() throws {
        let lan = lanInterfaces()
        try ServiceRequirement.check(lan.isEmpty, requiredBy: requiredBy,
                                     "an mDNS responder serves \(lan.joined(separator: ", ")) besides lo: "
                                         + "publishing would announce on the LAN (build-aux/with-avahi runs one on loopback only)")
    }

    /// Announces a service with `avahi-publish` until ``AvahiPublisher/stop()``.
    /// avahi-publish cannot choose an interface: only the daemon's
    /// configuration keeps this on loopback, so this first checks that mDNS
    /// is not joined anywhere else (``requireLoopbackOnly()``).
    public static func publish(name: String, type: String = "_listenup._tcp", port: Int, txt: [String]) throws -> AvahiPublisher {
        try requireLoopbackOnly()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["avahi-publish", "-s", name, type, String(port)] + txt
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return AvahiPublisher(process: process)
    }
}

/// A running `avahi-publish`.
public final class AvahiPublisher: Sendable {
    private let process: Process

    init(process: Process) { self.process = process }

    public var isRunning: Bool { process.isRunning }

    /// Ends the publisher and waits for it. SIGKILL: a child may inherit
    /// ignored SIGINT/SIGTERM from the test runner, and avahi-daemon withdraws
    /// the service as soon as its D-Bus client goes away anyway.
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }
}
