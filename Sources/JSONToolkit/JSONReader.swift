import Foundation

/// A strict, fast reader of JSON text, for the few large payloads a sync
/// decodes by the thousand (a page of books), where `JSONDecoder`'s generic
/// `Codable` machinery cost more than the network.
///
/// Used as a fast path in front of `JSONDecoder` by both wire contracts
/// (`ListenUpAPI`, `ListenUpKRPC`): it reads only what it can read exactly as
/// `JSONDecoder` would, and for anything else (an escaped key, a number with
/// a fraction where an integer is expected, a duplicate key, invalid UTF-8,
/// nesting deeper than ``maximumDepth``, any syntax error, …) it throws a
/// ``JSONReadError`` saying why and where, and the caller decodes the same
/// text with `JSONDecoder`. ``JSONValue/init(parsing:)`` reads any JSON
/// document with it.
///
/// Reads UTF-8 bytes in place; values are read in document order through a
/// cursor (``beginObject()``/``nextKey(_:)``, ``beginArray()``/
/// ``nextElement(_:)``, then one value reader per value, or
/// ``object(_:_:)`` for a whole object of known fields). A value type, only
/// valid inside ``read(_:_:)``; any thread.
///
/// Everything here is `@inlinable`: the readers' loops must be specialised
/// into the module that calls them, as they were when each contract had its
/// own copy (bench/sync).
public struct JSONReader {
    /// An object or array being read: whether its first member was read.
    public struct Container {
        @usableFromInline var started = false

        @inlinable init() {}
    }

    /// An object key: where its bytes are (plain keys only, see ``nextKey(_:)``).
    public struct Key {
        @usableFromInline let start: Int
        @usableFromInline let count: Int

        @inlinable init(start: Int, count: Int) {
            self.start = start
            self.count = count
        }
    }

    @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline var index = 0
    @usableFromInline var depth = 0

    /// The deepest nesting read (`JSONDecoder` allows more; deeper text is an error here).
    public static let maximumDepth = 64

    @inlinable
    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The byte offset reading has reached.
    @inlinable public var offset: Int { index }

    /// Reads one JSON document (`body` reads its value; only whitespace may follow).
    /// - Returns: what `body` read, or nil when the text is not one this reader reads.
    @inlinable
    public static func read<Value>(_ data: Data, _ body: (inout JSONReader) throws(JSONReadError) -> Value) -> Value? {
        try? parse(data, body)
    }

    /// Reads one JSON document given as text; see ``read(_:_:)``.
    @inlinable
    public static func read<Value>(_ text: String, _ body: (inout JSONReader) throws(JSONReadError) -> Value) -> Value? {
        var text = text
        return text.withUTF8 { try? parse($0, body) }
    }

    /// Reads one JSON document, or says why not.
    /// - Throws: ``JSONReadError`` with the reason and the byte offset.
    @inlinable
    public static func parse<Value>(_ data: Data, _ body: (inout JSONReader) throws(JSONReadError) -> Value) throws(JSONReadError) -> Value {
        let result = data.withUnsafeBytes { raw -> Result<Value, JSONReadError> in
            do throws(JSONReadError) {
                return .success(try parse(raw.bindMemory(to: UInt8.self), body))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Reads one JSON document from UTF-8 bytes, or says why not.
    @inlinable
    public static func parse<Value>(_ bytes: UnsafeBufferPointer<UInt8>,
                                    _ body: (inout JSONReader) throws(JSONReadError) -> Value) throws(JSONReadError) -> Value {
        var reader = JSONReader(bytes: bytes)
        let value = try body(&reader)
        reader.skipSpace()
        guard reader.index == bytes.count else { throw JSONReadError(.trailingText, at: reader.index) }
        return value
    }

    /// An error at the current offset.
    @inlinable
    public func failure(_ reason: JSONReadError.Reason) -> JSONReadError {
        JSONReadError(reason, at: index)
    }

    // MARK: Structure

    @inlinable @inline(__always)
    mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// The next byte after whitespace, not consumed.
    @inlinable @inline(__always)
    public mutating func peek() throws(JSONReadError) -> UInt8 {
        skipSpace()
        guard index < bytes.count else { throw failure(.unexpectedEnd) }
        return bytes[index]
    }

    /// Consumes `byte` (a `:`), or fails on what stands there.
    @inlinable @inline(__always)
    mutating func expect(_ byte: UInt8) throws(JSONReadError) {
        guard try peek() == byte else { throw failure(.unexpectedCharacter) }
        index += 1
    }

    /// Consumes `byte` (`{` or `[`) opening a value, or fails: another
    /// kind of value there is ``JSONReadError/Reason-swift.enum/wrongType``.
    @inlinable @inline(__always)
    mutating func open(_ byte: UInt8) throws(JSONReadError) {
        let next = try peek()
        guard next == byte else { throw failure(Self.kind(of: next) == nil ? .unexpectedCharacter : .wrongType) }
        index += 1
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure(.tooDeep) }
    }

    /// The kind of value `byte` starts: nil for a byte that starts none.
    @inlinable
    static func kind(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"),
             UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return byte
        default:
            return nil
        }
    }

    /// Opens an object: `{`.
    @inlinable
    public mutating func beginObject() throws(JSONReadError) -> Container {
        try open(UInt8(ascii: "{"))
        return Container()
    }

    /// Past the `,` before the next member of an object or array (true), or
    /// past `closer` once it is closed (false).
    @inlinable @inline(__always)
    mutating func nextMember(_ container: inout Container, closedBy closer: UInt8) throws(JSONReadError) -> Bool {
        let byte = try peek()
        if byte == closer {
            index += 1
            depth -= 1
            return false
        }
        if container.started {
            guard byte == UInt8(ascii: ",") else { throw failure(.unexpectedCharacter) }
            index += 1
        }
        container.started = true
        return true
    }

    /// Reads up to the next key's opening quote (true; `index` is at the
    /// quote), or false once the object is closed (`}` read).
    @inlinable
    mutating func keyStart(_ container: inout Container) throws(JSONReadError) -> Bool {
        guard try nextMember(&container, closedBy: UInt8(ascii: "}")) else { return false }
        guard try peek() == UInt8(ascii: "\"") else { throw failure(.unexpectedCharacter) }
        return true
    }

    /// The next key of the object and its `:`, or nil once the object is
    /// closed (`}` read). Its value must be read (or skipped) next.
    /// - Throws: ``JSONReadError/Reason-swift.enum/unsupported`` for a key
    ///   with escapes or non-ASCII (``nextKeyText(_:)`` reads those).
    @inlinable
    public mutating func nextKey(_ container: inout Container) throws(JSONReadError) -> Key? {
        guard try keyStart(&container) else { return nil }
        let start = index + 1
        var end = start
        // Plain ASCII keys only: escapes and anything else are handed over.
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
            guard bytes[end] >= 0x20, bytes[end] < 0x80, bytes[end] != UInt8(ascii: "\\") else {
                index = end
                throw failure(bytes[end] < 0x20 ? .controlCharacter : .unsupported)
            }
            end += 1
        }
        guard end < bytes.count else {
            index = end
            throw failure(.unexpectedEnd)
        }
        index = end + 1
        try expect(UInt8(ascii: ":"))
        return Key(start: start, count: end - start)
    }

