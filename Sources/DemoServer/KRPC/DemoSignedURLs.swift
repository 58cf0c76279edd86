import Crypto
import Foundation

/// The signed blob URLs `PlaybackService.prepare` mints (§4): the
/// signature is the only authorisation of audio and cover-cast requests.
///
/// Audio: `/api/v1/audio/<bookId>/<fileId>?u=<userId>&exp=<epoch s>&sig=<hex>`
/// with `sig = hex(HMAC-SHA256(K_audio, "<u>|<bookId>|<fileId>|<exp>"))`;
/// cover-cast: `/api/v1/cover-cast/<bookId>?u=&exp=&sig=` over
/// `"<u>|<bookId>|<exp>"` with a key labelled `listenup-cover-url-v1`. Both
/// keys derive from the JWT secret. A value type, immutable, thread-safe.
struct DemoSignedURLs: Sendable {
    // Kept as bytes: `SymmetricKey` is not `Sendable`.
    private let audioKey: Data
    private let coverKey: Data
    /// Seconds a URL stays valid (12 h on the real server).
    let lifetime: TimeInterval

    init(tokens: DemoKRPCTokens, lifetime: TimeInterval) {
        audioKey = tokens.derivedKey(label: "listenup-audio-url-v1")
        coverKey = tokens.derivedKey(label: "listenup-cover-url-v1")
        self.lifetime = lifetime
    }

    /// The server-relative audio URL of one file for `userID`.
    func audioURL(userID: String, bookID: String, fileID: String, now: Date = Date()) -> String {
        let expiry = Int64(now.addingTimeInterval(lifetime).timeIntervalSince1970)
        let signature = Self.sign("\(userID)|\(bookID)|\(fileID)|\(expiry)", key: audioKey)
        return "/api/v1/audio/\(Self.escaped(bookID))/\(Self.escaped(fileID))?u=\(Self.escaped(userID))&exp=\(expiry)&sig=\(signature)"
    }

    /// The server-relative cover-cast URL of a book for `userID`.
    func coverURL(userID: String, bookID: String, now: Date = Date()) -> String {
        let expiry = Int64(now.addingTimeInterval(lifetime).timeIntervalSince1970)
        let signature = Self.sign("\(userID)|\(bookID)|\(expiry)", key: coverKey)
        return "/api/v1/cover-cast/\(Self.escaped(bookID))?u=\(Self.escaped(userID))&exp=\(expiry)&sig=\(signature)"
    }

    /// The user an audio request is signed for, or nil when the signature
    /// is missing, wrong or expired (answer 403).
    func verifyAudio(query: [String: String], bookID: String, fileID: String, now: Date = Date()) -> String? {
        verify(query: query, now: now) { user, expiry in "\(user)|\(bookID)|\(fileID)|\(expiry)" }
    }

    /// The user a cover-cast request is signed for, or nil (answer 403).
    func verifyCover(query: [String: String], bookID: String, now: Date = Date()) -> String? {
        verify(query: query, now: now, cover: true) { user, expiry in "\(user)|\(bookID)|\(expiry)" }
    }

    private func verify(query: [String: String], now: Date, cover: Bool = false,
                        payload: (String, String) -> String) -> String? {
        guard let user = query["u"], let expiryText = query["exp"], let expiry = Int64(expiryText), let signature = query["sig"],
              Double(expiry) > now.timeIntervalSince1970 else { return nil }
        let expected = Self.sign(payload(user, expiryText), key: cover ? coverKey : audioKey)
        // Compare every byte, whatever the first difference.
        guard expected.utf8.count == signature.utf8.count,
              zip(expected.utf8, signature.utf8).reduce(0, { $0 | ($1.0 ^ $1.1) }) == 0 else { return nil }
        return user
    }

    private static func sign(_ payload: String, key: Data) -> String {
        HMAC<SHA256>.authenticationCode(for: Data(payload.utf8), using: SymmetricKey(data: key)).map { String(format: "%02x", $0) }.joined()
    }

    /// A path segment or query value, percent-encoded (unreserved characters kept).
    static func escaped(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
