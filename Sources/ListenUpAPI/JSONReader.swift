import Foundation

// JSONReader is compiled into both wire-contract modules, ListenUpAPI and
// ListenUpKRPC (Sources/ListenUpKRPC/JSONReader.swift is a symbolic link to
// this file): the two share no module, and the reader's hot loops must stay
// inside the module that calls them (a shared module would make every call
// cross-module and unspecialised).

/// A strict, fast reader of JSON text, for the few large payloads a sync
/// decodes by the thousand (a page of books), where `JSONDecoder`'s
/// generic `Codable` machinery cost more than the network.
///
/// It is a fast path, never the only one: it reads only what it can read
/// exactly as `JSONDecoder` would, and for anything else (an escaped key, a
/// number with a fraction where an integer is expected, a duplicate key,
/// invalid UTF-8, nesting deeper than 64, any syntax error, …) it throws
/// ``Mismatch`` and the caller decodes the same text with `JSONDecoder`,
/// which then gives the value or the error it always gave. So a document is
/// either read to the same value, or handed over untouched.
///
/// Reads UTF-8 bytes in place; values are read in document order through a
/// cursor (``beginObject()``/``nextKey(_:)``, ``beginArray()``/
/// ``nextElement(_:)``, then one value reader per value). A value type,
/// only valid inside ``read(_:_:)``.
struct JSONReader {
    /// The text is not one this reader reads exactly as `JSONDecoder` would.
    struct Mismatch: Error {}

    /// An object being read: whether its first key was read.
    struct Container {
        fileprivate var started = false
    }

    /// An object key: where its bytes are (keys with escapes are not read).
    struct Key {
        fileprivate let start: Int
        fileprivate let count: Int
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    /// The deepest nesting read (`JSONDecoder` allows more; deeper text is handed over).
    private static let maximumDepth = 64

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Reads one JSON document (`body` reads its value; only whitespace may follow).
    /// - Returns: what `body` read, or nil when the text is not one this reader reads.
    static func read<Value>(_ data: Data, _ body: (inout JSONReader) throws(Mismatch) -> Value) -> Value? {
        data.withUnsafeBytes { raw -> Value? in
            read(raw.bindMemory(to: UInt8.self), body)
        }
    }

    /// Reads one JSON document given as text; see ``read(_:_:)``.
    static func read<Value>(_ text: String, _ body: (inout JSONReader) throws(Mismatch) -> Value) -> Value? {
        var text = text
        return text.withUTF8 { read($0, body) }
    }

    private static func read<Value>(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (inout JSONReader) throws(Mismatch) -> Value) -> Value? {
        var reader = JSONReader(bytes: bytes)
        do {
            let value = try body(&reader)
            reader.skipSpace()
            return reader.index == bytes.count ? value : nil
        } catch {
            return nil
        }
    }

    // MARK: Structure

    @inline(__always)
    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// The next byte after whitespace, not consumed.
    @inline(__always)
    mutating func peek() throws(Mismatch) -> UInt8 {
        skipSpace()
        guard index < bytes.count else { throw Mismatch() }
        return bytes[index]
    }

    @inline(__always)
    private mutating func expect(_ byte: UInt8) throws(Mismatch) {
        guard try peek() == byte else { throw Mismatch() }
        index += 1
    }

    /// Opens an object: `{`.
    mutating func beginObject() throws(Mismatch) -> Container {
        try expect(UInt8(ascii: "{"))
        depth += 1
        guard depth <= Self.maximumDepth else { throw Mismatch() }
        return Container()
    }

