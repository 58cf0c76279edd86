import Foundation

extension ServerError {
    /// What to tell the user, in plain words. Server messages are shown only
    /// where the contract says they are meant for people (400/403/409 texts).
    public var userMessage: String {
        switch self {
        case .transport(.timedOut):
            tr("The server didn't answer in time. Check your connection and try again.")
        case .transport(.tlsFailure):
            tr("Couldn't make a secure connection to the server: its certificate isn't trusted.")
        case .transport:
            tr("Couldn't reach the server. Check your connection and that the server is running.")
        case .server(401, _):
            tr("That email and password don't match an account on this server.")
        case .server(let status, let message) where [400, 403, 409].contains(status) && !message.isEmpty:
            message.prefix(1).uppercased() + message.dropFirst() + (message.hasSuffix(".") ? "" : ".")
        case .server(let status, _) where status >= 500:
            tr("The server ran into a problem. Try again in a moment.")
        case .server:
            tr("The server refused the request.")
        case .rateLimited:
            tr("Too many attempts. Wait a minute, then try again.")
        case .rateLimitedFor(let seconds) where seconds <= 1:
            tr("Too many attempts. Wait a second, then try again.")
        case .rateLimitedFor(let seconds):
            // TRANSLATORS: %@ is a number of seconds, 2 or more.
            tr("Too many attempts. Wait %@ seconds, then try again.", String(seconds))
        case .serverNewer:
            tr("This server is newer than the app and answered in a way it doesn't know. Update ListenUp for Linux.")
        case .sessionLapsed:
            tr("Your session has ended. Sign in again to continue.")
        case .protocolMismatch:
            tr("The server answered in a way this app doesn't understand.")
        case .invite(let refusal):
            refusal.userMessage
        case .passwordReset(let refusal):
            refusal.userMessage
        case .redirectRefused(let target):
            tr("The server tried to send you to another address (%@). For your safety, the app didn't follow.", target)
        }
    }
}
