import Foundation
import ListenUpAPI

/// The auth routes: first-run setup, login, refresh, logout, the bearer
/// check every other route uses, and the login rate limit.
extension DemoService {
    func setup(_ request: DemoRequest) -> DemoResponse {
        let body: SetupRequest
        switch decode(request, as: SetupRequest.self, required: ["email", "password", "first_name", "last_name"], optional: []) {
        case .failure(let response): return response
        case .success(let decoded): body = decoded
        }
        if let limited = rateLimit(request) { return limited }
        if state.withLock({ $0.users.contains { $0.isRoot } }) { return .failure(409, APIMessage.alreadyConfigured) }
        if let problem = validate(email: body.email, password: body.password) { return .failure(400, problem) }
        if body.firstName.isEmpty { return .failure(400, "first_name is required") }
        if body.lastName.isEmpty { return .failure(400, "last_name is required") }
        var random = SplitMix64(seed: UInt64.random(in: 0...UInt64.max))
        let user = User(id: "user-" + Self.nanoID(&random), email: body.email, password: body.password, firstName: body.firstName,
                        lastName: body.lastName, isRoot: true, createdAt: Date(), lastLoginAt: Date())
        state.withLock {
            $0.users.append(user)
            $0.createStarterShelf(for: user, at: Date())
        }
        return .envelope(startSession(for: user))
    }

    func login(_ request: DemoRequest) -> DemoResponse {
        let body: LoginRequest
        switch decode(request, as: LoginRequest.self, required: ["email", "password"], optional: ["device_info"],
                      nested: ["device_info": Self.deviceInfoKeys]) {
        case .failure(let response): return response
        case .success(let decoded): body = decoded
        }
        if let limited = rateLimit(request) { return limited }
        guard body.deviceInfo?.isValidForLogin == true else { return .failure(400, APIMessage.deviceInfoRequired) }
        if state.withLock({ $0.registrations.isPending(email: body.email) }) { return .failure(403, "account pending approval") }
        guard var user = state.withLock({ $0.users.first { $0.email.caseInsensitiveCompare(body.email) == .orderedSame } }),
              user.password == body.password else {
            return .failure(401, APIMessage.invalidCredentials)
        }
        user.lastLoginAt = Date()
        return .envelope(startSession(for: user))
    }

    func refresh(_ request: DemoRequest) -> DemoResponse {
        let body: RefreshRequest
        switch decode(request, as: RefreshRequest.self, required: ["refresh_token"], optional: ["device_info"],
                      nested: ["device_info": Self.deviceInfoKeys]) {
        case .failure(let response): return response
        case .success(let decoded): body = decoded
        }
        if body.refreshToken.isEmpty { return .failure(400, "refresh_token is required") }
        let rotated: (AuthResponse)? = state.withLock { state in
            guard let session = state.sessions.values.first(where: { $0.refreshToken == body.refreshToken }),
                  let user = state.users.first(where: { $0.id == session.userID }) else { return nil }
            let newRefresh = Self.randomToken(bytes: 32)
            state.sessions[session.id]?.refreshToken = newRefresh
            let access = "v4.local." + Self.randomToken(bytes: 96)
            state.accessTokens[access] = (user.id, Date().addingTimeInterval(configuration.effectiveAccessTokenLifetime))
            return AuthResponse(accessToken: access, refreshToken: newRefresh, sessionID: session.id,
                                expiresIn: Int(configuration.effectiveAccessTokenLifetime), user: userResponse(user))
        }
        guard let rotated else { return .failure(401, APIMessage.invalidRefreshToken) }
        return .envelope(rotated)
    }

    func logout(_ request: DemoRequest) -> DemoResponse {
        switch decode(request, as: LogoutRequest.self, required: ["session_id"], optional: []) {
        case .failure(let response): return response
        case .success(let body):
            state.withLock { _ = $0.sessions.removeValue(forKey: body.sessionID) }
            return .envelope(MessageResponse(message: APIMessage.loggedOut))
        }
    }

    func startSession(for user: User) -> AuthResponse {
        var random = SplitMix64(seed: UInt64.random(in: 0...UInt64.max))
        let session = SessionRecord(id: "session-" + Self.nanoID(&random), userID: user.id, refreshToken: Self.randomToken(bytes: 32))
        let access = "v4.local." + Self.randomToken(bytes: 96)
        state.withLock {
            $0.sessions[session.id] = session
            $0.accessTokens[access] = (user.id, Date().addingTimeInterval(configuration.effectiveAccessTokenLifetime))
        }
        return AuthResponse(accessToken: access, refreshToken: session.refreshToken, sessionID: session.id,
                            expiresIn: Int(configuration.effectiveAccessTokenLifetime), user: userResponse(user))
    }

    func userResponse(_ user: User) -> UserResponse {
        UserResponse(id: user.id, email: user.email, displayName: user.shownName, firstName: user.firstName,
                     lastName: user.lastName, isRoot: user.isRoot, createdAt: user.createdAt, updatedAt: user.createdAt,
                     lastLoginAt: user.lastLoginAt, avatarColor: "#82B6C9")
    }

    func validate(email: String, password: String) -> String? {
        if email.isEmpty { return "email is required" }
        let parts = email.split(separator: "@")
        if parts.count != 2 || !parts[1].contains(".") { return "email must be a valid email address" }
        if password.count < 8 { return "password must be at least 8 characters" }
        if password.count > 1024 { return "password exceeds maximum length of 1024 characters" }
        return nil
    }

    /// The bearer's user, if the token is valid and current.
    func bearer(_ request: DemoRequest) -> User? {
        guard let header = request.header("Authorization"), header.hasPrefix("Bearer ") else { return nil }
        let token = String(header.dropFirst("Bearer ".count))
        return state.withLock { state in
            guard let entry = state.accessTokens[token], entry.expires > Date() else { return nil }
            return state.users.first { $0.id == entry.userID }
        }
    }

    func authorized(_ request: DemoRequest, _ body: (User) -> DemoResponse) -> DemoResponse {
        guard let user = bearer(request) else { return .failure(401, APIMessage.authenticationRequired) }
        return body(user)
    }

    /// 429 once the client's attempts are spent (``DemoRateLimit/rest``),
    /// keyed like the Go server: `X-Forwarded-For`, `X-Real-IP`, else one
    /// bucket for everyone.
    func rateLimit(_ request: DemoRequest) -> DemoResponse? {
        let key = request.header("X-Forwarded-For").map { String($0.split(separator: ",").first ?? "") }
            ?? request.header("X-Real-IP") ?? "unknown"
        return takeAttempt("rest|" + key, under: .rest) == nil ? nil : .failure(429, APIMessage.rateLimited)
    }
}
