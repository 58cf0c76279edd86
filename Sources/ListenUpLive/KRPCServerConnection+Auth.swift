import Foundation
import KRPCSession
import ListenUpAPI
import ListenUpCore
import ListenUpKRPC

/// Signing in and out, and keeping the access token fresh (§1.5, §3.2, §3.3).
extension KRPCServerConnection {
    /// Creates the first (root) account and signs in as it.
    /// - Throws: ``APIClientError/server(status:message:)`` with 409 when an
    ///   admin exists already; 400 for a password outside 8…1024 characters
    ///   (checked here: the server would refuse it as a bug, not an answer).
    public func setupAdmin(firstName: String, lastName: String, email: String, password: String) async throws(APIClientError) -> StoredSession {
        let displayName = [firstName, lastName].map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .joined(separator: " ")
        let request = RegisterRequest(email: email, password: password, displayName: displayName.isEmpty ? email : displayName,
                                      sessionLabel: deviceInfo.deviceName, deviceInfo: krpcDeviceInfo)
        try validate { () throws(RequestValidationError) in try request.validate() }
        let auth = try await call(.setupRoot, RequestArguments(request), returning: AuthSession.self, on: .public)
        return await adopt(auth)
    }

    /// Signs in.
    public func login(email: String, password: String) async throws(APIClientError) -> StoredSession {
        let request = LoginRequest(email: email, password: password, sessionLabel: deviceInfo.deviceName, deviceInfo: krpcDeviceInfo,
                                   timezone: TimeZone.current.identifier)
        try validate { () throws(RequestValidationError) in try request.validate() }
        let auth = try await call(.login, RequestArguments(request), returning: AuthSession.self, on: .public)
        return await adopt(auth)
    }

    /// Signs out: `AuthServiceAuthed.logout` (best effort), then forgets the
    /// session here and in the secret store, and closes both sockets.
    public func logout() async {
        if session != nil {
            do {
                _ = try await call(.logout, NoArguments(), returning: KotlinUnit.self)
            } catch {
                logger.warning("Logout call failed; forgetting the session locally anyway", metadata: ["code": "\(error.code)"])
            }
        }
        session = nil
        refreshInFlight?.cancel()
        refreshInFlight = nil
        await closeSockets()
        await sessions.delete(baseURL)
    }

    /// This client as the kRPC `DeviceInfo`, each field cut to the server's
    /// 128 UTF-16 code units (`DEVICE_FIELD_MAX` in
    /// `contract/.../dto/auth/DeviceInfo.kt`), never inside a character.
    var krpcDeviceInfo: ListenUpKRPC.DeviceInfo {
        func cut(_ text: String?) -> String? { text.map { RequestLimits.cut($0, toUTF16: RequestLimits.deviceInfoFieldLength) } }
        return ListenUpKRPC.DeviceInfo(deviceType: cut(deviceInfo.deviceType), platform: cut(deviceInfo.platform),
                                       platformVersion: cut(deviceInfo.platformVersion), clientName: cut(deviceInfo.clientName),
                                       clientVersion: cut(deviceInfo.clientVersion), deviceName: cut(deviceInfo.deviceName),
                                       deviceModel: cut(deviceInfo.deviceModel))
    }

    /// The `deviceLabel` of this device's listening events: its name, else
    /// its model, as the official client sends it (`deviceName ?: deviceModel`
    /// in `app/sharedLogic/.../playback/ListeningEventRecorder.kt`); nil when
    /// it has neither. Cut as the session's device name is, so both read the
    /// same (the server sets no limit of its own on the label).
    var krpcDeviceLabel: String? {
        (deviceInfo.deviceName ?? deviceInfo.deviceModel).map { RequestLimits.cut($0, toUTF16: RequestLimits.deviceInfoFieldLength) }
    }

    /// Runs a request's local checks; a refusal reads as the server's would.
    private func validate(_ check: () throws(RequestValidationError) -> Void) throws(APIClientError) {
        do {
            try check()
        } catch {
            throw .server(status: 400, message: error.weakPasswordReason == nil
                          ? tr("Check the name and the email address.") : tr("Choose a password of 8 to 1024 characters."))
        }
    }

    /// Keeps `auth` as the session (here and in the secret store).
    private func adopt(_ auth: AuthSession) async -> StoredSession {
        let stored = StoredSession(serverURL: baseURL, accessToken: auth.accessToken, refreshToken: auth.refreshToken,
                                   sessionID: auth.sessionId, userID: auth.user.id, displayName: auth.user.displayName,
                                   email: auth.user.email, accessExpiresAt: KRPCMapping.date(auth.accessTokenExpiresAt))
        session = stored
        lapsing = nil
        do {
            try await sessions.save(stored)
        } catch {
            logger.error("Could not save the session; you will have to sign in again next time")
        }
        return stored
    }

    /// A usable access token, refreshed first when little is left of it;
    /// with `refused` (the token a 401 refused), a fresh one.
    func accessToken(refusing refused: String?) async throws -> String {
        guard let current = session else { throw await lapsedError() }
        if let refused { return try await refreshed(after: refused).accessToken }
        if current.accessExpiresAt.timeIntervalSinceNow < Self.refreshMargin {
            return try await refreshed(after: current.accessToken).accessToken
        }
        return current.accessToken
    }

    /// A session with a fresh access token. If `failedToken` is no longer the
    /// current one, another call already refreshed: use that. Concurrent
    /// callers share one refresh; a refused one ends the session.
    func refreshed(after failedToken: String) async throws(APIClientError) -> StoredSession {
        guard let current = session else { throw await lapsedError() }
        if current.accessToken != failedToken { return current }
        let task: Task<StoredSession, any Error>
        if let inFlight = refreshInFlight {
            task = inFlight
        } else {
            let refreshToken = current.refreshToken
            task = Task { try await self.performRefresh(refreshToken: refreshToken) }
            refreshInFlight = task
        }
        do {
            let renewed = try await task.value
            if refreshInFlight == task { refreshInFlight = nil }
            return renewed
        } catch {
            if refreshInFlight == task { refreshInFlight = nil }
            let mapped = KRPCErrorMapping.error(error)
            switch mapped {
            case .sessionLapsed:
                await lapse()
                throw .sessionLapsed
            default:
                // The network, a throttle or a hiccup: the session stands.
                throw mapped
            }
        }
    }

    private func performRefresh(refreshToken: String) async throws -> StoredSession {
        logger.debug("Refreshing the access token")
        let auth = try await call(.refreshSession, RequestArguments(RefreshRequest(refreshToken: refreshToken)),
                                  returning: AuthSession.self, on: .public)
        return await adopt(auth)
    }

    /// The server refused the session: forget it and tell the handlers.
    /// A second caller while this runs waits for the first.
    func lapse() async {
        if let lapsing {
            await lapsing.value
            return
        }
        guard session != nil else { return }
        logger.info("The server refused the session; signing in again is needed")
        session = nil
        let task = Task {
            await closeSockets()
            await sessions.delete(baseURL)
            for handler in lapsedHandlers { await handler() }
        }
        lapsing = task
        await task.value
    }

    /// `sessionLapsed`, once a lapse under way has told the store and the handlers.
    func lapsedError() async -> APIClientError {
        await lapsing?.value
        return .sessionLapsed
    }
}
