import Foundation
import JSONToolkit
import ListenUpKRPC

/// A typed ListenUp error as the server sends it (§3.0):
/// `{"type":"<Family.Sub>","correlationId"?,…subtype fields}`. `code`,
/// `message` and `isRetryable` are constants of the type and never on the
/// wire (except `AppError.ValidationError.message`).
struct DemoAppFailure: Error, Sendable {
    /// The discriminator, e.g. `AuthError.RateLimited`.
    var type: String
    /// The subtype's own fields, in declaration order, as JSON text.
    var fields: [(name: String, json: String)] = []

    static let invalidCredentials = DemoAppFailure(type: "AuthError.InvalidCredentials")
    static let setupRequired = DemoAppFailure(type: "AuthError.SetupRequired")
    static let setupAlreadyComplete = DemoAppFailure(type: "AuthError.SetupAlreadyComplete")
    static let registrationDisabled = DemoAppFailure(type: "AuthError.RegistrationDisabled")
    static let sessionExpired = DemoAppFailure(type: "AuthError.SessionExpired")
    static let permissionDenied = DemoAppFailure(type: "AuthError.PermissionDenied")
    static let internalError = DemoAppFailure(type: "AppError.InternalError")

    /// `AuthError.RateLimited{retryAfterSeconds}`.
    static func rateLimited(retryAfterSeconds: Int) -> DemoAppFailure {
        DemoAppFailure(type: "AuthError.RateLimited", fields: [("retryAfterSeconds", String(retryAfterSeconds))])
    }

    /// `AuthError.InvalidRefreshToken{familyRevoked}`.
    static func invalidRefreshToken(familyRevoked: Bool) -> DemoAppFailure {
        DemoAppFailure(type: "AuthError.InvalidRefreshToken", fields: [("familyRevoked", familyRevoked ? "true" : "false")])
    }

    /// `AuthError.WeakPassword{reason}`.
    static func weakPassword(_ reason: WeakPasswordReason) -> DemoAppFailure {
        DemoAppFailure(type: "AuthError.WeakPassword", fields: [("reason", JSONWriter.quoted(reason.rawValue))])
    }

    /// `AppError.ValidationError{message, field?}`.
    static func validation(_ message: String, field: String?) -> DemoAppFailure {
        var fields = [("message", JSONWriter.quoted(message))]
        if let field { fields.append(("field", JSONWriter.quoted(field))) }
        return DemoAppFailure(type: "AppError.ValidationError", fields: fields)
    }

    /// `SyncError.NotFound{domain, entityId}`; domain `book` also means "not accessible".
    static func notFound(domain: String, entityId: String) -> DemoAppFailure {
        DemoAppFailure(type: "SyncError.NotFound", fields: [("domain", JSONWriter.quoted(domain)),
                                                             ("entityId", JSONWriter.quoted(entityId))])
    }

    /// `SyncError.UnknownDomain{domain}`.
    static func unknownDomain(_ domain: String) -> DemoAppFailure {
        DemoAppFailure(type: "SyncError.UnknownDomain", fields: [("domain", JSONWriter.quoted(domain))])
    }

    /// `SyncError.TooManyIds{requested, maxIds}`.
    static func tooManyIds(requested: Int, maxIds: Int) -> DemoAppFailure {
        DemoAppFailure(type: "SyncError.TooManyIds", fields: [("requested", String(requested)), ("maxIds", String(maxIds))])
    }

    /// `SyncError.UnsupportedMatch{domain, match}`; `match` is the enum name (`BOOK_ID`, §6.5).
    static func unsupportedMatch(domain: String, match: String) -> DemoAppFailure {
        DemoAppFailure(type: "SyncError.UnsupportedMatch", fields: [("domain", JSONWriter.quoted(domain)),
                                                                     ("match", JSONWriter.quoted(match))])
    }

    /// The error object; `correlationId` is omitted when nil (its default).
    func json(correlationId: String?) -> String {
        var object = JSONWriter.object()
        object.string("type", type)
        object.stringIfPresent("correlationId", correlationId)
        for field in fields { object.raw(field.name, field.json) }
        return object.finished()
    }
}

/// The wrappers every ListenUp method answers with (§3.0), as JSON text.
enum DemoKRPCWrap {
    /// `{"type":"Success","data":<data>}`.
    static func success(_ data: String) -> String {
        "{\"type\":\"Success\",\"data\":" + data + "}"
    }

    /// `{"type":"Failure","error":…}`, stamped with a fresh UUID
    /// `correlationId` as the server's guard stamps every returned failure.
    static func failure(_ failure: DemoAppFailure) -> String {
        "{\"type\":\"Failure\",\"error\":" + failure.json(correlationId: UUID().uuidString.lowercased()) + "}"
    }

    /// `AppResult<Unit>`'s success: `{"type":"Success","data":{}}`.
    static let unit = success("{}")

    /// `{"type":"RpcEvent.Data","value":<value>}`.
    static func event(_ value: String) -> String {
        "{\"type\":\"RpcEvent.Data\",\"value\":" + value + "}"
    }

    /// `{"type":"RpcEvent.Error","error":…}`, unstamped as in the contract's example (§2.5).
    static func eventError(_ failure: DemoAppFailure) -> String {
        "{\"type\":\"RpcEvent.Error\",\"error\":" + failure.json(correlationId: nil) + "}"
    }

    /// A `SyncFrame` (§3.4); `revision` is omitted on control frames.
    static func frame(domain: String, revision: Int64?, json: String) -> String {
        var object = JSONWriter.object()
        object.string("domain", domain)
        object.integerIfPresent("revision", revision)
        object.string("json", json)
        return object.finished()
    }

    /// The `control` frame carrying `SyncControl.Heartbeat`: the hello and every heartbeat.
    static let heartbeatFrame = frame(domain: SyncDomain.control.rawValue, revision: nil, json: "{\"type\":\"SyncControl.Heartbeat\"}")

    /// The `control` frame carrying `SyncControl.CursorStale{lastKnownRevision}`.
    static func cursorStaleFrame(lastKnownRevision: Int64) -> String {
        frame(domain: SyncDomain.control.rawValue, revision: nil,
              json: "{\"type\":\"SyncControl.CursorStale\",\"lastKnownRevision\":\(lastKnownRevision)}")
    }
}
