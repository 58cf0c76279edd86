/// The few facts about JSON string literals the redactor needs, on UTF-8
/// bytes: where one ends and its value, read leniently (a frame being
/// redacted may be cut short or malformed; values are written back with
/// JSONToolkit's `JSONEscaping`).
///
/// Pure functions; any thread.
enum JSONStringLiteral {
    /// Finds the end of the literal whose opening quote is at `start`.
    /// - Returns: the index after the closing quote and true, or the end of
    ///   `bytes` and false when the literal is not terminated.
    static func end(of bytes: [UInt8], openingQuoteAt start: Int) -> (end: Int, terminated: Bool) {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return (index + 1, true)
            default: index += 1
            }
        }
        return (bytes.count, false)
    }

    /// JSON whitespace.
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Whether the literal's raw content starts (after spaces) with `{` or
    /// `[`, i.e. may hold a nested JSON document.
    static func opensContainer(_ content: ArraySlice<UInt8>) -> Bool {
        guard let first = content.first(where: { !isSpace($0) }) else { return false }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// The value of a literal's raw content (between the quotes), as UTF-8.
    /// Invalid escapes are kept as written.
    static func unescaped(_ content: ArraySlice<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(content.count)
        var index = content.startIndex
        while index < content.endIndex {
            let byte = content[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < content.endIndex else {
                output.append(byte)
                index += 1
                continue
            }
            let escape = content[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "u"):
                guard let unit = hexUnit(content, at: index) else {
                    output.append(contentsOf: [UInt8(ascii: "\\"), escape])
                    continue
                }
                index += 4
                var scalar = Unicode.Scalar(unit)
                if (0xD800..<0xDC00).contains(unit), index + 1 < content.endIndex, content[index] == UInt8(ascii: "\\"),
                   content[index + 1] == UInt8(ascii: "u"), let low = hexUnit(content, at: index + 2),
                   (0xDC00..<0xE000).contains(low) {
                    scalar = Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00))
                    index += 6
                }
                output.append(contentsOf: Array(String(Character(scalar ?? "\u{FFFD}")).utf8))
            default:
                output.append(escape)
            }
        }
        return output
    }

    /// The four hex digits at `index`, as a UTF-16 unit.
    private static func hexUnit(_ content: ArraySlice<UInt8>, at index: Int) -> UInt16? {
        guard index + 4 <= content.endIndex else { return nil }
        var value: UInt16 = 0
        for byte in content[index..<(index + 4)] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }
}
