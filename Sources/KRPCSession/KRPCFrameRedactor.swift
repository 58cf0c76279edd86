import JSONToolkit

/// Hides secrets in kRPC frames and upgrade headers before they are logged,
/// so a user can attach a debug log (`LISTENUP_LOG=debug`) to a bug report.
///
/// A JSON string value is replaced by `"<redacted>"` when its key is a
/// secret (see ``isSecretKey(_:)``); every string inside an object or array
/// under such a key too. kRPC nests JSON in JSON strings (the envelope's
/// `data`, then `SyncFrame.json`, `SyncPage.items`), so a string value that
/// itself holds a JSON object or array is redacted the same way, layer by
/// layer, and re-escaped. Everything else is copied byte for byte (key
/// order, numbers, spacing). Text that is not JSON is scanned as far as it
/// goes: only secrets under a recognisable `"key":` are hidden.
///
/// Pure and thread-safe: no state.
public enum KRPCFrameRedactor {
    /// What replaces a secret.
    public static let placeholder = "<redacted>"

    /// The key names whose string values are secrets, lowercased:
    /// `password`, `accessToken`, `refreshToken`, `token`, `ticket` and
    /// `authorization`.
    public static let secretKeys: Set<String> = ["password", "accesstoken", "refreshtoken", "token", "ticket", "authorization"]

    /// How many JSON-in-string layers are opened (the contract has four).
    static let maximumDepth = 8

    /// Whether a key names a secret: one of ``secretKeys`` (any case), or any
    /// name ending in `password` or `token` (`newPassword`, `resetToken`), `secret` or `claim`
    /// (a password reset's `claimSecret` and `deviceClaim`).
    /// - Parameter key: the JSON object key.
    /// - Returns: true to hide its value.
    public static func isSecretKey(_ key: String) -> Bool {
        let lowered = key.lowercased()
        return secretKeys.contains(lowered) || lowered.hasSuffix("password") || lowered.hasSuffix("token") || lowered.hasSuffix("secret")
            || lowered.hasSuffix("claim")
    }

    /// The frame with every secret replaced by ``placeholder``, at every nesting layer.
    /// - Parameter frame: one text frame (or any JSON text).
    /// - Returns: the redacted text; `frame` itself when nothing was secret.
    public static func redact(_ frame: String) -> String {
        let (bytes, changed) = redact(Array(frame.utf8), depth: 0)
        return changed ? String(decoding: bytes, as: UTF8.self) : frame
    }

    /// Upgrade headers for a log: the values of `Authorization`,
    /// `Proxy-Authorization` and `Cookie` hidden (the scheme, e.g. `Bearer`, kept).
    /// - Parameter headers: the headers as sent.
    /// - Returns: the same headers, secrets replaced.
    public static func redact(headers: [(name: String, value: String)]) -> [(name: String, value: String)] {
        headers.map { header in
            switch header.name.lowercased() {
            case "authorization", "proxy-authorization":
                let scheme = header.value.split(separator: " ", maxSplits: 1).first.map(String.init)
                let keepsScheme = scheme.map { header.value.count > $0.count } ?? false
                return (header.name, keepsScheme ? "\(scheme ?? "") \(placeholder)" : placeholder)
            case "cookie":
                return (header.name, placeholder)
            default:
                return header
            }
        }
    }

    /// Redacts one JSON text given as UTF-8; `changed` says whether anything was hidden.
    static func redact(_ bytes: [UInt8], depth: Int) -> (bytes: [UInt8], changed: Bool) {
        var scanner = RedactingScanner(bytes: bytes, depth: depth)
        scanner.run()
        return (scanner.output, scanner.changed)
    }
}

/// One pass over a JSON text that copies it while hiding secret values. It
/// tracks only what redaction needs: the open containers (object or array,
/// under a secret key or not) and whether the last string was a key.
struct RedactingScanner {
    private let bytes: [UInt8]
    private let depth: Int
    private(set) var output: [UInt8] = []
    private(set) var changed = false
    private var containers: [(isObject: Bool, isSecret: Bool)] = []
    /// After a key and before its value: whether that key is a secret.
    private var pendingKeyIsSecret: Bool?