    /// The next key of the object and its `:`, or nil once the object is
    /// closed (`}` read). Its value must be read (or skipped) next.
    mutating func nextKey(_ container: inout Container) throws(Mismatch) -> Key? {
        var byte = try peek()
        if byte == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return nil
        }
        if container.started {
            guard byte == UInt8(ascii: ",") else { throw Mismatch() }
            index += 1
            byte = try peek()
        }
        container.started = true
        guard byte == UInt8(ascii: "\"") else { throw Mismatch() }
        let start = index + 1
        var end = start
        // Plain ASCII keys only: escapes and anything else are handed over.
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
            guard bytes[end] >= 0x20, bytes[end] < 0x80, bytes[end] != UInt8(ascii: "\\") else { throw Mismatch() }
            end += 1
        }
        guard end < bytes.count else { throw Mismatch() }
        index = end + 1
        try expect(UInt8(ascii: ":"))
        return Key(start: start, count: end - start)
    }

    /// Opens an array: `[`.
    mutating func beginArray() throws(Mismatch) -> Container {
        try expect(UInt8(ascii: "["))
        depth += 1
        guard depth <= Self.maximumDepth else { throw Mismatch() }
        return Container()
    }

    /// Whether another element follows (then read it), false once the array is closed (`]` read).
    mutating func nextElement(_ container: inout Container) throws(Mismatch) -> Bool {
        let byte = try peek()
        if byte == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return false
        }
        if container.started {
            guard byte == UInt8(ascii: ",") else { throw Mismatch() }
            index += 1
        }
        container.started = true
        return true
    }

    /// Whether `key` is `name` (plain ASCII).
    func key(_ key: Key, is name: [UInt8]) -> Bool {
        guard key.count == name.count, let base = bytes.baseAddress else { return false }
        return name.withUnsafeBufferPointer { name in
            guard let wanted = name.baseAddress else { return key.count == 0 }
            return memcmp(base + key.start, wanted, key.count) == 0
        }
    }

    /// The key's text (keys are plain ASCII here).
    func text(of key: Key) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[key.start..<(key.start + key.count)]), as: UTF8.self)
    }

    // MARK: Values

    /// Consumes `null` if it comes next.
    mutating func readNull() throws(Mismatch) -> Bool {
        guard try peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    private mutating func literal(_ word: StaticString) throws(Mismatch) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count, let base = bytes.baseAddress,
              memcmp(base + index, word.utf8Start, count) == 0 else { throw Mismatch() }
        index += count
    }

    /// `true` or `false`.
    mutating func bool() throws(Mismatch) -> Bool {
        switch try peek() {
        case UInt8(ascii: "t"):
            try literal("true")
            return true
        case UInt8(ascii: "f"):
            try literal("false")
            return false
        default:
            throw Mismatch()
        }
    }

    /// A whole number in plain digits (no fraction, no exponent, no `-0`,
    /// within `Int64`): what `JSONDecoder` reads as the same integer.
    mutating func int64() throws(Mismatch) -> Int64 {
        var byte = try peek()
        let negative = byte == UInt8(ascii: "-")
        if negative {
            index += 1
            guard index < bytes.count else { throw Mismatch() }
            byte = bytes[index]
        }
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { throw Mismatch() }
        var value: Int64 = 0
        let start = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            let digit = Int64(bytes[index] - UInt8(ascii: "0"))
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowAgain) = negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflow, !overflowAgain else { throw Mismatch() }
            value = next
            index += 1
        }
        // A leading zero, `-0`, or a fraction or exponent: handed over.
        if bytes[start] == UInt8(ascii: "0"), index - start > 1 || negative { throw Mismatch() }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            throw Mismatch()
        }
        return value
    }

    /// A whole number that fits `Int`.
    mutating func int() throws(Mismatch) -> Int {
        guard let value = Int(exactly: try int64()) else { throw Mismatch() }
        return value
    }

    /// A number in plain decimal notation (no exponent, at most 30 bytes),
    /// parsed as Swift parses it (correctly rounded, as `JSONDecoder`).
    mutating func double() throws(Mismatch) -> Double {
        _ = try peek()
        let start = index
        try skipNumber()
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw Mismatch() }
        return value
    }

    /// A string (escapes decoded; invalid UTF-8, lone surrogates and raw
    /// control characters are handed over).
    mutating func string() throws(Mismatch) -> String {
        guard try peek() == UInt8(ascii: "\"") else { throw Mismatch() }
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = try Self.text(UnsafeBufferPointer(rebasing: bytes[start..<index]))
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { return try escapedString(from: start) }
            guard byte >= 0x20 else { throw Mismatch() }
            index += 1
        }
        throw Mismatch()
    }

    /// The rest of a string with escapes, from `start` (its first byte;
    /// `index` is at the first backslash). Unescaped into one buffer of the
    /// escaped length (never exceeded: every escape is longer than what it
    /// stands for).
    private mutating func escapedString(from start: Int) throws(Mismatch) -> String {
        var end = index
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
            end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
        }
        guard end < bytes.count, let base = bytes.baseAddress else { throw Mismatch() }
        let output = UnsafeMutablePointer<UInt8>.allocate(capacity: end - start)
        defer { output.deallocate() }
        var written = index - start
        output.initialize(from: base + start, count: written)
        while index < end {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\") else {
                guard byte >= 0x20 else { throw Mismatch() }
                output[written] = byte
                written += 1
                index += 1
                continue
            }
            let escape = bytes[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output[written] = escape
            case UInt8(ascii: "b"): output[written] = 0x08
            case UInt8(ascii: "f"): output[written] = 0x0C
            case UInt8(ascii: "n"): output[written] = 0x0A
            case UInt8(ascii: "r"): output[written] = 0x0D
            case UInt8(ascii: "t"): output[written] = 0x09
            case UInt8(ascii: "u"):
                guard index + 4 <= end else { throw Mismatch() }
                var scalar = try hexUnit()
                if (0xD800..<0xDC00).contains(scalar) {
                    // A surrogate pair: the low half must follow.
                    guard index + 6 <= end, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw Mismatch()
                    }
                    index += 2
                    let low = try hexUnit()
                    guard (0xDC00..<0xE000).contains(low) else { throw Mismatch() }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw Mismatch()
                }
                guard let unicode = Unicode.Scalar(scalar), let encoded = UTF8.encode(unicode) else { throw Mismatch() }
                for unit in encoded {
                    output[written] = unit
                    written += 1
                }
                continue
            default:
                throw Mismatch()
            }
            written += 1
        }
        index = end + 1
        return try Self.text(UnsafeBufferPointer(start: output, count: written))
    }

    /// Four hex digits.
    private mutating func hexUnit() throws(Mismatch) -> UInt32 {
        guard index + 4 <= bytes.count else { throw Mismatch() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Mismatch()
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// Valid UTF-8 as a `String`.
    /// (`String(decoding:)` takes a buffer the fast way and repairs invalid
    /// UTF-8; bytes that come back other than they went in were invalid.)
    private static func text(_ utf8: UnsafeBufferPointer<UInt8>) throws(Mismatch) -> String {
        var text = String(decoding: utf8, as: UTF8.self)
        let same = text.withUTF8 { decoded in
            guard decoded.count == utf8.count else { return false }
            guard let decodedBytes = decoded.baseAddress, let original = utf8.baseAddress else { return true }
            return memcmp(decodedBytes, original, utf8.count) == 0
        }
        guard same else { throw Mismatch() }
        return text
    }

    /// Skips one value of any kind, checking it as strictly as the rest.
    mutating func skipValue() throws(Mismatch) {
        switch try peek() {
        case UInt8(ascii: "{"):
            var object = try beginObject()
            while try nextKey(&object) != nil { try skipValue() }
        case UInt8(ascii: "["):
            var array = try beginArray()
            while try nextElement(&array) { try skipValue() }
        case UInt8(ascii: "\""):
            _ = try string()
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            _ = try bool()
        case UInt8(ascii: "n"):
            guard try readNull() else { throw Mismatch() }
        default:
            try skipNumber()
        }
    }

    /// A number: an integer, or digits with one fraction (exponents and
    /// numbers longer than 30 bytes are handed over).
    private mutating func skipNumber() throws(Mismatch) {
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits(_ reader: inout JSONReader) -> Int {
            let from = reader.index
            while reader.index < reader.bytes.count, reader.bytes[reader.index] >= UInt8(ascii: "0"),
                  reader.bytes[reader.index] <= UInt8(ascii: "9") { reader.index += 1 }
            return reader.index - from
        }
        let whole = index
        let wholeDigits = digits(&self)
        guard wholeDigits > 0, bytes[whole] != UInt8(ascii: "0") || wholeDigits == 1 else { throw Mismatch() }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw Mismatch() }
        }
        guard index - start <= 30 else { throw Mismatch() }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") { throw Mismatch() }
    }

    // MARK: Composites

    /// An array, each element read by `element`.
    mutating func array<Element>(_ element: (inout JSONReader) throws(Mismatch) -> Element) throws(Mismatch) -> [Element] {
        var container = try beginArray()
        var result: [Element] = []
        while try nextElement(&container) { result.append(try element(&self)) }
        return result
    }

    /// `null` (nil) or a value read by `value`: an optional field, which
    /// `JSONDecoder` reads as nil when null or absent.
    mutating func optional<Value>(_ value: (inout JSONReader) throws(Mismatch) -> Value) throws(Mismatch) -> Value? {
        if try readNull() { return nil }
        return try value(&self)
    }
}

