/// A type ``JSONReader`` reads by hand on a hot path (a page of books):
/// reading must give exactly what the type's `Decodable` conformance gives,
/// or throw so that `JSONDecoder` decides.
///
/// A conformance names its keys once and reads each with ``JSONReader/object(_:_:)``:
///
/// ```swift
/// extension Chapter: JSONReadable {
///     private enum Field: String, CaseIterable, Sendable { case title, startTime = "start_time" }
///     private static let fields = JSONFields<Field>()
///
///     public init(reading reader: inout JSONReader) throws(JSONReadError) {
///         var title: String?, startTime: Int64?
///         try reader.object(Self.fields) { field, reader throws(JSONReadError) in
///             switch field {
///             case .title: title = try reader.string()
///             case .startTime: startTime = try reader.int64()
///             }
///         }
///         self.init(title: try reader.required(title), startTime: try reader.required(startTime))
///     }
/// }
/// ```
public protocol JSONReadable {
    /// Reads one value from where `reader` stands.
    init(reading reader: inout JSONReader) throws(JSONReadError)
}

/// The keys of one object type, matched without building strings:
/// `Field`'s raw values are the JSON keys (plain ASCII). A key read twice
/// is an error (`JSONDecoder`'s choice between the two is not this
/// reader's to guess). Build one per type, once (`static let`).
public struct JSONFields<Field: RawRepresentable & CaseIterable & Sendable>: Sendable where Field.RawValue == String {
    @usableFromInline let names: [[UInt8]]
    @usableFromInline let fields: [Field]

    /// The table of `Field`'s cases (at most 64).
    public init() {
        fields = Array(Field.allCases)
        names = fields.map { Array($0.rawValue.utf8) }
        precondition(fields.count <= 64, "JSONFields tracks at most 64 keys")
    }

    /// Matching one object's keys: remembers which were read, and where
    /// the last match was (keys usually come in the same order).
    public struct Matcher {
        @usableFromInline let table: JSONFields
        @usableFromInline var seen: UInt64 = 0
        @usableFromInline var next = 0

        @inlinable init(table: JSONFields) {
            self.table = table
        }

        /// The field `key` names, nil for a key the type does not have.
        /// - Throws: ``JSONReadError/Reason-swift.enum/duplicateKey`` for a key read before.
        @inlinable
        public mutating func field(_ key: JSONReader.Key, in reader: JSONReader) throws(JSONReadError) -> Field? {
            let count = table.names.count
            for offset in 0..<count {
                let position = (next + offset) % count
                guard reader.key(key, is: table.names[position]) else { continue }
                let bit = UInt64(1) << UInt64(position)
                guard seen & bit == 0 else { throw JSONReadError(.duplicateKey, at: key.start) }
                seen |= bit
                next = position + 1
                return table.fields[position]
            }
            return nil
        }
    }

    /// A matcher for one object.
    @inlinable
    public func matcher() -> Matcher {
        Matcher(table: self)
    }
}

extension JSONReader {
    // MARK: Objects of known fields

    /// Reads an object whose keys are `fields`: `field` reads the value of
    /// each known key (every key at most once); unknown keys are skipped.
    @inlinable
    public mutating func object<Field>(_ fields: JSONFields<Field>,
                                       _ field: (Field, inout JSONReader) throws(JSONReadError) -> Void) throws(JSONReadError) {
        var object = try beginObject()
        var matcher = fields.matcher()
        while let key = try nextKey(&object) {
            if let known = try matcher.field(key, in: self) {
                try field(known, &self)
            } else {
                try skipValue()
            }
        }
    }

    /// A required field's value, or ``JSONReadError/Reason-swift.enum/missingField``
    /// (`JSONDecoder` then reports which key).
    @inlinable
    public func required<Value>(_ value: Value?) throws(JSONReadError) -> Value {
        guard let value else { throw failure(.missingField) }
        return value
    }

    // MARK: Composites

    /// An array, each element read by `element`.
    @inlinable
    public mutating func array<Element>(_ element: (inout JSONReader) throws(JSONReadError) -> Element) throws(JSONReadError) -> [Element] {
        var container = try beginArray()
        var result: [Element] = []
        while try nextElement(&container) { result.append(try element(&self)) }
        return result
    }

    /// `null` (nil) or a value read by `value`: an optional field, which
    /// `JSONDecoder` reads as nil when null or absent.
    @inlinable
    public mutating func optional<Value>(_ value: (inout JSONReader) throws(JSONReadError) -> Value) throws(JSONReadError) -> Value? {
        if try readNull() { return nil }
        return try value(&self)
    }

    /// One value of a ``JSONReadable`` type.
    @inlinable
    public mutating func read<Value: JSONReadable>(_ type: Value.Type) throws(JSONReadError) -> Value {
        try Value(reading: &self)
    }

    /// `null` (nil) or one value of a ``JSONReadable`` type.
    @inlinable
    public mutating func optional<Value: JSONReadable>(_ type: Value.Type) throws(JSONReadError) -> Value? {
        if try readNull() { return nil }
        return try Value(reading: &self)
    }

    /// An array of a ``JSONReadable`` type.
    @inlinable
    public mutating func array<Element: JSONReadable>(of type: Element.Type) throws(JSONReadError) -> [Element] {
        try array { reader throws(JSONReadError) in try Element(reading: &reader) }
    }

    /// `null` (nil) or an array of a ``JSONReadable`` type.
    @inlinable
    public mutating func optionalArray<Element: JSONReadable>(of type: Element.Type) throws(JSONReadError) -> [Element]? {
        if try readNull() { return nil }
        return try array(of: type)
    }

    /// An array of strings.
    @inlinable
    public mutating func strings() throws(JSONReadError) -> [String] {
        try array { reader throws(JSONReadError) in try reader.string() }
    }

    /// `null` (nil) or an array of strings.
    @inlinable
    public mutating func optionalStrings() throws(JSONReadError) -> [String]? {
        if try readNull() { return nil }
        return try strings()
    }

    /// `null` (nil) or a string.
    @inlinable
    public mutating func optionalString() throws(JSONReadError) -> String? {
        if try readNull() { return nil }
        return try string()
    }

    /// `null` (nil) or a whole number (see ``int64()``).
    @inlinable
    public mutating func optionalInt64() throws(JSONReadError) -> Int64? {
        if try readNull() { return nil }
        return try int64()
    }

    /// `null` (nil) or a whole number that fits `Int`.
    @inlinable
    public mutating func optionalInt() throws(JSONReadError) -> Int? {
        if try readNull() { return nil }
        return try int()
    }

    /// `null` (nil) or a Boolean.
    @inlinable
    public mutating func optionalBool() throws(JSONReadError) -> Bool? {
        if try readNull() { return nil }
        return try bool()
    }

    /// `null` (nil) or a number in plain decimal notation (see ``double()``).
    @inlinable
    public mutating func optionalDouble() throws(JSONReadError) -> Double? {
        if try readNull() { return nil }
        return try double()
    }
}
