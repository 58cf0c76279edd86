import Foundation

/// The rules and words every form that makes an account shares (Create
/// admin, Create Account, an invite's claim): an email like `a@b.c`, and a
/// password within both servers' limits (kRPC `RegisterRequest` requires
/// 8…1024 characters, contract K§3.2; the Go server 8 or more).
public enum AccountFormRules {
    /// The shortest and longest passwords both servers take.
    public static let passwordLengths = 8...1024

    /// Whether `text` (already trimmed) looks like an email: one `@`,
    /// something before it, a dot inside what follows, no spaces.
    public static func isEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && !parts[1].hasPrefix(".") && !parts[1].hasSuffix(".")
            && !text.contains(" ")
    }

    /// The email's problem, in the forms' words; nil when it looks right.
    public static func emailProblem(_ text: String) -> String? {
        isEmail(text.trimmingCharacters(in: .whitespaces)) ? nil : tr("Enter a valid email address, like ada@example.com.")
    }

    /// The problem of a password of `length` characters; nil within the limits.
    public static func passwordProblem(length: Int) -> String? {
        if length < passwordLengths.lowerBound { return tr("Use at least 8 characters.") }
        if length > passwordLengths.upperBound { return tr("Use at most 1024 characters.") }
        return nil
    }
}
