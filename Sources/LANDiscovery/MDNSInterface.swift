import CAvahi
import Foundation

/// The network interface mDNS browsing and announcing run on.
///
/// Tests keep mDNS on loopback (`.named("lo")`): nothing they publish or ask
/// for may reach the LAN. The app takes it from `LISTENUP_MDNS_INTERFACE`
/// (``fromEnvironment(_:)``), which `make test` sets to `lo`.
public enum MDNSInterface: Equatable, Sendable, CustomStringConvertible {
    /// Every interface avahi-daemon serves.
    case any
    /// This interface only (e.g. `lo`). When no interface has this name,
    /// nothing is browsed or announced: never every interface instead.
    case named(String)

    /// The environment variable ``fromEnvironment(_:)`` reads.
    public static let environmentVariable = "LISTENUP_MDNS_INTERFACE"

    /// `LISTENUP_MDNS_INTERFACE=lo` → `.named("lo")`; unset or empty → `.any`.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> MDNSInterface {
        guard let name = environment[environmentVariable]?.trimmingCharacters(in: .whitespaces), !name.isEmpty else { return .any }
        return .named(name)
    }

    /// The interface's index (`if_nametoindex`), or nil when there is no
    /// such interface. `.any` has none.
    public var index: Int32? {
        guard case .named(let name) = self else { return nil }
        let index = if_nametoindex(name)
        return index == 0 ? nil : Int32(bitPattern: index)
    }

    /// What to give Avahi: `AVAHI_IF_UNSPEC` for `.any`, the index for a
    /// named interface, nil when the named interface does not exist.
    var avahiIndex: AvahiIfIndex? {
        switch self {
        case .any: AvahiIfIndex(AVAHI_IF_UNSPEC)
        case .named: index.map { AvahiIfIndex($0) }
        }
    }

    public var description: String {
        switch self {
        case .any: "every interface"
        case .named(let name): name
        }
    }
}
