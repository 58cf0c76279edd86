import Crypto
import Foundation
import JSONToolkit
import ListenUpKRPC

/// Who an authed socket (or a cover request) belongs to: captured once, at
/// the upgrade, as the real server does (§1.2).
struct DemoKRPCPrincipal: Sendable, Equatable {
    var userID: String
    var sessionID: String
}

/// The kRPC mode's sessions and tokens (§1.5, §6.4): HS256 access JWTs
/// (`iss=listenup`, `aud=listenup-client`, claims in the server's order)
/// whose session must be live, and opaque refresh tokens that rotate on
/// every refresh, with a grace window for the token just rotated away and
/// family revocation on a replay outside it.
///
/// Thread-safe: the state is behind a lock; the key never changes.
final class DemoKRPCTokens: Sendable {
    /// What a sign-in or refresh hands out.
    struct Issued: Sendable {
        var accessToken: String
        var accessExpiresAt: Date
        var refreshToken: String
        var refreshExpiresAt: Date
        var sessionID: String
        var userID: String
    }

    /// What a refresh did.
    enum RefreshOutcome: Sendable {
        case rotated(Issued)
        /// `AuthError.InvalidRefreshToken{familyRevoked}`.
        case refused(familyRevoked: Bool)
    }

    private struct Session {
        var id: String
        var userID: String
        var role: String
        var currentHash: String
        var previousHash: String?
        /// The last normal rotation: the grace window runs from here (§6.4).
        var rotatedAt: Date?
        var refreshExpiresAt: Date
        var revoked = false
        /// What the client said at sign-in (`sessionLabel`, `deviceInfo`).
        var label: String?
        var deviceInfo: DeviceInfo?
        var createdAt: Date
        /// Sign-in, then each refresh.
        var lastUsedAt: Date
    }

    /// A live session as `listSessions` lists it.
    struct Listed: Sendable {
        var id: String
        var label: String?
        var deviceInfo: DeviceInfo?
        var createdAt: Date
        var lastUsedAt: Date
    }

    private struct State {
        var sessions: [String: Session] = [:]
        /// Access tokens by `jti`: a token is honoured only while listed
        /// (so ``expireAccessTokens()`` can end them early).
        var grants: [String: (sessionID: String, expires: Date)] = [:]
    }

    /// The JWT secret (random per run), kept as bytes: `SymmetricKey` is not `Sendable`.
    private let secret: Data = {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }()
    private var key: SymmetricKey { SymmetricKey(data: secret) }
    private let state = Locked(State())
    private let accessLifetime: TimeInterval
    private let refreshLifetime: TimeInterval
    private let reuseGrace: TimeInterval

    init(accessLifetime: TimeInterval, refreshLifetime: TimeInterval, reuseGrace: TimeInterval) {
        self.accessLifetime = accessLifetime
        self.refreshLifetime = refreshLifetime
        self.reuseGrace = reuseGrace
    }