    init(bytes: [UInt8], depth: Int) {
        self.bytes = bytes
        self.depth = depth
        output.reserveCapacity(bytes.count)
    }

    mutating func run() {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index = string(at: index)
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                containers.append((byte == UInt8(ascii: "{"), valueIsSecret))
                pendingKeyIsSecret = nil
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = containers.popLast()
                pendingKeyIsSecret = nil
            case UInt8(ascii: ","):
                pendingKeyIsSecret = nil
            default:
                break
            }
            output.append(byte)
            index += 1
        }
    }

    /// Whether a value starting here is a secret.
    private var valueIsSecret: Bool {
        (containers.last?.isSecret ?? false) || (pendingKeyIsSecret ?? false)
    }

    /// Handles the string literal starting at `start` (its opening quote);
    /// returns the index after it.
    private mutating func string(at start: Int) -> Int {
        let (end, terminated) = JSONStringLiteral.end(of: bytes, openingQuoteAt: start)
        let content = bytes[(start + 1)..<(terminated ? end - 1 : end)]
        var next = end
        while next < bytes.count, JSONStringLiteral.isSpace(bytes[next]) { next += 1 }
        let isKey = containers.last?.isObject == true && pendingKeyIsSecret == nil
            && next < bytes.count && bytes[next] == UInt8(ascii: ":")
        if isKey {
            let name = String(decoding: JSONStringLiteral.unescaped(content), as: UTF8.self)
            pendingKeyIsSecret = KRPCFrameRedactor.isSecretKey(name)
            output.append(contentsOf: bytes[start..<end])
            return end
        }
        let secret = valueIsSecret
        pendingKeyIsSecret = nil
        // A literal cut short (a truncated frame) stays cut short.
        let closing = terminated ? 0 : 1
        if secret {
            output.append(contentsOf: Array("\"\(KRPCFrameRedactor.placeholder)\"".utf8).dropLast(closing))
            changed = true
        } else if depth < KRPCFrameRedactor.maximumDepth, JSONStringLiteral.opensContainer(content) {
            let inner = KRPCFrameRedactor.redact(JSONStringLiteral.unescaped(content), depth: depth + 1)
            if inner.changed {
                output.append(contentsOf: JSONEscaping.quoted(inner.bytes).dropLast(closing))
                changed = true
            } else {
                output.append(contentsOf: bytes[start..<end])
            }
        } else if let signed = KRPCFrameRedactor.withoutSignature(bytes[start..<end]) {
            output.append(contentsOf: signed)
            changed = true
        } else {
            output.append(contentsOf: bytes[start..<end])
        }
        return end
    }
}

extension KRPCFrameRedactor {
    /// A string literal holding a signed URL (`…&sig=<hex>`, the audio
    /// and cover URLs of `prepare`, which work as credentials for 12 hours)
    /// with the signature's hex replaced by ``placeholder``; nil when it
    /// holds none.
    static func withoutSignature(_ literal: ArraySlice<UInt8>) -> [UInt8]? {
        let marker = Array("sig=".utf8)
        var output: [UInt8] = []
        var index = literal.startIndex
        var found = false
        while index < literal.endIndex {
            if literal[index...].starts(with: marker), index == literal.startIndex || [UInt8(ascii: "?"), UInt8(ascii: "&")].contains(literal[index - 1]) {
                output.append(contentsOf: marker)
                index += marker.count
                var hex = index
                while hex < literal.endIndex, Character(Unicode.Scalar(literal[hex])).isHexDigit { hex += 1 }
                if hex > index {
                    output.append(contentsOf: placeholder.utf8)
                    found = true
                }
                index = hex
            } else {
                output.append(literal[index])
                index += 1
            }
        }
        return found ? output : nil
    }
}
