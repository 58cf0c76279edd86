import Foundation

/// A ListenUp server seen on the local network (mDNS `_listenup._tcp`).
public struct LANServer: Equatable, Hashable, Sendable, Identifiable {
    /// Stable identity: the TXT `id` (the instance id) when present.
    public var id: String
    /// The server's name (TXT `name`, else the service name).
    public var name: String
    /// `host:port` as shown to the user.
    public var hostAndPort: String
    /// The advertised version (TXT `version`), if any.
    public var version: String?
    /// Where to reach it: `http://<address>:<port>` (TLS is not advertised).
    public var url: URL

    public init(id: String, name: String, hostAndPort: String, version: String?, url: URL) {
        self.id = id
        self.name = name
        self.hostAndPort = hostAndPort
        self.version = version
        self.url = url
    }
}

/// What LAN discovery reports.
public enum ServerDiscoveryEvent: Equatable, Sendable {
    case found(LANServer)
    case lost(id: String)
    /// Discovery cannot run (no avahi-daemon, no system bus); manual entry still works.
    case unavailable(reason: String)
}

/// Browses the LAN for ListenUp servers. A struct of closures: the live one
/// wraps Avahi (the `LANDiscovery` module); previews and tests feed events.
public struct ServerDiscoveryClient: Sendable {
    /// Starts browsing; stops when the stream's consumer stops.
    public var browse: @Sendable () -> AsyncStream<ServerDiscoveryEvent>

    public init(browse: @escaping @Sendable () -> AsyncStream<ServerDiscoveryEvent>) {
        self.browse = browse
    }

    /// Reports `events`, then stays open (nothing else appears).
    public static func fixed(_ events: [ServerDiscoveryEvent]) -> ServerDiscoveryClient {
        ServerDiscoveryClient {
            AsyncStream { continuation in
                for event in events { continuation.yield(event) }
            }
        }
    }
}
