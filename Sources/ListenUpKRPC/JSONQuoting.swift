/// JSON string literals written the way kotlinx writes them (§1.4): quotes,
/// backslashes and control characters escaped (`\n`, `\r`, `\t`, `\b`, `\f`,
/// else `\u00XX`), everything else, `/` and non-ASCII included, raw.
///
/// Works on the UTF-8 bytes in two passes (count, then copy runs between
/// escapes), so a multi-megabyte `data` string (a sync page, nested twice)
/// costs a few memory copies rather than a `String` append per character.
/// Pure; any thread.
public enum JSONQuoting {
    /// `value` as a JSON string literal, quotes included.
    public static func quoted(_ value: String) -> String {
        var value = value
        return value.withUTF8 { source in
            var extra = 0
            for byte in source where needsEscape(byte) {
                extra += shortEscape(byte) == nil ? 5 : 1
            }
            let count = source.count + extra + 2
            return String(unsafeUninitializedCapacity: count) { output in
                guard let target = output.baseAddress else { return 0 }
                target[0] = UInt8(ascii: "\"")
                var written = 1
                if extra == 0 {
                    if let base = source.baseAddress, !source.isEmpty {
                        (target + written).initialize(from: base, count: source.count)
                    }
                    written += source.count
                } else {
                    for byte in source {
                        guard needsEscape(byte) else {
                            target[written] = byte
                            written += 1
                            continue
                        }
                        target[written] = UInt8(ascii: "\\")
                        if let short = shortEscape(byte) {
                            target[written + 1] = short
                            written += 2
                        } else {
                            target[written + 1] = UInt8(ascii: "u")
                            target[written + 2] = UInt8(ascii: "0")
                            target[written + 3] = UInt8(ascii: "0")
                            target[written + 4] = hexDigit(byte >> 4)
                            target[written + 5] = hexDigit(byte & 0x0F)
                            written += 6
                        }
                    }
                }
                target[written] = UInt8(ascii: "\"")
                return written + 1
            }
        }
    }

    @inline(__always)
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// The letter after the backslash for the escapes that have one.
    @inline(__always)
    private static func shortEscape(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "\""): UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): UInt8(ascii: "\\")
        case 0x0A: UInt8(ascii: "n")
        case 0x0D: UInt8(ascii: "r")
        case 0x09: UInt8(ascii: "t")
        case 0x08: UInt8(ascii: "b")
        case 0x0C: UInt8(ascii: "f")
        default: nil
        }
    }
}
