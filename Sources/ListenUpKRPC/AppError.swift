import JSONToolkit

/// A typed ListenUp error as it crosses the wire (§3.0):
/// `{"type":"<Family.Sub>","correlationId"?,"debugInfo"?,...subtype fields}`.
///
/// Decoded generically: the `type`, the two shared fields and every other
/// field in ``fields``. ``kind`` maps `type` to this build's table
/// (``AppErrorKind``); a family this build does not know is
/// ``AppErrorKind/unknown``, meaning "this server is newer than the app".
/// The server never sends `code`, `message` (except on ValidationError) or
/// `isRetryable` for known types: they come from the table. User-facing text
/// is not here; the core translates ``code``.
public struct AppError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The discriminator, e.g. `AuthError.RateLimited`.
    public var type: String
    /// The server's request id (matches `X-Request-Id` and its log line); absent when not stamped.
    public var correlationId: String?
    /// Technical detail from debug builds of the server; nil in release.
    public var debugInfo: String?
    /// Every other field as sent, e.g. `["retryAfterSeconds": .integer(6)]`.
    public var fields: [String: JSONValue]

    /// Creates an error; each parameter sets the property of the same name.
    public init(type: String, correlationId: String? = nil, debugInfo: String? = nil, fields: [String: JSONValue] = [:]) {
        self.type = type
        self.correlationId = correlationId
        self.debugInfo = debugInfo
        self.fields = fields
    }

    /// Where `type` sits in this build's table.
    public var kind: AppErrorKind { AppErrorKind(wireType: type) }

    /// The stable machine code, e.g. `AUTH_RATE_LIMITED`. For an unknown
    /// family, the `code` the newer server sent if any (ListenUp's own
    /// `UnknownError` fallback keeps it), else `UNKNOWN_ERROR`.
    public var code: String {
        if kind == .unknown, let sent = fields["code"]?.stringValue, !sent.isEmpty { return sent }
        return kind.code
    }

    /// Whether retrying the same action is reasonable. For an unknown family,
    /// the `isRetryable` the server sent if any, else false.
    public var isRetryable: Bool {
        if kind == .unknown, let sent = fields["isRetryable"]?.boolValue { return sent }
        return kind.isRetryable
    }

    /// `AuthError.InvalidRefreshToken.familyRevoked`: true when a replay was
    /// detected and every device of this login was signed out.
    public var familyRevoked: Bool? { fields["familyRevoked"]?.boolValue }

    /// `AuthError.RateLimited.retryAfterSeconds`.
    public var retryAfterSeconds: Int? { fields["retryAfterSeconds"]?.intValue }

    /// `AuthError.WeakPassword.reason`.
    public var weakPasswordReason: WeakPasswordReason? {
        fields["reason"]?.stringValue.map(WeakPasswordReason.init(rawValue:))
    }

    /// `AppError.ValidationError.message`: the server's per-instance text
    /// (on the wire for this type only).
    public var validationMessage: String? {
        kind == .validationError ? fields["message"]?.stringValue : nil
    }

    /// `AppError.ValidationError.field`: the input the error refers to, e.g. `"email"`.
    public var validationField: String? { fields["field"]?.stringValue }

    /// `SyncError.*.domain`, e.g. `"book"` for an inaccessible book (§3.6).
    public var syncDomain: String? { fields["domain"]?.stringValue }

    /// `SyncError.NotFound.entityId`.
    public var syncEntityId: String? { fields["entityId"]?.stringValue }

    /// `AppError.InternalError.cause`: the server-side throwable's simple class name.
    public var internalCause: String? {
        kind == .internalError ? fields["cause"]?.stringValue : nil
    }

    /// `code (type) cid=…`, for logs. Leaves out ``fields``, which may echo input.
    public var description: String {
        var text = "\(code) (\(type))"
        if let correlationId { text += " cid=\(correlationId)" }
        return text
    }
}

extension AppError: Decodable {
    /// Decodes any `AppError` shape; never fails on an unknown `type`.
    /// - Throws: `DecodingError` when the value is not an object with a string `type`.
    public init(from decoder: any Decoder) throws {
        var fields = try decoder.singleValueContainer().decode([String: JSONValue].self)
        guard let type = fields.removeValue(forKey: "type")?.stringValue else {
            throw DecodingError.keyNotFound(AnyCodingKey("type"), DecodingError.Context(
                codingPath: decoder.codingPath, debugDescription: "an AppError needs a string type"))
        }
        let correlationId = fields.removeValue(forKey: "correlationId")?.stringValue
        let debugInfo = fields.removeValue(forKey: "debugInfo")?.stringValue
        self.init(type: type, correlationId: correlationId, debugInfo: debugInfo, fields: fields)
    }
}

/// `AuthError.WeakPassword.reason` (`WeakPasswordReason`). Open: an unknown
/// reason is kept.
public struct WeakPasswordReason: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The name as sent.
    public let rawValue: String

    /// Wraps a name.
    /// - Parameter rawValue: e.g. `"TOO_SHORT"`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Fewer than 8 characters.
    public static let tooShort = WeakPasswordReason(rawValue: "TOO_SHORT")
    /// More than 1024 characters.
    public static let tooLong = WeakPasswordReason(rawValue: "TOO_LONG")
    /// Only whitespace.
    public static let blank = WeakPasswordReason(rawValue: "BLANK")


    /// The name.
    public var description: String { rawValue }
}
