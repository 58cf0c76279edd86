import Foundation

/// What went wrong in pairing, on either side.
public enum PairingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Files under the pairing directory could not be read or written.
    case storage(String)
    /// The stored identity is unreadable (it is not replaced silently: the
    /// fingerprint would change under every paired device).
    case corruptIdentity(String)
    /// The discovery server could not start (bind failed, TLS set-up failed).
    case serverStartFailed(String)
    /// The server answered with an error body.
    case server(status: Int, code: String, message: String)
    /// The server's certificate does not match the pinned fingerprint: nothing was sent.
    case fingerprintMismatch
    /// None of the URI's addresses could be reached.
    case unreachable(String)
    /// The server's answer was not what the protocol says.
    case badResponse(String)
    /// The companion has no stored pairing.
    case notPaired
    /// The desktop ended an event stream and said why (`revoked`, `unpaired`,
    /// `unauthorized`); the companion should not reconnect with this token.
    case streamEnded(String)

    public var description: String {
        switch self {
        case .storage(let reason): "pairing storage: \(reason)"
        case .corruptIdentity(let reason): "pairing identity unreadable: \(reason)"
        case .serverStartFailed(let reason): "discovery server did not start: \(reason)"
        case .server(let status, let code, let message): "server said \(status) \(code): \(message)"
        case .fingerprintMismatch: "the desktop's certificate does not match the fingerprint in the pairing code"
        case .unreachable(let reason): "cannot reach the desktop: \(reason)"
        case .badResponse(let reason): "unexpected answer: \(reason)"
        case .notPaired: "not paired"
        case .streamEnded(let reason): "the desktop ended the stream (\(reason))"
        }
    }
}
