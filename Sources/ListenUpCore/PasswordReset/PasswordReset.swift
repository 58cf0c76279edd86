import Foundation

/// An open password-reset request (issue 28, part 3; addendum §6.3,
/// upstream `api/dto/auth/PasswordReset.kt`): what the status watch and the
/// completion need. The server returns one for every request, also for an
/// email with no account behind it, so a ticket says nothing of the account.
public struct PasswordResetTicket: Equatable, Sendable {
    /// The request's id.
    public var ticketID: String
    /// When the request expires (15 minutes after it was made).
    public var expiresAt: Date

    /// Creates a ticket; each parameter sets the property of the same name.
    public init(ticketID: String, expiresAt: Date) {
        self.ticketID = ticketID
        self.expiresAt = expiresAt
    }
}

/// One answer of the password-reset status watch (`PasswordResetStatus`).
public enum PasswordResetStatus: String, Equatable, Sendable, CaseIterable {
    /// No administrator has decided yet (an unknown ticket looks so too).
    case pending
    /// Approved: an administrator has a code to give the user.
    case approved
    /// Denied: the request is dead.
    case denied
    /// Completed: the password was changed.
    case consumed
    /// Past its 15 minutes.
    case expired

    /// Whether the watch ends with this answer.
    public var isTerminal: Bool { self != .pending && self != .approved }
}

/// Why the server refused a password reset's completion (``ServerError/passwordReset(_:)``;
/// upstream `api/error/AuthError.kt`).
public enum PasswordResetRefusal: Equatable, Sendable {
    /// `ResetRequestNotFound`: unknown, expired or already used; start again.
    case notFound
    /// `ResetNotApproved`: still pending, or denied (one answer for both).
    case notApproved
    /// `ResetCodeIncorrect{attemptsRemaining}`: the code (or this device's claim) is wrong.
    case codeIncorrect(attemptsRemaining: Int)
    /// `ResetAttemptsExhausted`: five wrong codes; the request is dead.
    case attemptsExhausted

    /// Machine-readable code (headless `code`).
    public var code: String {
        switch self {
        case .notFound: "resetNotFound"
        case .notApproved: "resetNotApproved"
        case .codeIncorrect: "resetCodeIncorrect"
        case .attemptsExhausted: "resetAttemptsExhausted"
        }
    }

    /// What to tell the user.
    public var userMessage: String {
        switch self {
        case .notFound:
            tr("This reset is no longer valid. Start again.")
        case .notApproved:
            tr("An administrator hasn't approved this reset.")
        case .codeIncorrect(let left) where left <= 0:
            tr("That code is not right.")
        case .codeIncorrect(let left):
            // TRANSLATORS: %@ is the number of tries left, 1 or more.
            trn("That code is not right. %@ try left.", "That code is not right. %@ tries left.", count: left, String(left))
        case .attemptsExhausted:
            tr("Too many wrong codes. Start again.")
        }
    }
}

/// The administrator's code as the server takes it (`ResetCodeGenerator.kt`):
/// shown as `ABCD-2345`, read upper-cased with everything but letters and
/// digits left out.
public enum PasswordResetCode {
    /// The code's length without its dash.
    public static let length = 8

    /// `text` upper-cased, with only its ASCII letters and digits.
    public static func normalized(_ text: String) -> String {
        String(text.uppercased().unicodeScalars.filter { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }.map(Character.init))
    }

    /// Whether `text` holds a code of the right length once normalized.
    public static func isComplete(_ text: String) -> Bool {
        normalized(text).count == length
    }
}

/// The secret that binds a reset to this device (`deviceClaim`): 32 random
/// bytes, base64url without padding. Minted per request, held in memory
/// only; never printed.
public struct DeviceClaim: Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The secret as sent.
    public let value: String

    /// A new claim from the system's random source.
    public static func mint() -> DeviceClaim {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return DeviceClaim(value: Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: ""))
    }

    public var description: String { "<device claim>" }
    public var debugDescription: String { "<device claim>" }
    public var customMirror: Mirror { Mirror(self, children: []) }
}

/// What a connection with no server behind it answers (previews, unit
/// tests): every reset call fails as unreachable. The kRPC connection
/// implements all three; REST v1 says the server can't.
extension ServerConnection {
    public func requestPasswordReset(email: String, deviceClaim: String) async throws(ServerError) -> PasswordResetTicket {
        throw .transport(.unreachable("offline"))
    }

    public func passwordResetStatus(ticketID: String) async throws(ServerError) -> AsyncThrowingStream<PasswordResetStatus, any Error> {
        throw .transport(.unreachable("offline"))
    }

    public func completePasswordReset(ticketID: String, claimSecret: String, code: String, newPassword: String) async throws(ServerError) {
        throw .transport(.unreachable("offline"))
    }
}

/// The texts password reset shares across protocols.
public enum PasswordResetMessages {
    /// What a REST v1 server (which has no password reset) answers.
    public static var unavailable: String { tr("This server can't reset passwords. Ask its administrator.") }
}

extension KnownServer {
    /// Whether the server can reset a forgotten password: kRPC servers can
    /// (`AuthServicePublic.requestPasswordReset`); the Go server's REST v1 has
    /// no password reset (addendum §7), so Sign in does not offer it there.
    public var offersPasswordReset: Bool { generation == .krpc }
}