    /// A key for another purpose (signed URLs), derived from the JWT secret
    /// as the real server derives its URL keys.
    func derivedKey(label: String) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: Data(label.utf8), using: key))
    }

    /// Starts a session (setupRoot, login).
    func startSession(userID: String, role: String, label: String? = nil, deviceInfo: DeviceInfo? = nil, now: Date = Date()) -> Issued {
        let refresh = Self.randomToken()
        let session = Session(id: "session-" + UUID().uuidString.lowercased(), userID: userID, role: role,
                              currentHash: Self.hash(refresh), refreshExpiresAt: now.addingTimeInterval(refreshLifetime),
                              label: label, deviceInfo: deviceInfo, createdAt: now, lastUsedAt: now)
        return state.withLock { state in
            state.sessions[session.id] = session
            return issue(session, refreshToken: refresh, now: now, in: &state)
        }
    }

    /// `refreshSession` (§1.5, §6.4): the current token rotates (a fresh
    /// 30-day expiry); the token just rotated away re-rotates within the
    /// grace window (keeping the expiry, so the first rotation's token then
    /// reads as unknown) and revokes the family after it; anything else is unknown.
    func refresh(_ token: String, now: Date = Date()) -> RefreshOutcome {
        let hash = Self.hash(token)
        let fresh = Self.randomToken()
        return state.withLock { state in
            if var session = state.sessions.values.first(where: { $0.currentHash == hash }) {
                guard !session.revoked, session.refreshExpiresAt > now else { return .refused(familyRevoked: false) }
                session.previousHash = session.currentHash
                session.currentHash = Self.hash(fresh)
                session.rotatedAt = now
                session.lastUsedAt = now
                session.refreshExpiresAt = now.addingTimeInterval(refreshLifetime)
                state.sessions[session.id] = session
                return .rotated(issue(session, refreshToken: fresh, now: now, in: &state))
            }
            guard var session = state.sessions.values.first(where: { $0.previousHash == hash }), !session.revoked else {
                return .refused(familyRevoked: false)
            }
            if let rotatedAt = session.rotatedAt, now.timeIntervalSince(rotatedAt) <= reuseGrace, session.refreshExpiresAt > now {
                session.currentHash = Self.hash(fresh)
                state.sessions[session.id] = session
                return .rotated(issue(session, refreshToken: fresh, now: now, in: &state))
            }
            session.revoked = true
            state.sessions[session.id] = session
            state.grants = state.grants.filter { $0.value.sessionID != session.id }
            return .refused(familyRevoked: true)
        }
    }

    /// The principal of a `Bearer` access token: a valid JWT of this server,
    /// not expired, not ended by ``expireAccessTokens()``, its session live.
    func principal(bearer header: String?, now: Date = Date()) -> DemoKRPCPrincipal? {
        guard let header, header.hasPrefix("Bearer ") else { return nil }
        let parts = header.dropFirst("Bearer ".count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let signature = Self.base64URLDecoded(parts[2]),
              HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: Data("\(parts[0]).\(parts[1])".utf8), using: key),
              let payload = Self.base64URLDecoded(parts[1]),
              let claims = try? KRPCJSON.decode([String: JSONValue].self, from: payload),
              claims["iss"]?.stringValue == "listenup", claims["aud"]?.stringValue == "listenup-client",
              let subject = claims["sub"]?.stringValue, let jti = claims["jti"]?.stringValue,
              let expiry = claims["exp"]?.int64Value, Double(expiry) > now.timeIntervalSince1970 else { return nil }
        return state.withLock { state in
            guard let grant = state.grants[jti], grant.expires > now, let session = state.sessions[grant.sessionID],
                  session.userID == subject, !session.revoked, session.refreshExpiresAt > now else { return nil }
            return DemoKRPCPrincipal(userID: session.userID, sessionID: session.id)
        }
    }

    /// Whether a session is neither revoked nor expired (the streams' liveness gate).
    func isLive(sessionID: String, now: Date = Date()) -> Bool {
        state.withLock { state in
            guard let session = state.sessions[sessionID] else { return false }
            return !session.revoked && session.refreshExpiresAt > now
        }
    }

    /// The user's live sessions, last used first (`listSessions`, `sq/Sessions.sq`).
    func sessions(ofUser userID: String, now: Date = Date()) -> [Listed] {
        state.withLock { state in
            state.sessions.values.filter { $0.userID == userID && !$0.revoked && $0.refreshExpiresAt > now }
                .sorted { $0.lastUsedAt > $1.lastUsedAt }
                .map { Listed(id: $0.id, label: $0.label, deviceInfo: $0.deviceInfo, createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt) }
        }
    }

    /// Ends session `sessionID` if it is `userID`'s (`revokeSession`:
    /// owner-scoped; a foreign or unknown id changes nothing).
    func revoke(sessionID: String, ofUser userID: String) {
        let owned = state.withLock { $0.sessions[sessionID]?.userID == userID }
        if owned { revoke(sessionID: sessionID) }
    }

    /// Ends one session (`logout`); idempotent.
    func revoke(sessionID: String) {
        state.withLock { state in
            state.sessions[sessionID]?.revoked = true
            state.grants = state.grants.filter { $0.value.sessionID != sessionID }
        }
    }

    /// Ends every session of a user (`logoutAll`).
    func revoke(userID: String) {
        state.withLock { state in
            for (id, session) in state.sessions where session.userID == userID { state.sessions[id]?.revoked = true }
            let live = Set(state.sessions.values.filter { !$0.revoked }.map(\.id))
            state.grants = state.grants.filter { live.contains($0.value.sessionID) }
        }
    }

    /// Every access token stops working (sessions and refresh tokens stay).
    func expireAccessTokens() {
        state.withLock { $0.grants.removeAll() }
    }

    /// Every session ends.
    func revokeAll() {
        state.withLock { state in
            for id in state.sessions.keys { state.sessions[id]?.revoked = true }
            state.grants.removeAll()
        }
    }

    private func issue(_ session: Session, refreshToken: String, now: Date, in state: inout State) -> Issued {
        let jti = UUID().uuidString.lowercased()
        let issuedAt = Int64(now.timeIntervalSince1970)
        let expires = Date(timeIntervalSince1970: Double(issuedAt) + accessLifetime)
        state.grants[jti] = (session.id, expires)
        var claims = JSONWriter.object()
        claims.string("iss", "listenup")
        claims.string("aud", "listenup-client")
        claims.string("sub", session.userID)
        claims.string("jti", jti)
        claims.string("role", session.role)
        claims.integer("iat", issuedAt)
        claims.integer("nbf", issuedAt)
        claims.integer("exp", Int64(expires.timeIntervalSince1970.rounded(.up)))
        let signingInput = Self.base64URL(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8)) + "." + Self.base64URL(Data(claims.finished().utf8))
        let signature = Data(HMAC<SHA256>.authenticationCode(for: Data(signingInput.utf8), using: key))
        return Issued(accessToken: signingInput + "." + Self.base64URL(signature), accessExpiresAt: expires,
                      refreshToken: refreshToken, refreshExpiresAt: session.refreshExpiresAt, sessionID: session.id,
                      userID: session.userID)
    }

    private static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return base64URL(Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }))
    }

    private static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func base64URLDecoded(_ text: Substring) -> Data? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard)
    }
}