/// The keys of one object type, matched without building strings:
/// `Field`'s raw values are the JSON keys (plain ASCII). A key read twice
/// is a mismatch (`JSONDecoder`'s choice between the two is not this
/// reader's to guess).
struct JSONFields<Field: RawRepresentable & CaseIterable & Sendable>: Sendable where Field.RawValue == String {
    private let names: [[UInt8]]
    private let fields: [Field]

    init() {
        fields = Array(Field.allCases)
        names = fields.map { Array($0.rawValue.utf8) }
        precondition(fields.count <= 64, "JSONFields tracks at most 64 keys")
    }

    /// Matching one object's keys: remembers which were read, and where
    /// the last match was (keys usually come in the same order).
    struct Matcher {
        fileprivate let table: JSONFields
        fileprivate var seen: UInt64 = 0
        fileprivate var next = 0

        /// The field `key` names, nil for a key the type does not have.
        /// - Throws: ``JSONReader/Mismatch`` for a key read before.
        mutating func field(_ key: JSONReader.Key, in reader: JSONReader) throws(JSONReader.Mismatch) -> Field? {
            let count = table.names.count
            for offset in 0..<count {
                let position = (next + offset) % count
                guard reader.key(key, is: table.names[position]) else { continue }
                let bit = UInt64(1) << UInt64(position)
                guard seen & bit == 0 else { throw JSONReader.Mismatch() }
                seen |= bit
                next = position + 1
                return table.fields[position]
            }
            return nil
        }
    }

    /// A matcher for one object.
    func matcher() -> Matcher {
        Matcher(table: self)
    }
}
