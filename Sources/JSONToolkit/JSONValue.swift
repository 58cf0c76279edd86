import Foundation

/// Any JSON value, kept as read: where the kRPC contract leaves a shape open
/// (the extra fields of an `AppError`, the arguments of a call), what the
/// headless front's lines are made of, a remote command's body.
///
/// Whole numbers that fit `Int64` are ``integer(_:)`` (decoding tries
/// `Int64` first, so `1.0` read by Foundation is one too); other numbers are
/// ``double(_:)``. The two number cases compare equal when they hold the
/// same number (`.integer(3) == .double(3)`), so a value written and read
/// back compares equal whichever form the reader chose. Object keys are not
/// kept in order. Pure data, any thread.
public enum JSONValue: Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number that fits `Int64`.
    case integer(Int64)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object. Key order is not kept.
    case object([String: JSONValue])

    /// A number: ``integer(_:)`` when it is whole and below 10^15 (what
    /// `JSONEncoder` writes as an integer), ``double(_:)`` otherwise.
    public static func number(_ value: Double) -> JSONValue {
        if value.isFinite, value.rounded() == value, abs(value) < 1e15 { return .integer(Int64(value)) }
        return .double(value)
    }

    /// `value` as a string, or `.null` when nil.
    public static func optional(_ value: String?) -> JSONValue {
        value.map(JSONValue.string) ?? .null
    }

    /// The string, if this is ``string(_:)``.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The boolean, if this is ``bool(_:)``.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The number as `Int64`, if this is an integer, or a double with no
    /// fractional part that fits.
    public var int64Value: Int64? {
        switch self {
        case .integer(let value):
            return value
        case .double(let value):
            guard value.rounded() == value, let exact = Int64(exactly: value) else { return nil }
            return exact
        default:
            return nil
        }
    }

    /// The number as `Int`, if it is whole and fits.
    public var intValue: Int? {
        int64Value.flatMap { Int(exactly: $0) }
    }

    /// The number as `Double`, for either number case.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    /// The elements, if this is ``array(_:)``.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, if this is ``object(_:)``.
    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The member `key`, if this is an object that has it.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// The element at `index`, if this is an array that has it.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// Whether this is ``null``.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension JSONValue: Equatable, Hashable {
    /// Equal values; numbers by value across the two number cases.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.integer(let a), .double(let b)), (.double(let b), .integer(let a)): return Int64(exactly: b) == a
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)): return a == b
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .integer(let value): hasher.combine(value)
        case .double(let value):
            // A whole double hashes as the integer it equals.
            if let whole = Int64(exactly: value) { hasher.combine(whole) } else { hasher.combine(value) }
        case .string(let value): hasher.combine(value)
        case .array(let value): hasher.combine(value)
        case .object(let value): hasher.combine(value)
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral, ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: Codable {
    /// Decodes any JSON value. Booleans are tried before numbers so that
    /// `true` never reads as `1`; `Int64` before `Double`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value as the JSON it stands for (a whole double below
    /// 10^15 as an integer, as ``jsonLine()`` writes it).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value):
            if value.rounded() == value, abs(value) < 1e15 { try container.encode(Int64(value)) } else { try container.encode(value) }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue {
    /// Reads a whole JSON document (exponents, escaped keys and all).
    /// - Throws: ``JSONReadError`` saying why and at which byte; objects
    ///   nested deeper than ``JSONReader/maximumDepth`` and duplicate keys are errors.
    public init(parsing data: Data) throws(JSONReadError) {
        self = try JSONReader.parse(data) { reader throws(JSONReadError) in try reader.value() }
    }

    /// Reads a whole JSON document given as text; see ``init(parsing:)-(Data)``.
    public init(parsing text: String) throws(JSONReadError) {
        try self.init(parsing: Data(text.utf8))
    }

    /// Compact JSON with sorted keys, on one line: what `JSONEncoder` with
    /// `.sortedKeys` and `.withoutEscapingSlashes` writes, written directly
    /// (a playing book prints a headless line a second). A number that is
    /// not finite, which JSON cannot carry, is written as `null`.
    public func jsonLine() -> String {
        var writer = JSONWriter(capacity: 128)
        write(to: &writer)
        return writer.finished()
    }

    /// Writes the value (keys sorted) with `writer`.
    public func write(to writer: inout JSONWriter) {
        switch self {
        case .null: writer.null()
        case .bool(let value): writer.bool(value)
        case .integer(let value): writer.integer(value)
        case .double(let value): writer.number(value)
        case .string(let value): writer.string(value)
        case .array(let elements):
            writer.array(elements) { writer, element in element.write(to: &writer) }
        case .object(let members):
            writer.beginObject()
            for key in members.keys.sorted() {
                writer.key(key)
                members[key]?.write(to: &writer)
            }
            writer.endObject()
        }
    }
}

extension JSONReader {
    /// Any JSON value (see ``JSONValue/init(parsing:)-(Data)``).
    public mutating func value() throws(JSONReadError) -> JSONValue {
        switch try peek() {
        case UInt8(ascii: "{"):
            var object = try beginObject()
            var members: [String: JSONValue] = [:]
            while true {
                let start = offset
                guard let key = try nextKeyText(&object) else { break }
                guard members[key] == nil else { throw JSONReadError(.duplicateKey, at: start) }
                members[key] = try value()
            }
            return .object(members)
        case UInt8(ascii: "["):
            return .array(try array { reader throws(JSONReadError) in try reader.value() })
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            return .bool(try bool())
        case UInt8(ascii: "n"):
            _ = try readNull()
            return .null
        default:
            return try number()
        }
    }
}
