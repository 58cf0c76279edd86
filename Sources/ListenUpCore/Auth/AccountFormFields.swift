/// What the forms that make an account or set a password share (Create
/// admin, Create Account, Reset Password): each field's text, the fields the
/// user has left (their errors show from then on), and a password with its
/// optional confirmation, which the page sees only as a length and a match.
///
/// A value the model keeps (observed as one property); the model says which
/// of its fields is the password and which the confirmation, and keeps its
/// own rules for the other fields. Never prints a text: passwords live here.
public struct AccountFormFields<Field: Hashable & Sendable>: Sendable {
    private var texts: [Field: String] = [:]
    /// Fields the user has left at least once (or that Create or Continue checked).
    public private(set) var touched: Set<Field> = []
    private let password: Field
    private let confirmation: Field?

    /// - Parameters:
    ///   - password: the field holding the password.
    ///   - confirmation: the field that repeats it, if the form has one.
    public init(password: Field, confirmation: Field? = nil) {
        self.password = password
        self.confirmation = confirmation
    }

    /// The text of `field` as typed (the module's own: a page reads the
    /// model's named properties, and never a password).
    subscript(field: Field) -> String { texts[field] ?? "" }

    /// The text of `field` without surrounding spaces (what is sent).
    func trimmed(_ field: Field) -> String {
        self[field].trimmingCharacters(in: .whitespaces)
    }

    /// How long the password is (what the page may know of it).
    public var passwordLength: Int { self[password].count }

    /// Whether the confirmation repeats the password (true without one).
    public var confirmationMatches: Bool {
        confirmation.map { self[$0] == self[password] } ?? true
    }

    /// Sets `field`'s text; false when it was that already (a page writing
    /// the model's own text back is not an edit). The password and its
    /// confirmation are touched as they are typed: their errors follow the
    /// typing.
    @discardableResult
    public mutating func set(_ field: Field, to text: String) -> Bool {
        guard text != self[field] else { return false }
        texts[field] = text
        if field == password || field == confirmation { touched.insert(field) }
        return true
    }

    /// Marks `fields` as left by the user: their errors may show.
    public mutating func touch(_ fields: Field...) { touched.formUnion(fields) }

    /// Marks `fields` as left by the user: their errors may show.
    public mutating func touch(_ fields: some Sequence<Field>) { touched.formUnion(fields) }

    /// Forgets what `touched` says (a form started again).
    public mutating func untouch() { touched = [] }

    /// `problem`, if `field` was touched: what to show under it now.
    public func visible(_ problem: String?, for field: Field) -> String? {
        touched.contains(field) ? problem : nil
    }

    /// The password's problem in the forms' words, if any.
    public var passwordProblem: String? { AccountFormRules.passwordProblem(length: passwordLength) }

    /// The confirmation's problem, if any.
    public var confirmationProblem: String? {
        confirmationMatches ? nil : tr("The passwords don't match.")
    }

    /// Forgets the password and its confirmation (sent, or given up).
    public mutating func forgetPassword() {
        texts[password] = nil
        if let confirmation { texts[confirmation] = nil }
    }
}

extension AccountFormFields: CustomStringConvertible, CustomDebugStringConvertible {
    /// Never a text: a password may be among them.
    public var description: String { "AccountFormFields(\(texts.count) fields, \(touched.count) touched)" }
    public var debugDescription: String { description }
}

/// Where a form that makes an account stands (Create admin, Create Account).
public enum AccountFormStatus: Equatable, Sendable {
    case editing
    case creating
    /// The server refused, or could not be reached; `code` is machine-readable.
    case failed(code: String, message: String)
}

/// A screen whose form makes an account (Create admin, Create Account):
/// what its page reads is the same; each model has its own fields, rules
/// and request.
@MainActor
public protocol AccountFormModel: AnyObject {
    associatedtype Field: Hashable & CaseIterable & Sendable
    var form: AccountFormFields<Field> { get }
    var status: AccountFormStatus { get }
    /// The local problem with `field`, if any.
    func error(for field: Field) -> String?
    /// Marks `field` as left by the user (its error may show).
    func touch(_ field: Field)
}

extension AccountFormModel {
    /// The error to show under `field` now.
    public func visibleError(for field: Field) -> String? {
        form.visible(error(for: field), for: field)
    }

    /// Whether every field is valid.
    public var isValid: Bool { Field.allCases.allSatisfy { error(for: $0) == nil } }

    /// Whether Create can be pressed.
    public var canCreate: Bool { status != .creating }

    /// The failure's sentence, if any.
    public var errorMessage: String? {
        if case .failed(_, let message) = status { return message }
        return nil
    }

    /// Fields the user has left at least once: their errors show from then on.
    public var touched: Set<Field> { form.touched }
}
