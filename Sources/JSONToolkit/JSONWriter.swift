/// Writes JSON text into a byte buffer, in the order it is told: the one
/// writer behind the kRPC envelope (keys in declaration order, as kotlinx
/// writes them, which `JSONEncoder` cannot promise), the demo server's
/// Kotlin-shaped objects, the library store's book details (byte for byte
/// what `JSONEncoder` writes with sorted keys), the headless front's lines
/// (``JSONValue/jsonLine()``) and the remote's command bodies.
///
/// Output is compact; strings go through ``JSONEscaping`` (`/` raw unless
/// the writer was made `escapingSlash`). Commas are the writer's business:
/// after ``beginObject()`` write ``key(_:)`` then one value, as often as
/// needed, then ``endObject()``; in arrays write values. The keyed
/// conveniences (``string(_:_:)-(String,String)``, ``integerIfPresent(_:_:)``, …)
/// write a key and its value. ``finished()`` closes whatever is still open.
/// A value type; build one per document, on any thread.
public struct JSONWriter: Sendable {
    /// The text written so far.
    public private(set) var bytes: [UInt8] = []
    /// Whether `/` is written `\/` (`JSONEncoder`'s default).
    public let escapingSlash: Bool
    private var needsComma = false
    private var open: [UInt8] = []

    /// An empty writer.
    public init(escapingSlash: Bool = false, capacity: Int = 0) {
        self.escapingSlash = escapingSlash
        bytes.reserveCapacity(capacity)
    }

    /// A writer with an object already begun: add its members, then ``finished()``.
    public static func object(escapingSlash: Bool = false, capacity: Int = 64) -> JSONWriter {
        var writer = JSONWriter(escapingSlash: escapingSlash, capacity: capacity)
        writer.beginObject()
        return writer
    }

    // MARK: Structure

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
    }

    /// `{`.
    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        open.append(UInt8(ascii: "}"))
        needsComma = false
    }

    /// `}`.
    public mutating func endObject() {
        close()
    }

    /// `[`.
    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        open.append(UInt8(ascii: "]"))
        needsComma = false
    }

    /// `]`.
    public mutating func endArray() {
        close()
    }

    private mutating func close() {
        guard let closer = open.popLast() else { return }
        bytes.append(closer)
        needsComma = true
    }

    /// `"name":`, the key of the member whose value comes next.
    public mutating func key(_ name: String) {
        separate()
        JSONEscaping.append(name, escapingSlash: escapingSlash, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    // MARK: Values

    /// A string literal.
    public mutating func string(_ value: String) {
        separate()
        JSONEscaping.append(value, escapingSlash: escapingSlash, to: &bytes)
    }

    /// A whole number.
    public mutating func integer(_ value: Int64) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A number as `JSONEncoder` writes a `Double`: whole values below 10^15
    /// as integers, others in Swift's shortest form without a trailing `.0`;
    /// `null` for a value JSON cannot carry (NaN, infinities).
    public mutating func number(_ value: Double) {
        guard value.isFinite else { return null() }
        if value.rounded() == value, abs(value) < 1e15 { return integer(Int64(value)) }
        let text = value.description
        raw(text.hasSuffix(".0") ? String(text.dropLast(2)) : text)
    }

    /// `true` or `false`.
    public mutating func bool(_ value: Bool) {
        raw(value ? "true" : "false")
    }

    /// `null`.
    public mutating func null() {
        raw("null")
    }

    /// `json`, already valid JSON text.
    public mutating func raw(_ json: String) {
        separate()
        bytes.append(contentsOf: json.utf8)
    }

    /// An array, each element written by `element`.
    public mutating func array<Element>(_ elements: some Sequence<Element>, _ element: (inout JSONWriter, Element) -> Void) {
        beginArray()
        for item in elements { element(&self, item) }
        endArray()
    }

    // MARK: Keyed members

    /// `"key":"value"`.
    public mutating func string(_ key: String, _ value: String) {
        self.key(key)
        string(value)
    }

    /// `"key":"value"`, or `"key":null` when `value` is nil (a nullable
    /// property without a default: always written).
    public mutating func string(_ key: String, _ value: String?) {
        self.key(key)
        if let value { string(value) } else { null() }
    }

    /// `"key":"value"` when `value` is set; nothing otherwise (a Kotlin
    /// default omitted under `encodeDefaults = false`).
    public mutating func stringIfPresent(_ key: String, _ value: String?) {
        if let value { string(key, value) }
    }

    /// `"key":<number>`.
    public mutating func integer(_ key: String, _ value: Int64) {
        self.key(key)
        integer(value)
    }

    /// `"key":<number>`, or `"key":null` when `value` is nil.
    public mutating func integer(_ key: String, _ value: Int64?) {
        self.key(key)
        if let value { integer(value) } else { null() }
    }

    /// `"key":<number>` when `value` is set; nothing otherwise.
    public mutating func integerIfPresent(_ key: String, _ value: Int64?) {
        if let value { integer(key, value) }
    }

    /// `"key":true` or `"key":false`.
    public mutating func bool(_ key: String, _ value: Bool) {
        self.key(key)
        bool(value)
    }

    /// `"key":true` when `value` is true; nothing otherwise (a default of false omitted).
    public mutating func boolIfTrue(_ key: String, _ value: Bool) {
        if value { bool(key, true) }
    }

    /// `"key":<json>`, where `json` is already valid JSON text.
    public mutating func raw(_ key: String, _ json: String) {
        self.key(key)
        raw(json)
    }

    // MARK: Results

    /// The text, every container still open closed.
    public consuming func finished() -> String {
        String(decoding: finishedBytes(), as: UTF8.self)
    }

    /// The UTF-8 text, every container still open closed.
    public consuming func finishedBytes() -> [UInt8] {
        while !open.isEmpty { close() }
        return bytes
    }

    /// `value` as a JSON string literal (``JSONEscaping``, `/` raw).
    public static func quoted(_ value: String) -> String {
        JSONEscaping.quoted(value)
    }

    /// A JSON array of `items`, each already JSON text.
    public static func array(_ items: [String]) -> String {
        "[" + items.joined(separator: ",") + "]"
    }

    /// A JSON array of strings.
    public static func strings(_ items: [String]) -> String {
        array(items.map { quoted($0) })
    }
}
