/// Why a request would be refused by the server's `init { require(…) }`
/// (§1.5, §3.2). Such a refusal arrives as a CallException with no typed
/// error, so callers check first with `validate()` and say what to fix.
///
/// Lengths count UTF-16 code units and "blank" means whitespace only, as
/// Kotlin's `String.length` and `isBlank()` do.
public enum RequestValidationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The password has fewer than 8 characters.
    case passwordTooShort
    /// The password has more than 1024 characters.
    case passwordTooLong
    /// The display name is empty or only whitespace.
    case blankDisplayName
    /// A ``DeviceInfo`` field has more than 128 characters.
    case deviceInfoFieldTooLong(field: String)
    /// A book id is empty or only whitespace.
    case blankBookId

    /// One line for logs.
    public var description: String {
        switch self {
        case .passwordTooShort: return "password shorter than \(RequestLimits.passwordLength.lowerBound) characters"
        case .passwordTooLong: return "password longer than \(RequestLimits.passwordLength.upperBound) characters"
        case .blankDisplayName: return "blank display name"
        case .deviceInfoFieldTooLong(let field): return "deviceInfo.\(field) longer than \(RequestLimits.deviceInfoFieldLength) characters"
        case .blankBookId: return "blank book id"
        }
    }

    /// The matching `AuthError.WeakPassword` reason, for password errors.
    public var weakPasswordReason: WeakPasswordReason? {
        switch self {
        case .passwordTooShort: return .tooShort
        case .passwordTooLong: return .tooLong
        default: return nil
        }
    }
}

/// The limits the server's request types enforce.
public enum RequestLimits {
    /// `password.length in 8..1024` (UTF-16 code units).
    public static let passwordLength = 8...1024
    /// Each ``DeviceInfo`` field: at most 128 characters.
    public static let deviceInfoFieldLength = 128

    /// Checks a password's length.
    /// - Parameter password: the password.
    /// - Throws: ``RequestValidationError/passwordTooShort`` or ``RequestValidationError/passwordTooLong``.
    public static func validate(password: String) throws(RequestValidationError) {
        let length = password.utf16.count
        if length < passwordLength.lowerBound { throw .passwordTooShort }
        if length > passwordLength.upperBound { throw .passwordTooLong }
    }

    /// `text` cut to at most `limit` UTF-16 code units, the length Kotlin's
    /// `String.length` counts (so `DeviceInfo`'s `init { require(…) }`,
    /// `contract/.../dto/auth/DeviceInfo.kt`, accepts it). Cut between whole
    /// characters: never inside a surrogate pair (an emoji, any character
    /// beyond the Basic Multilingual Plane) nor inside a grapheme cluster;
    /// a text that fits is returned as it is.
    ///
    /// Pure; any thread.
    /// - Parameters:
    ///   - text: the text.
    ///   - limit: the most UTF-16 code units to keep.
    /// - Returns: the longest prefix of whole characters that fits.
    public static func cut(_ text: String, toUTF16 limit: Int) -> String {
        guard text.utf16.count > limit else { return text }
        var kept = 0
        var end = text.startIndex
        for index in text.indices {
            let next = text.index(after: index)
            let width = text.utf16.distance(from: index, to: next)
            guard kept + width <= limit else { break }
            kept += width
            end = next
        }
        return String(text[..<end])
    }

    /// Kotlin's `isBlank()`: empty or whitespace only.
    /// - Parameter text: the text.
    /// - Returns: whether it is blank.
    public static func isBlank(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0.properties.isWhitespace }
    }
}

extension DeviceInfo {
    /// Checks every field's length.
    /// - Throws: ``RequestValidationError/deviceInfoFieldTooLong(field:)`` naming the first long field.
    public func validate() throws(RequestValidationError) {
        for (name, value) in namedFields {
            if let value, value.utf16.count > RequestLimits.deviceInfoFieldLength {
                throw .deviceInfoFieldTooLong(field: name)
            }
        }
    }
}

extension LoginRequest {
    /// Checks what the server's `init` requires: the password length and the device info.
    /// - Throws: the first ``RequestValidationError`` found.
    public func validate() throws(RequestValidationError) {
        try RequestLimits.validate(password: password)
        try deviceInfo?.validate()
    }
}

extension RegisterRequest {
    /// Checks what the server's `init` requires: the password length, a
    /// non-blank display name and the device info.
    /// - Throws: the first ``RequestValidationError`` found.
    public func validate() throws(RequestValidationError) {
        try RequestLimits.validate(password: password)
        if RequestLimits.isBlank(displayName) { throw .blankDisplayName }
        try deviceInfo?.validate()
    }
}

extension BookIdArguments {
    /// Checks that the book id is not blank (`BookId`'s `init`).
    /// - Throws: ``RequestValidationError/blankBookId``.
    public func validate() throws(RequestValidationError) {
        if RequestLimits.isBlank(bookId) { throw .blankBookId }
    }
}

extension PrepareArguments {
    /// Checks that the book id is not blank (`BookId`'s `init`).
    /// - Throws: ``RequestValidationError/blankBookId``.
    public func validate() throws(RequestValidationError) {
        if RequestLimits.isBlank(bookId) { throw .blankBookId }
    }
}
