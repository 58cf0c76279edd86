import Foundation

/// Which generation of ListenUp server an address runs, found when it is
/// verified and saved with it: it decides which ``ServerConnection`` the app
/// talks to it through (``Dependencies/connect(to:session:)``).
///
/// Nothing above the server seam looks at it: models and pages work the same
/// against either.
public enum ServerGeneration: String, Codable, CaseIterable, Equatable, Sendable {
    /// The Go server's REST v1 (`GET /api/v1/instance`, the `v: 1` envelope).
    /// A server saved before generations were recorded is one of these.
    case restV1 = "rest-v1"
    /// Today's Kotlin server (v0.9): kotlinx-rpc "kRPC" over WebSocket.
    case krpc
}

/// What a kRPC server says about itself (`InstanceService.getServerInfo`),
/// in the core's terms: the kRPC types stay in `ListenUpLive`.
public struct ServerInstanceInfo: Equatable, Sendable {
    /// The server's display name.
    public var name: String
    /// The server's version (e.g. `0.9.0`).
    public var version: String
    /// The contract's API version; this app speaks `v1`.
    public var apiVersion: String
    /// The stable instance id (also advertised over mDNS).
    public var instanceID: String
    /// No user exists yet: the next screen is Create admin.
    public var setupRequired: Bool

    /// Creates the info; each parameter sets the property of the same name.
    public init(name: String, version: String, apiVersion: String, instanceID: String, setupRequired: Bool) {
        self.name = name
        self.version = version
        self.apiVersion = apiVersion
        self.instanceID = instanceID
        self.setupRequired = setupRequired
    }
}

/// Asks the kRPC server at a base URL for its ``ServerInstanceInfo`` (on its
/// public socket), within a time limit. Set by the composition root
/// (`ListenUpLive`), since it needs a WebSocket; nil where there is none
/// (previews, unit tests): then no kRPC server is recognised.
/// - Returns: the answer, or why there was none (``ServerVerificationError``).
public typealias KRPCServerInfoProbe = @Sendable (_ base: URL, _ timeout: Duration) async
    -> Result<ServerInstanceInfo, ServerVerificationError>
