import Foundation

/// Checks that an address is a ListenUp server the app speaks to, and which
/// generation (``ServerGeneration``): the port. The app's verifier asks
/// the server over HTTP (REST v1's `GET /api/v1/instance`, then kRPC's
/// `/healthz` and `getServerInfo`) and lives with the server clients in
/// `ListenUpLive` (`ServerVerifier+Live.swift`); ``Dependencies/verifier``
/// makes it through ``Dependencies/makeVerifier``.
public struct ServerVerifier: Sendable {
    /// Verifies `address`.
    public var verify: @Sendable (ServerAddress) async -> Result<VerifiedServer, ServerVerificationError>

    public init(verify: @escaping @Sendable (ServerAddress) async -> Result<VerifiedServer, ServerVerificationError>) {
        self.verify = verify
    }

    /// The longest an attempt may take.
    public static let timeout: Duration = .seconds(10)

    /// Finds no server at any address (previews, the core's tests).
    public static let unreachable = ServerVerifier { _ in .failure(.unreachable) }
}

extension URL {
    /// `path` (which starts with `/`) under this base URL, keeping any path
    /// prefix the base has (a server behind a reverse proxy at `/listenup`).
    public func appendingAPIPath(_ path: String) -> URL {
        var text = absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text + path) ?? self
    }
}
