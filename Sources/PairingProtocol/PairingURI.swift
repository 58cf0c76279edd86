import Foundation

/// What a pairing URI could not be parsed into, and why. Each case names the
/// field at fault, so a companion can say what is wrong with a scan.
public enum PairingURIError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not `listenup-pair:`.
    case notAPairingURI
    /// `listenup-pair:` with a version other than `v1`.
    case unsupportedVersion(String)
    /// A query item that is not `key=value`.
    case malformedQuery
    /// A key this version does not define.
    case unknownField(String)
    /// A key other than `addr` given twice.
    case duplicateField(String)
    /// A required key is absent.
    case missingField(String)
    /// A raw character that must be percent-encoded, a bad `%XX`, or invalid UTF-8.
    case badPercentEncoding(field: String)
    /// Not canonical unpadded base64url.
    case badBase64URL(field: String)
    /// The one-time code decodes to fewer than 128 bits.
    case codeTooShort(bits: Int)
    /// The fingerprint is not 32 bytes, or the session id shorter than 64 bits.
    case badLength(field: String)
    /// Not an integer in 1...65535.
    case badPort(String)
    /// Not a numeric IPv4 or IPv6 address.
    case badAddress(String)
    /// Not a non-negative integer of seconds since 1970.
    case badExpiry(String)
    /// Empty, longer than 64 bytes, or containing control characters.
    case badName

    public var description: String {
        switch self {
        case .notAPairingURI: "not a listenup-pair: URI"
        case .unsupportedVersion(let version): "unsupported pairing URI version \(version)"
        case .malformedQuery: "malformed query"
        case .unknownField(let key): "unknown field \(key)"
        case .duplicateField(let key): "duplicate field \(key)"
        case .missingField(let key): "missing field \(key)"
        case .badPercentEncoding(let key): "bad percent-encoding in \(key)"
        case .badBase64URL(let key): "bad base64url in \(key)"
        case .codeTooShort(let bits): "one-time code has only \(bits) bits"
        case .badLength(let key): "wrong length for \(key)"
        case .badPort(let port): "bad port \(port)"
        case .badAddress(let address): "bad address \(address)"
        case .badExpiry(let expiry): "bad expiry \(expiry)"
        case .badName: "bad desktop name"
        }
    }
}

/// The QR payload: everything a companion needs to reach and trust the
/// desktop, as `listenup-pair:v1?name=…&addr=…&port=…&fp=…&session=…&code=…&exp=…`.
///
/// Grammar (docs/pairing-protocol.md has the full text): fields in any order,
/// each exactly once except `addr` (one per address, at least one); values
/// percent-encoded UTF-8 (RFC 3986 unreserved characters raw); `fp`,
/// `session`, `code` unpadded base64url; `exp` Unix seconds. Unknown fields are
/// an error, so a v1 parser never silently ignores something a later version
/// relies on. ``description`` writes fields in a fixed order.
public struct PairingURI: Sendable, Equatable, CustomStringConvertible {
    /// The URI scheme.
    public static let scheme = "listenup-pair"
    /// The only version this parser accepts.
    public static let version = "v1"

    /// The desktop's display name (1–64 UTF-8 bytes, no control characters).
    public var name: String
    /// Numeric IPv4/IPv6 addresses the discovery server listens on, best first.
    public var addresses: [String]
    /// The discovery server's TCP port.
    public var port: Int
    /// SHA-256 of the server certificate's SubjectPublicKeyInfo (32 bytes).
    public var fingerprint: [UInt8]
    /// The pairing session id (≥ 8 bytes).
    public var session: [UInt8]
    /// The one-time code (≥ 16 bytes).
    public var code: [UInt8]
    /// When the code stops being accepted.
    public var expiresAt: Date

    /// A URI from its parts (not validated: ``parse(_:)`` is the strict side).
    public init(name: String, addresses: [String], port: Int, fingerprint: [UInt8], session: [UInt8], code: [UInt8], expiresAt: Date) {
        self.name = name
        self.addresses = addresses
        self.port = port
        self.fingerprint = fingerprint
        self.session = session
        self.code = code
        self.expiresAt = Date(timeIntervalSince1970: expiresAt.timeIntervalSince1970.rounded(.down))
    }

