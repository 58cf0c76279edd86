import Foundation

extension JSONReader {
    // MARK: Numbers

    /// A whole number in plain digits (no fraction, no exponent, no `-0`,
    /// within `Int64`): what `JSONDecoder` reads as the same integer.
    /// - Throws: ``JSONReadError/Reason-swift.enum/unsupported`` for a
    ///   fraction, an exponent or `-0` (valid JSON, read by ``double()`` or
    ///   ``JSONValue``), ``JSONReadError/Reason-swift.enum/numberOutOfRange``
    ///   past `Int64`.
    @inlinable
    public mutating func int64() throws(JSONReadError) -> Int64 {
        var byte = try peek()
        let negative = byte == UInt8(ascii: "-")
        if negative {
            index += 1
            guard index < bytes.count else { throw failure(.unexpectedEnd) }
            byte = bytes[index]
        }
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
            throw failure(negative ? .invalidNumber : Self.kind(of: byte) == nil ? .unexpectedCharacter : .wrongType)
        }
        var value: Int64 = 0
        let start = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            let digit = Int64(bytes[index] - UInt8(ascii: "0"))
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowAgain) = negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflow, !overflowAgain else { throw failure(.numberOutOfRange) }
            value = next
            index += 1
        }
        if bytes[start] == UInt8(ascii: "0"), index - start > 1 { throw JSONReadError(.invalidNumber, at: start) }
        // `-0`, or a fraction or exponent: valid, but not an integer here.
        if bytes[start] == UInt8(ascii: "0"), negative { throw JSONReadError(.unsupported, at: start) }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            throw failure(.unsupported)
        }
        return value
    }

    /// A whole number that fits `Int`.
    @inlinable
    public mutating func int() throws(JSONReadError) -> Int {
        let start = index
        guard let value = Int(exactly: try int64()) else { throw JSONReadError(.numberOutOfRange, at: start) }
        return value
    }

    /// A number in plain decimal notation (no exponent, at most 30 bytes),
    /// parsed as Swift parses it (correctly rounded, as `JSONDecoder`).
    @inlinable
    public mutating func double() throws(JSONReadError) -> Double {
        _ = try peek()
        let start = index
        guard try skipNumber() == false else { throw JSONReadError(.unsupported, at: start) }
        guard index - start <= 30 else { throw JSONReadError(.unsupported, at: start) }
        return try decimal(from: start)
    }

    /// Any JSON number, exponents included: an integer when it is one
    /// (plain digits within `Int64`), a `Double` otherwise.
    @inlinable
    public mutating func number() throws(JSONReadError) -> JSONValue {
        _ = try peek()
        let start = index
        let hasExponent = try skipNumber()
        var whole = self
        whole.index = start
        if !hasExponent, let value = try? whole.int64() {
            self = whole
            return .integer(value)
        }
        return .double(try decimal(from: start))
    }

    /// The number text from `start` to here as a finite `Double`.
    @inlinable
    mutating func decimal(from start: Int) throws(JSONReadError) -> Double {
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw JSONReadError(.numberOutOfRange, at: start) }
        return value
    }

    /// Skips a number as JSON writes it: `-`, digits without a leading zero,
    /// an optional fraction, an optional exponent.
    /// - Returns: whether it had an exponent.
    @inlinable @discardableResult
    mutating func skipNumber() throws(JSONReadError) -> Bool {
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let whole = index
        let wholeDigits = skipDigits()
        guard wholeDigits > 0 else {
            guard index < bytes.count else { throw failure(.unexpectedEnd) }
            throw failure(index == start && Self.kind(of: bytes[index]) == nil ? .unexpectedCharacter : .invalidNumber)
        }
        guard bytes[whole] != UInt8(ascii: "0") || wholeDigits == 1 else { throw JSONReadError(.invalidNumber, at: whole) }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard skipDigits() > 0 else { throw failure(.invalidNumber) }
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") else { return false }
        index += 1
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard skipDigits() > 0 else { throw failure(.invalidNumber) }
        return true
    }

    @inlinable @inline(__always)
    mutating func skipDigits() -> Int {
        let from = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
        return index - from
    }

    // MARK: Strings

    /// A string, escapes decoded (surrogate pairs joined).
    /// - Throws: for invalid UTF-8, lone surrogates, raw control characters
    ///   and unknown escapes, with the offset of the offending byte.
    @inlinable
    public mutating func string() throws(JSONReadError) -> String {
        let first = try peek()
        guard first == UInt8(ascii: "\"") else {
            throw failure(Self.kind(of: first) == nil ? .unexpectedCharacter : .wrongType)
        }
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = try Self.text(UnsafeBufferPointer(rebasing: bytes[start..<index]), at: start)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { return try escapedString(from: start) }
            guard byte >= 0x20 else { throw failure(.controlCharacter) }
            index += 1
        }
        throw failure(.unexpectedEnd)
    }

    /// The rest of a string with escapes, from `start` (its first byte;
    /// `index` is at the first backslash). Unescaped into one buffer of the
    /// escaped length (never exceeded: every escape is at least as long as
    /// what it stands for).
    @inlinable
    mutating func escapedString(from start: Int) throws(JSONReadError) -> String {
        var end = index
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
            end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
        }
        guard end < bytes.count, let base = bytes.baseAddress else {
            index = bytes.count
            throw failure(.unexpectedEnd)
        }
        let output = UnsafeMutablePointer<UInt8>.allocate(capacity: end - start)
        defer { output.deallocate() }
        var written = index - start
        output.initialize(from: base + start, count: written)
        while index < end {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\") else {
                guard byte >= 0x20 else { throw failure(.controlCharacter) }
                output[written] = byte
                written += 1
                index += 1
                continue
            }
            let escape = bytes[index + 1]
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output[written] = escape
            case UInt8(ascii: "b"): output[written] = 0x08
            case UInt8(ascii: "f"): output[written] = 0x0C
            case UInt8(ascii: "n"): output[written] = 0x0A
            case UInt8(ascii: "r"): output[written] = 0x0D
            case UInt8(ascii: "t"): output[written] = 0x09
            case UInt8(ascii: "u"):
                let escapeStart = index
                index += 2
                guard index + 4 <= end else { throw JSONReadError(.invalidEscape, at: escapeStart) }
                var scalar = try hexUnit()
                if (0xD800..<0xDC00).contains(scalar) {
                    // A surrogate pair: the low half must follow.
                    guard index + 6 <= end, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw JSONReadError(.loneSurrogate, at: escapeStart)
                    }
                    index += 2
                    let low = try hexUnit()
                    guard (0xDC00..<0xE000).contains(low) else { throw JSONReadError(.loneSurrogate, at: escapeStart) }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw JSONReadError(.loneSurrogate, at: escapeStart)
                }
                guard let unicode = Unicode.Scalar(scalar), let encoded = UTF8.encode(unicode) else {
                    throw JSONReadError(.invalidEscape, at: escapeStart)
                }
                for unit in encoded {
                    output[written] = unit
                    written += 1
                }
                continue
            default:
                throw failure(.invalidEscape)
            }
            index += 2
            written += 1
        }
        index = end + 1
        return try Self.text(UnsafeBufferPointer(start: output, count: written), at: start)
    }

    /// Four hex digits.
    @inlinable
    mutating func hexUnit() throws(JSONReadError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure(.invalidEscape) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure(.invalidEscape)
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// Valid UTF-8 as a `String` (`start`: where the string's bytes begin, for the error).
    /// (`String(decoding:)` takes a buffer the fast way and repairs invalid
    /// UTF-8; bytes that come back other than they went in were invalid.)
    @inlinable
    static func text(_ utf8: UnsafeBufferPointer<UInt8>, at start: Int) throws(JSONReadError) -> String {
        var text = String(decoding: utf8, as: UTF8.self)
        let same = text.withUTF8 { decoded in
            guard decoded.count == utf8.count else { return false }
            guard let decodedBytes = decoded.baseAddress, let original = utf8.baseAddress else { return true }
            return memcmp(decodedBytes, original, utf8.count) == 0
        }
        guard same else { throw JSONReadError(.invalidUTF8, at: start) }
        return text
    }
}
