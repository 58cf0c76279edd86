/// JSON string literals: the one escaper every writer here uses.
///
/// Quotes, backslashes and control characters are escaped (`\n`, `\r`,
/// `\t`, `\b`, `\f`, else `\u00xx`); everything else, non-ASCII included,
/// is written raw. `/` is raw too (as kotlinx and `JSONEncoder` with
/// `.withoutEscapingSlashes` write it) unless `escapingSlash` asks for `\/`
/// (what `JSONEncoder` writes by default).
///
/// Works on the UTF-8 bytes and copies the runs between escapes whole
/// (``quoted(_:escapingSlash:)``, making a `String`, counts first and writes
/// into exact room), so a multi-megabyte string (a sync page, nested twice)
/// costs a few memory copies rather than an append per character. Pure; any
/// thread.
public enum JSONEscaping {
    /// `value` as a JSON string literal, quotes included.
    public static func quoted(_ value: String, escapingSlash: Bool = false) -> String {
        var value = value
        return value.withUTF8 { source in
            let count = quotedCount(source, escapingSlash: escapingSlash)
            return String(unsafeUninitializedCapacity: count) { output in
                guard let target = output.baseAddress else { return 0 }
                return writeQuoted(source, escapingSlash: escapingSlash, to: target)
            }
        }
    }

    /// The UTF-8 bytes of a string as a JSON string literal, quotes included.
    public static func quoted(_ value: [UInt8], escapingSlash: Bool = false) -> [UInt8] {
        var output: [UInt8] = []
        append(value, escapingSlash: escapingSlash, to: &output)
        return output
    }

    /// Appends `value` as a JSON string literal (quotes included) to `output`.
    @inlinable
    public static func append(_ value: String, escapingSlash: Bool = false, to output: inout [UInt8]) {
        var value = value
        value.withUTF8 { append($0, escapingSlash: escapingSlash, to: &output) }
    }

    /// Appends the UTF-8 bytes `value` as a JSON string literal to `output`.
    @inlinable
    public static func append(_ value: [UInt8], escapingSlash: Bool = false, to output: inout [UInt8]) {
        value.withUnsafeBufferPointer { append($0, escapingSlash: escapingSlash, to: &output) }
    }

    /// One pass straight into `output`: the runs between escapes are copied
    /// whole (a string with nothing to escape, the usual one, is one copy).
    /// Inlinable, so writers in other modules get it specialised: the
    /// library's details writer escapes every title, name and chapter of a
    /// sync.
    @inlinable
    static func append(_ source: UnsafeBufferPointer<UInt8>, escapingSlash: Bool, to output: inout [UInt8]) {
        output.reserveCapacity(output.count + source.count + 2)
        output.append(UInt8(ascii: "\""))
        var runStart = 0
        for index in source.indices where needsEscape(source[index], escapingSlash) {
            if index > runStart { output.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<index])) }
            runStart = index + 1
            let byte = source[index]
            output.append(UInt8(ascii: "\\"))
            if let short = shortEscape(byte) {
                output.append(short)
            } else {
                output.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hexDigit(byte >> 4), hexDigit(byte & 0x0F)])
            }
        }
        if source.count > runStart { output.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart...])) }
        output.append(UInt8(ascii: "\""))
    }

    /// The length of the literal `writeQuoted` writes.
    static func quotedCount(_ source: UnsafeBufferPointer<UInt8>, escapingSlash: Bool) -> Int {
        var extra = 0
        for byte in source where needsEscape(byte, escapingSlash) {
            extra += shortEscape(byte) == nil ? 5 : 1
        }
        return source.count + extra + 2
    }

    /// Writes the literal to `target` (room for ``quotedCount(_:escapingSlash:)``
    /// bytes); returns the count written.
    static func writeQuoted(_ source: UnsafeBufferPointer<UInt8>, escapingSlash: Bool, to target: UnsafeMutablePointer<UInt8>) -> Int {
        target[0] = UInt8(ascii: "\"")
        var written = 1
        var runStart = 0
        func copyRun(to end: Int) {
            guard end > runStart, let base = source.baseAddress else { return }
            (target + written).initialize(from: base + runStart, count: end - runStart)
            written += end - runStart
        }
        for (index, byte) in source.enumerated() where needsEscape(byte, escapingSlash) {
            copyRun(to: index)
            runStart = index + 1
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
        copyRun(to: source.count)
        target[written] = UInt8(ascii: "\"")
        return written + 1
    }

    @usableFromInline @inline(__always)
    static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    @usableFromInline @inline(__always)
    static func needsEscape(_ byte: UInt8, _ escapingSlash: Bool) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (escapingSlash && byte == UInt8(ascii: "/"))
    }

    /// The letter after the backslash for the escapes that have one.
    @usableFromInline @inline(__always)
    static func shortEscape(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "\""): UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): UInt8(ascii: "\\")
        case UInt8(ascii: "/"): UInt8(ascii: "/")
        case 0x0A: UInt8(ascii: "n")
        case 0x0D: UInt8(ascii: "r")
        case 0x09: UInt8(ascii: "t")
        case 0x08: UInt8(ascii: "b")
        case 0x0C: UInt8(ascii: "f")
        default: nil
        }
    }
}