    /// `text` made into a valid `name`: control characters dropped, cut at a
    /// character boundary to at most 64 UTF-8 bytes, "ListenUp" if nothing is left.
    public static func displayName(_ text: String) -> String {
        var name = ""
        for character in text where !character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            guard name.utf8.count + String(character).utf8.count <= 64 else { break }
            name.append(character)
        }
        // Spaces (Foundation's `.whitespaces`: Unicode's space separators and
        // the tab) trimmed by hand: the app names itself at start-up, and
        // Foundation's trimming would cost the first frame its character sets.
        let scalars = name.unicodeScalars
        let isSpace = { (scalar: Unicode.Scalar) in scalar.properties.generalCategory == .spaceSeparator || scalar == "\t" }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }), let last = scalars.lastIndex(where: { !isSpace($0) }) else {
            return "ListenUp"
        }
        return String(scalars[first...last])
    }

    /// `fp` as it appears in the URI (base64url).
    public var fingerprintBase64URL: String { Base64URL.encode(fingerprint) }
    /// `session` as it appears in the URI and in `POST /api/v1/pair`.
    public var sessionString: String { Base64URL.encode(session) }
    /// `code` as it appears in the URI and in `POST /api/v1/pair`.
    public var codeString: String { Base64URL.encode(code) }

    public var description: String {
        var items = [("name", Self.percentEncode(name))]
        items += addresses.map { ("addr", Self.percentEncode($0)) }
        items += [("port", String(port)), ("fp", fingerprintBase64URL), ("session", sessionString),
                  ("code", codeString), ("exp", String(Int64(expiresAt.timeIntervalSince1970)))]
        return "\(Self.scheme):\(Self.version)?" + items.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// Parses a scanned payload strictly.
    /// - Throws: ``PairingURIError`` naming the first problem found.
    public static func parse(_ text: String) throws -> PairingURI {
        let prefix = scheme + ":"
        guard text.hasPrefix(prefix) else { throw PairingURIError.notAPairingURI }
        let rest = text.dropFirst(prefix.count)
        guard let question = rest.firstIndex(of: "?") else {
            throw PairingURIError.unsupportedVersion(String(rest))
        }
        let version = String(rest[..<question])
        guard version == Self.version else { throw PairingURIError.unsupportedVersion(version) }
        let query = rest[rest.index(after: question)...]
        guard !query.isEmpty else { throw PairingURIError.missingField("name") }
        var fields: [String: String] = [:]
        var addresses: [String] = []
        for item in query.split(separator: "&", omittingEmptySubsequences: false) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty else { throw PairingURIError.malformedQuery }
            let key = String(parts[0])
            guard ["name", "addr", "port", "fp", "session", "code", "exp"].contains(key) else {
                throw PairingURIError.unknownField(String(key.prefix(32)))
            }
            guard let value = percentDecode(parts[1]) else { throw PairingURIError.badPercentEncoding(field: key) }
            if key == "addr" {
                addresses.append(value)
            } else {
                guard fields.updateValue(value, forKey: key) == nil else { throw PairingURIError.duplicateField(key) }
            }
        }
        func required(_ key: String) throws -> String {
            guard let value = fields[key] else { throw PairingURIError.missingField(key) }
            return value
        }
        func base64(_ key: String) throws -> [UInt8] {
            guard let bytes = Base64URL.decode(try required(key)) else { throw PairingURIError.badBase64URL(field: key) }
            return bytes
        }
        let name = try required("name")
        guard !name.isEmpty, name.utf8.count <= 64, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw PairingURIError.badName
        }
        guard !addresses.isEmpty else { throw PairingURIError.missingField("addr") }
        for address in addresses where !IPAddressText.isNumeric(address) {
            throw PairingURIError.badAddress(String(address.prefix(64)))
        }
        let portText = try required("port")
        guard portText.utf8.count <= 5, portText.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
              let port = Int(portText), (1...65_535).contains(port), !(portText.hasPrefix("0")) else {
            throw PairingURIError.badPort(String(portText.prefix(16)))
        }
        let fingerprint = try base64("fp")
        guard fingerprint.count == 32 else { throw PairingURIError.badLength(field: "fp") }
        let session = try base64("session")
        guard session.count >= 8, session.count <= 64 else { throw PairingURIError.badLength(field: "session") }
        let code = try base64("code")
        guard code.count >= 16 else { throw PairingURIError.codeTooShort(bits: code.count * 8) }
        guard code.count <= 64 else { throw PairingURIError.badLength(field: "code") }
        let expText = try required("exp")
        guard !expText.isEmpty, expText.utf8.count <= 12, expText.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
              let exp = Int64(expText) else {
            throw PairingURIError.badExpiry(String(expText.prefix(16)))
        }
        return PairingURI(name: name, addresses: addresses, port: port, fingerprint: fingerprint, session: session,
                          code: code, expiresAt: Date(timeIntervalSince1970: TimeInterval(exp)))
    }

    /// RFC 3986 unreserved characters stay; everything else is `%XX` of its UTF-8 bytes.
    static func percentEncode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            if isUnreserved(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    /// Strict decoding: raw bytes must be unreserved characters (plus `:` for
    /// IPv6 literals), `%XX` must be two hex digits, the result valid UTF-8.
    static func percentDecode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            } else if isUnreserved(byte) || byte == UInt8(ascii: ":") {
                bytes.append(byte)
            } else {
                return nil
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - 48
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - 87
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - 55
        default: nil
        }
    }
}

private extension String {
    func leftPadded(to length: Int) -> String { String(repeating: "0", count: max(0, length - count)) + self }
}

/// Numeric IP address checks (no name resolution).
package enum IPAddressText {
    package static func isNumeric(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count < 64 else { return false }
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}
