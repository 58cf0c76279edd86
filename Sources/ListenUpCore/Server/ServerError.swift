import Foundation

/// Why a call to the server failed, in the terms the screens report: the
/// error of the ``ServerConnection`` port, whichever client (REST v1 or
/// kRPC) made the call.
public enum ServerError: Error, Equatable, Sendable {
    /// No usable answer: the connection failed, timed out, …
    case transport(TransportError)
    /// The server refused with its own message (4xx/5xx envelope).
    case server(status: Int, message: String)
    /// 429 on setup/login: too many attempts.
    case rateLimited
    /// Too many attempts, and the server says when to try again (kRPC
    /// `AuthError.RateLimited{retryAfterSeconds}`).
    case rateLimitedFor(seconds: Int)
    /// The server answered with an error this app does not know (a kRPC
    /// `AppError` type newer than the app); the text is for logs.
    case serverNewer(String)
    /// The session is over: the refresh token was refused.
    case sessionLapsed
    /// The answer was not the envelope or payload the contract promises.
    case protocolMismatch(String)
    /// A redirect to another origin; not followed (it would leak the token).
    case redirectRefused(to: String)
    /// The server refused an invite: unknown, used, expired, or its email taken.
    case invite(InviteRefusal)
    /// The server refused to complete a password reset.
    case passwordReset(PasswordResetRefusal)

    /// Machine-readable code (headless `code`).
    public var code: String {
        switch self {
        case .transport(.timedOut): "timedOut"
        case .transport(.tlsFailure): "tlsFailure"
        case .transport: "unreachable"
        case .server(401, _): "invalidCredentials"
        case .server(403, _): "forbidden"
        case .server(409, _): "conflict"
        case .server(let status, _) where status >= 500: "serverError"
        case .server: "rejected"
        case .rateLimited, .rateLimitedFor: "rateLimited"
        case .serverNewer: "serverNewer"
        case .sessionLapsed: "sessionLapsed"
        case .protocolMismatch: "protocolMismatch"
        case .redirectRefused: "redirectRefused"
        case .invite(let refusal): refusal.code
        case .passwordReset(let refusal): refusal.code
        }
    }
}
