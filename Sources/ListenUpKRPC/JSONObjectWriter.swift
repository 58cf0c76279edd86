/// Writes one JSON object with its keys in the order they are added: how the
/// kRPC envelope gets `type` as its first key (§1.4), which `JSONEncoder`
/// cannot promise.
///
/// Output is compact, `/` is not escaped and non-ASCII is written raw, as
/// kotlinx writes it. A value type; build one per object.
struct JSONObjectWriter {
    private var text = "{"
    private var isEmpty = true

    /// `"key":"value"` (escaped).
    mutating func string(_ key: String, _ value: String) {
        raw(key, Self.quoted(value))
    }

    /// `"key":"value"`, or `"key":null` when `value` is nil.
    mutating func stringOrNull(_ key: String, _ value: String?) {
        raw(key, value.map(Self.quoted) ?? "null")
    }

    /// `"key":<number>`.
    mutating func integer(_ key: String, _ value: Int64) {
        raw(key, String(value))
    }

    /// `"key":<number>` when `value` is set; nothing otherwise (a Kotlin
    /// default omitted under `encodeDefaults = false`).
    mutating func integerIfPresent(_ key: String, _ value: Int64?) {
        if let value { integer(key, value) }
    }

    /// `"key":<json>`, where `json` is already valid JSON text.
    mutating func raw(_ key: String, _ json: String) {
        if !isEmpty { text += "," }
        isEmpty = false
        text += Self.quoted(key)
        text += ":"
        text += json
    }

    /// The finished object text.
    func finished() -> String {
        text + "}"
    }

    /// `value` as a JSON string literal: quotes, backslashes and control
    /// characters escaped, everything else (including `/` and non-ASCII) raw
    /// (``JSONQuoting``).
    static func quoted(_ value: String) -> String {
        JSONQuoting.quoted(value)
    }

    /// A JSON array of `values`, each already valid JSON text.
    static func array(_ values: [String]) -> String {
        "[" + values.joined(separator: ",") + "]"
    }
}
