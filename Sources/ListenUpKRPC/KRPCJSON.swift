import Foundation

/// The JSON settings of the ListenUp contract (`contractJson`, §1.4) as seen
/// from Swift: decode layer by layer, encode requests with every key.
///
/// kRPC nests JSON in JSON: the envelope's `data` is a string holding the
/// arguments or the `AppResult`, and sync payloads add a third layer
/// (`SyncFrame.json`, `SyncPage.items`). Each layer is decoded on its own with
/// `decode(_:from:)`.
///
/// Thread-safe: every call builds its own coder.
public enum KRPCJSON {
    /// Decodes `text` as `T`.
    ///
    /// Like the server (`isLenient`), object keys written as bare numbers
    /// (`{32766:"x"}`, upstream golden frame §2.9(c)) are accepted: when the
    /// strict parse fails, the text is retried with such keys quoted.
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - text: one JSON document.
    /// - Returns: the decoded value.
    /// - Throws: ``KRPCDecodingError``, never traps.
    public static func decode<T: Decodable>(_ type: T.Type, from text: String) throws(KRPCDecodingError) -> T {
        try decode(type, from: Data(text.utf8))
    }

    /// Decodes `data` (UTF-8 JSON) as `T`; see `decode(_:from:)`.
    /// - Throws: ``KRPCDecodingError``, never traps.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(KRPCDecodingError) -> T {
        let decoder = JSONDecoder()
        do {
            return try decoder.decode(type, from: data)
        } catch {
            let first = KRPCDecodingError(error)
            guard first == .notJSON, let quoted = LenientJSONKeys.quotingBareNumericKeys(in: data) else { throw first }
            do {
                return try decoder.decode(type, from: quoted)
            } catch {
                throw first
            }
        }
    }

    /// Encodes `value` as compact JSON text: `/` unescaped, keys sorted (so
    /// the text is reproducible in logs and tests; key order carries no
    /// meaning for the server outside the envelope, which ``KRPCMessage``
    /// writes by hand with `type` first).
    ///
    /// Request types in this module write every key, `null` included
    /// (`explicitNulls`, §1.4). Numbers stay numbers.
    /// - Parameter value: the value, typically a method's argument struct.
    /// - Returns: the JSON text, ready for `CallData.data`.
    /// - Throws: ``KRPCEncodingError`` for a non-finite number.
    public static func encode<T: Encodable>(_ value: T) throws(KRPCEncodingError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch let EncodingError.invalidValue(_, context) {
            throw .invalidValue(path: KRPCDecodingError.path(context.codingPath))
        } catch {
            throw .invalidValue(path: "")
        }
    }
}

/// The one leniency of kotlinx `isLenient` that Foundation lacks and an
/// upstream frame needs: object keys written as bare numbers.
enum LenientJSONKeys {
    /// `data` with every bare numeric object key (`{32766:` or `, -5 :`)
    /// put in quotes, or nil when there is none (so the caller's error stands).
    /// Strings are skipped, escapes included; arrays are untouched because a
    /// number there is never followed by `:`.
    static func quotingBareNumericKeys(in data: Data) -> Data? {
        let bytes = [UInt8](data)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 16)
        var changed = false
        var index = 0
        var inString = false
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                output.append(byte)
                if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                    output.append(bytes[index + 1])
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") { inString = false }
                index += 1
                continue
            }
            output.append(byte)
            index += 1
            if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: ",") {
                var cursor = index
                while cursor < bytes.count, isSpace(bytes[cursor]) { cursor += 1 }
                let start = cursor
                if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "-") { cursor += 1 }
                let digits = cursor
                while cursor < bytes.count, isNumberByte(bytes[cursor]) { cursor += 1 }
                guard cursor > digits else { continue }
                var after = cursor
                while after < bytes.count, isSpace(bytes[after]) { after += 1 }
                guard after < bytes.count, bytes[after] == UInt8(ascii: ":") else { continue }
                output.append(contentsOf: bytes[index..<start])
                output.append(UInt8(ascii: "\""))
                output.append(contentsOf: bytes[start..<cursor])
                output.append(UInt8(ascii: "\""))
                index = cursor
                changed = true
            }
        }
        return changed ? Data(output) : nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".")
    }
}
