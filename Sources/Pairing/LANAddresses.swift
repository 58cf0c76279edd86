import Foundation

/// The addresses the discovery server listens on and puts in the QR code.
///
/// Interfaces that are up, IPv4, minus virtual ones (`docker*`, `veth*`,
/// `virbr*`, `br-*`, `tun*`, `tap*`) and loopback; loopback only when nothing
/// else is left. `LISTENUP_PAIRING_BIND` (comma-separated numeric addresses)
/// overrides all of it: tests set `127.0.0.1` so nothing but loopback is used.
public enum LANAddresses {
    /// One interface address, as `getifaddrs` reports it.
    public struct Interface: Sendable, Equatable {
        /// Interface name (`wlan0`, `docker0`, …).
        public var name: String
        /// Numeric address.
        public var address: String
        /// Up and running.
        public var isUp: Bool
        /// A loopback interface.
        public var isLoopback: Bool

        /// An interface address.
        public init(name: String, address: String, isUp: Bool, isLoopback: Bool) {
            self.name = name
            self.address = address
            self.isUp = isUp
            self.isLoopback = isLoopback
        }
    }

    /// The environment variable that overrides the choice.
    public static let overrideVariable = "LISTENUP_PAIRING_BIND"

    static let virtualPrefixes = ["docker", "veth", "virbr", "br-", "tun", "tap", "lo"]

    /// Picks addresses from `interfaces` (pure: tests feed made-up lists).
    public static func select(from interfaces: [Interface]) -> [String] {
        let up = interfaces.filter(\.isUp)
        let lan = up.filter { interface in
            !interface.isLoopback && !virtualPrefixes.contains(where: { interface.name.hasPrefix($0) })
                && !interface.address.hasPrefix("169.254.")
        }
        var seen = Set<String>()
        let chosen = (lan.isEmpty ? up.filter(\.isLoopback) : lan).map(\.address).filter { seen.insert($0).inserted }
        return chosen.isEmpty ? ["127.0.0.1"] : chosen
    }

    /// The override from `environment`, if set: its numeric addresses.
    public static func override(in environment: [String: String] = ProcessInfo.processInfo.environment) -> [String]? {
        guard let value = environment[overrideVariable], !value.isEmpty else { return nil }
        let addresses = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter(IPAddressText.isNumeric)
        return addresses.isEmpty ? nil : addresses
    }

    /// The machine's IPv4 interface addresses (reads `getifaddrs`; opens no socket).
    public static func systemInterfaces() -> [Interface] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var result: [Interface] = []
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            guard getnameinfo(address, socklen_t(MemoryLayout<sockaddr_in>.size), &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            let flags = Int32(entry.pointee.ifa_flags)
            let numeric = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            result.append(Interface(name: String(cString: entry.pointee.ifa_name), address: numeric,
                                    isUp: flags & Int32(IFF_UP) != 0 && flags & Int32(IFF_RUNNING) != 0,
                                    isLoopback: flags & Int32(IFF_LOOPBACK) != 0))
        }
        return result
    }

    /// The override if set, else ``select(from:)`` over the system's interfaces.
    public static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        override(in: environment) ?? select(from: systemInterfaces())
    }
}
