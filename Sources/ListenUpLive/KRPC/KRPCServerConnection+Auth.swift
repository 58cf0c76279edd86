import Foundation
import KRPCSession
import ListenUpAPI
import ListenUpCore
import ListenUpKRPC

/// Signing in and out, and keeping the access token fresh (§1.5, §3.2, §3.3).
extension KRPCServerConnection {
    /// Creates the first (root) account and signs in as it.
    /// - Throws: ``ServerError/server(status:message:)`` with 409 when an
    ///   admin exists already; 400 for a password outside 8…1024 characters
    ///   (checked here: the server would refuse it as a bug, not an answer).
    public func setupAdmin(firstName: String, lastName: String, email: String, password: String) async throws(ServerError) -> StoredSession {
        let displayName = [firstName, lastName].map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .joined(separator: " ")
        let request = RegisterRequest(email: email, password: password, displayName: displayName.isEmpty ? email : displayName,
                                      sessionLabel: deviceInfo.deviceName, deviceInfo: krpcDeviceInfo)
        try validate { () throws(RequestValidationError) in try request.validate() }
        let auth = try await call(.setupRoot, RequestArguments(request), returning: AuthSession.self, on: .public)
        return await adopt(auth)
    }

    /// Signs in.
    public func login(email: String, password: String) async throws(ServerError) -> StoredSession {
        let request = LoginRequest(email: email, password: password, sessionLabel: deviceInfo.deviceName, deviceInfo: krpcDeviceInfo,
                                   timezone: TimeZone.current.identifier)
        try validate { () throws(RequestValidationError) in try request.validate() }
        let auth = try await call(.login, RequestArguments(request), returning: AuthSession.self, on: .public)
        return await adopt(auth)
    }

    /// Signs out: `AuthServiceAuthed.logout` (best effort), then forgets the
    /// session here and in the secret store, and closes both sockets.
    public func logout() async {
        if await refresher.session != nil {
            do {
                _ = try await call(.logout, NoArguments(), returning: KotlinUnit.self)
            } catch {
                logger.warning("Logout call failed; forgetting the session locally anyway", metadata: ["code": "\(error.code)"])
            }
        }
        await refresher.signOut(self)
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
    func validate(_ check: () throws(RequestValidationError) -> Void) throws(ServerError) {
        do {
            try check()
        } catch {
            throw .server(status: 400, message: error.weakPasswordReason == nil
                          ? tr("Check the name and the email address.") : tr("Choose a password of 8 to 1024 characters."))
        }
    }

    /// Keeps a sign-in's session (here and in the secret store).
    func adopt(_ auth: AuthSession) async -> StoredSession {
        let stored = storedSession(auth)
        await refresher.adopt(stored)
        return stored
    }

    private func storedSession(_ auth: AuthSession) -> StoredSession {
        StoredSession(serverURL: baseURL, accessToken: auth.accessToken, refreshToken: auth.refreshToken,
                      sessionID: auth.sessionId, userID: auth.user.id, displayName: auth.user.displayName,
                      email: auth.user.email, accessExpiresAt: KRPCMapping.date(auth.accessTokenExpiresAt))
    }

    /// A usable access token, refreshed first when little is left of it;
    /// with `refused` (the token a 401 refused), a fresh one.
    func accessToken(refusing refused: String?) async throws(ServerError) -> String {
        if let refused { return try await refreshed(after: refused).accessToken }
        return try await refresher.accessToken(for: self)
    }

    /// A session with a fresh access token after `failedToken` was refused
    /// (``SessionRefresher/refreshed(after:for:)``: single flight, the
    /// rotation grace, a refusal ends the session).
    func refreshed(after failedToken: String) async throws(ServerError) -> StoredSession {
        try await refresher.refreshed(after: failedToken, for: self)
    }

    /// `AuthServicePublic.refreshSession` on the public socket, for the
    /// ``SessionRefresher``: `AuthError.InvalidRefreshToken` (and the other
    /// failures ``KRPCErrorMapping`` reads as an ended session) end it; the
    /// network, a throttle or a hiccup leave it standing.
    func renewSession(_ current: StoredSession) async throws(ServerError) -> StoredSession {
        logger.debug("Refreshing the access token")
        let auth = try await call(.refreshSession, RequestArguments(RefreshRequest(refreshToken: current.refreshToken)),
                                  returning: AuthSession.self, on: .public)
        return storedSession(auth)
    }

    /// The session is over: both sockets are closed.
    func sessionEnded() async {
        await closeSockets()
    }
}
