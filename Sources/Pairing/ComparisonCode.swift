import Crypto
import Foundation

/// The 6-digit number both screens show so the user can see they talk to
/// each other: HMAC-SHA256 keyed with the code's base64url text over
/// `session|fp|client_name` (session and fp base64url as in the URI); the
/// first 4 bytes of the MAC as a big-endian integer, mod 10⁶, zero-padded.
public enum ComparisonCode {
    /// - Parameters:
    ///   - code: the one-time code, base64url as in the URI.
    ///   - session: the session id, base64url.
    ///   - fingerprint: the desktop fingerprint, base64url.
    ///   - clientName: the companion's `client_name`, exactly as sent.
    /// - Returns: six ASCII digits.
    public static func make(code: String, session: String, fingerprint: String, clientName: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data("\(session)|\(fingerprint)|\(clientName)".utf8),
                                                  using: SymmetricKey(data: Data(code.utf8)))
        let bytes = Array(mac)
        let value = UInt32(bytes[0]) << 24 | UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 8 | UInt32(bytes[3])
        let number = String(value % 1_000_000)
        return String(repeating: "0", count: 6 - number.count) + number
    }
}
