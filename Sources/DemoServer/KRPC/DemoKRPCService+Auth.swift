import Foundation
import ListenUpKRPC

/// `InstanceService`, `AuthServicePublic` and `AuthServiceAuthed` (§3.1–§3.3).
extension DemoKRPCService {
    /// `getServerInfo()`: `setupRequired` until a user exists; the
    /// registration policy is the demo's mode (`--registration`).
    func getServerInfo() -> String {
        let (setupRequired, mode) = service.state.withLock { ($0.users.isEmpty, $0.registrations.mode) }
        let info = ServerInfo(name: service.configuration.serverName, version: Self.serverVersion, apiVersion: Self.apiVersion,
                              setupRequired: setupRequired, registrationPolicy: mode.policy, instanceId: service.instanceID)
        return DemoKRPCWrap.success(info.kotlinJSON)
    }

    /// `setupRoot(request: RegisterRequest)`: the first user, as ROOT.
    func setupRoot(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let request = try call.present(call.decode("request", as: RegisterRequest.self,
                                                    requiredKeys: ["email", "password", "displayName"]), "request")
        do { try request.validate() } catch { throw DemoKRPCCallFailure.failedRequirement }
        if service.state.withLock({ !$0.users.isEmpty }) { return .result(DemoKRPCWrap.failure(.setupAlreadyComplete)) }
        guard Self.isEmail(request.email) else { return .result(DemoKRPCWrap.failure(.invalidCredentials)) }
        if RequestLimits.isBlank(request.password) { return .result(DemoKRPCWrap.failure(.weakPassword(.blank))) }
        let name = request.displayName.trimmingCharacters(in: .whitespaces)
        let words = name.split(separator: " ", maxSplits: 1).map(String.init)
        var random = SplitMix64(seed: UInt64.random(in: 0...UInt64.max))
        let now = Date()
        let user = DemoService.User(id: "user-" + DemoService.nanoID(&random), email: request.email, password: request.password,
                                    firstName: words.first ?? name, lastName: words.count > 1 ? words[1] : "", isRoot: true,
                                    createdAt: now, lastLoginAt: now, displayName: name)
        let created = service.state.withLock { state -> Bool in
            guard state.users.isEmpty else { return false }
            state.users.append(user)
            state.createStarterShelf(for: user, at: now)
            return true
        }
        guard created else { return .result(DemoKRPCWrap.failure(.setupAlreadyComplete)) }
        return .result(DemoKRPCWrap.success(session(for: user, label: nil, deviceInfo: nil).kotlinJSON))
    }

    /// `login(request: LoginRequest)`: `InvalidCredentials` for an unknown
    /// account or a wrong password; `RateLimited` past the per-minute budget.
    func login(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let request = try call.present(call.decode("request", as: LoginRequest.self, requiredKeys: ["email", "password"]), "request")
        do { try request.validate() } catch { throw DemoKRPCCallFailure.failedRequirement }
        if let wait = takeAttempt("login", perMinute: options.loginAttemptsPerMinute, host: call.remoteHost) {
            return .result(DemoKRPCWrap.failure(.rateLimited(retryAfterSeconds: wait)))
        }
        let user = service.state.withLock { state -> DemoService.User? in
            guard let index = state.users.firstIndex(where: { $0.email.caseInsensitiveCompare(request.email) == .orderedSame }),
                  state.users[index].password == request.password else { return nil }
            state.users[index].lastLoginAt = Date()
            return state.users[index]
        }
        guard let user else {
            let pending = service.state.withLock { $0.registrations.pending.contains {
                $0.email.caseInsensitiveCompare(request.email) == .orderedSame && $0.password == request.password } }
            return .result(DemoKRPCWrap.failure(pending ? DemoAppFailure(type: "AuthError.PendingApproval") : .invalidCredentials))
        }
        return .result(DemoKRPCWrap.success(session(for: user, label: request.sessionLabel, deviceInfo: request.deviceInfo).kotlinJSON))
    }

