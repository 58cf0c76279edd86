import Foundation
import ListenUpKRPC

/// Writes one JSON object the way kotlinx.serialization writes it with the
/// contract's `contractJson` (§1.4): keys in declaration order, compact,
/// `/` and non-ASCII unescaped, numbers as numbers, Floats by Kotlin's
/// `toString` (`1.0`, `1.25`).
///
/// Defaults are the caller's business, field by field: a property with a
/// Kotlin default is omitted when it holds it (`encodeDefaults = false`:
/// the `…IfPresent`/`…IfTrue` writers), a nullable property without one is
/// always written, `null` included (`explicitNulls`: the optional-taking
/// writers). A value type; build one per object.
struct KotlinJSONObject {
    private var text = "{"
    private var isEmpty = true

    /// `"key":<json>`, where `json` is already JSON text.
    mutating func raw(_ key: String, _ json: String) {
        if !isEmpty { text += "," }
        isEmpty = false
        text += Self.quoted(key)
        text += ":"
        text += json
    }

    /// A string.
    mutating func string(_ key: String, _ value: String) {
        raw(key, Self.quoted(value))
    }

    /// A nullable string without a default: always written, `null` for nil.
    mutating func string(_ key: String, _ value: String?) {
        raw(key, value.map(Self.quoted) ?? "null")
    }

    /// A nullable string whose default is null: omitted when nil.
    mutating func stringIfPresent(_ key: String, _ value: String?) {
        if let value { string(key, value) }
    }

    /// A whole number.
    mutating func integer(_ key: String, _ value: Int64) {
        raw(key, String(value))
    }

    /// A nullable whole number without a default: always written.
    mutating func integer(_ key: String, _ value: Int64?) {
        raw(key, value.map { String($0) } ?? "null")
    }

    /// A nullable whole number whose default is null: omitted when nil.
    mutating func integerIfPresent(_ key: String, _ value: Int64?) {
        if let value { integer(key, value) }
    }

    /// A Kotlin `Float`, printed as Kotlin prints it.
    mutating func float(_ key: String, _ value: Double) {
        raw(key, Self.float(value))
    }

    /// A Boolean.
    mutating func bool(_ key: String, _ value: Bool) {
        raw(key, value ? "true" : "false")
    }

    /// A Boolean whose default is false: omitted when false.
    mutating func boolIfTrue(_ key: String, _ value: Bool) {
        if value { bool(key, true) }
    }

    /// The finished object text.
    func finished() -> String {
        text + "}"
    }

    /// A Float as Kotlin's `toString` prints it: `1.0`, `1.25` (non-finite
    /// values never get here: every decoded number is finite).
    static func float(_ value: Double) -> String {
        let float = Float(value)
        return float.isFinite ? float.description : "0.0"
    }

    /// `value` as a JSON string literal: quotes, backslashes and control
    /// characters escaped, everything else raw (``JSONQuoting``).
    static func quoted(_ value: String) -> String {
        JSONQuoting.quoted(value)
    }

    /// A JSON array of `items`, each already JSON text.
    static func array(_ items: [String]) -> String {
        "[" + items.joined(separator: ",") + "]"
    }

    /// A JSON array of strings.
    static func strings(_ items: [String]) -> String {
        array(items.map(quoted))
    }
}