    /// The next key of the object as text (any key, escapes decoded) and its
    /// `:`, or nil once the object is closed.
    @inlinable
    public mutating func nextKeyText(_ container: inout Container) throws(JSONReadError) -> String? {
        guard try keyStart(&container) else { return nil }
        let key = try string()
        try expect(UInt8(ascii: ":"))
        return key
    }

    /// Opens an array: `[`.
    @inlinable
    public mutating func beginArray() throws(JSONReadError) -> Container {
        try open(UInt8(ascii: "["))
        return Container()
    }

    /// Whether another element follows (then read it), false once the array is closed (`]` read).
    @inlinable
    public mutating func nextElement(_ container: inout Container) throws(JSONReadError) -> Bool {
        try nextMember(&container, closedBy: UInt8(ascii: "]"))
    }

    /// Whether `key` is `name` (plain ASCII).
    @inlinable
    public func key(_ key: Key, is name: [UInt8]) -> Bool {
        guard key.count == name.count, let base = bytes.baseAddress else { return false }
        return name.withUnsafeBufferPointer { name in
            guard let wanted = name.baseAddress else { return key.count == 0 }
            return memcmp(base + key.start, wanted, key.count) == 0
        }
    }

    /// The key's text (plain keys are ASCII).
    @inlinable
    public func text(of key: Key) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[key.start..<(key.start + key.count)]), as: UTF8.self)
    }

    // MARK: Literals

    /// Consumes `null` if it comes next.
    @inlinable
    public mutating func readNull() throws(JSONReadError) -> Bool {
        guard try peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    @inlinable
    mutating func literal(_ word: StaticString) throws(JSONReadError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw failure(.unexpectedEnd) }
        guard let base = bytes.baseAddress, memcmp(base + index, word.utf8Start, count) == 0 else {
            throw failure(.unexpectedCharacter)
        }
        index += count
    }

    /// `true` or `false`.
    @inlinable
    public mutating func bool() throws(JSONReadError) -> Bool {
        switch try peek() {
        case UInt8(ascii: "t"):
            try literal("true")
            return true
        case UInt8(ascii: "f"):
            try literal("false")
            return false
        case let byte:
            throw failure(Self.kind(of: byte) == nil ? .unexpectedCharacter : .wrongType)
        }
    }

    /// Skips one value of any kind, checking it as strictly as the rest
    /// (escaped keys, exponents and numbers over 30 bytes are
    /// ``JSONReadError/Reason-swift.enum/unsupported``, as everywhere on the
    /// fast path; ``JSONValue/init(parsing:)-(Data)`` reads them).
    @inlinable
    public mutating func skipValue() throws(JSONReadError) {
        switch try peek() {
        case UInt8(ascii: "{"):
            // Plain keys only, as everywhere on the fast path.
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
            _ = try readNull()
        default:
            // Exponents and numbers longer than 30 bytes are handed over.
            let start = index
            let exponent = try skipNumber()
            guard !exponent, index - start <= 30 else { throw JSONReadError(.unsupported, at: start) }
        }
    }
}