    /// `refreshSession(request: RefreshRequest)`: rotation, grace, family revocation (§1.5, §6.4).
    func refreshSession(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let request = try call.present(call.decode("request", as: RefreshRequest.self, requiredKeys: ["refreshToken"]), "request")
        if let wait = takeAttempt("refresh", perMinute: options.refreshAttemptsPerMinute, host: call.remoteHost) {
            return .result(DemoKRPCWrap.failure(.rateLimited(retryAfterSeconds: wait)))
        }
        switch tokens.refresh(request.refreshToken) {
        case .refused(let familyRevoked):
            return .result(DemoKRPCWrap.failure(.invalidRefreshToken(familyRevoked: familyRevoked)))
        case .rotated(let issued):
            guard let user = service.state.withLock({ $0.users.first { $0.id == issued.userID } }) else {
                return .result(DemoKRPCWrap.failure(.invalidRefreshToken(familyRevoked: false)))
            }
            return .result(DemoKRPCWrap.success(authSession(issued, user: user).kotlinJSON))
        }
    }

    /// `logout()`: ends this socket's session; idempotent.
    func logout(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        if let principal = call.principal { tokens.revoke(sessionID: principal.sessionID) }
        return .result(DemoKRPCWrap.unit)
    }

    /// `logoutAll()`: ends every session of the caller.
    func logoutAll(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        tokens.revoke(userID: try call.userID)
        return .result(DemoKRPCWrap.unit)
    }

    /// `listSessions()`: the caller's live sessions, last used first, the
    /// caller's own marked `current`.
    func listSessions(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let userID = try call.userID
        let current = call.principal?.sessionID
        let listed = tokens.sessions(ofUser: userID).map { session in
            SessionSummary(id: session.id, label: session.label, deviceInfo: session.deviceInfo,
                           createdAt: DemoKRPCMapping.milliseconds(session.createdAt),
                           lastUsedAt: DemoKRPCMapping.milliseconds(session.lastUsedAt), current: session.id == current)
        }
        do { return .result(DemoKRPCWrap.success(try KRPCJSON.encode(listed))) } catch {
            throw DemoKRPCCallFailure(className: "kotlin.IllegalStateException", message: "\(error)", echoesServiceID: true)
        }
    }

    /// `revokeSession(sessionId)`: owner-scoped; a foreign or unknown id is a silent success.
    func revokeSession(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let sessionID = try call.present(call.decode("sessionId", as: String.self), "sessionId")
        tokens.revoke(sessionID: sessionID, ofUser: try call.userID)
        return .result(DemoKRPCWrap.unit)
    }

    /// `currentUser()`.
    func currentUser(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let userID = try call.userID
        guard let user = service.state.withLock({ $0.users.first { $0.id == userID } }) else {
            return .result(DemoKRPCWrap.failure(.sessionExpired))
        }
        return .result(DemoKRPCWrap.success(Self.user(user).kotlinJSON))
    }

    // MARK: Helpers

    /// A demo user as the contract's `User`.
    static func user(_ user: DemoService.User) -> User {
        User(id: user.id, email: user.email, displayName: user.shownName, role: UserRole(rawValue: user.role), status: .active,
             createdAt: DemoKRPCMapping.milliseconds(user.createdAt))
    }

    func session(for user: DemoService.User, label: String?, deviceInfo: DeviceInfo?) -> AuthSession {
        authSession(tokens.startSession(userID: user.id, role: user.role,
                                        label: label, deviceInfo: deviceInfo), user: user)
    }

    private func authSession(_ issued: DemoKRPCTokens.Issued, user: DemoService.User) -> AuthSession {
        AuthSession(accessToken: issued.accessToken, accessTokenExpiresAt: DemoKRPCMapping.milliseconds(issued.accessExpiresAt),
                    refreshToken: issued.refreshToken, refreshTokenExpiresAt: DemoKRPCMapping.milliseconds(issued.refreshExpiresAt),
                    sessionId: issued.sessionID, user: Self.user(user))
    }

    /// Takes one attempt from the client's bucket for `kind`, `perMinute`
    /// calls a minute; returns the seconds to wait when it is empty.
    func takeAttempt(_ kind: String, perMinute: Int, host: String) -> Int? {
        service.takeAttempt("krpc-\(kind)|\(host)", under: .perMinute(perMinute))
    }

    static func isEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && !text.contains(" ")
    }
}
