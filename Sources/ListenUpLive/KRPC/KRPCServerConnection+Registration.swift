import Foundation
import KRPCSession
import ListenUpCore
import ListenUpKRPC

/// Creating an account over kRPC (addendum §6.1, §6.2; upstream
/// `api/AuthService.kt`, `server/.../auth/AuthServiceImpl.kt register`,
/// `RegistrationStatusWatch.kt`), all on the public socket.
extension KRPCServerConnection {
    /// `InstanceService.getServerInfo().registrationPolicy`: `OPEN`,
    /// `APPROVAL_QUEUE`, else (`CLOSED`, or a policy newer than this app) closed.
    public func registrationMode() async throws(ServerError) -> RegistrationMode {
        let info = try await call(.getServerInfo, NoArguments(), returning: ServerInfo.self, on: .public)
        return KRPCMapping.registrationMode(info.registrationPolicy)
    }

    /// `observeRegistrationPolicy()`: the policy now, then each change; the
    /// stream ends when the Flow does (a dropped socket, or past the
    /// address's bucket of 20 watches a minute, a rate-limit error).
    public func registrationModes() async throws(ServerError) -> AsyncThrowingStream<RegistrationMode, any Error> {
        try await publicFlow(.observeRegistrationPolicy, arguments: NoArguments(), of: RegistrationPolicy.self) {
            KRPCMapping.registrationMode($0)
        }
    }

    /// `AuthServicePublic.register(request)` with this device's label and
    /// info, as a sign-in sends them (a session it opens is labelled).
    /// `RegisterResult.Authenticated` keeps the session here and in the
    /// secret store, as a sign-in does.
    /// - Throws: 409 with a message for an email in use, 403 for closed
    ///   registration, 400 for a password outside 8…1024 characters (checked
    ///   here first: the server would refuse it as a bug, not an answer).
    public func register(displayName: String, email: String, password: String) async throws(ServerError) -> RegistrationOutcome {
        let request = RegisterRequest(email: email, password: password, displayName: displayName,
                                      sessionLabel: deviceInfo.deviceName, deviceInfo: krpcDeviceInfo)
        try validate { () throws(RequestValidationError) in try request.validate() }
        switch try await call(.register, RequestArguments(request), returning: RegisterResult.self, on: .public) {
        case .authenticated(let auth):
            return .signedIn(await adopt(auth))
        case .pendingApproval(let userID):
            return .pendingApproval(userID: userID)
        }
    }

    /// `observeRegistrationStatus(userId)`: the current status, then (while
    /// pending) the terminal one; the stream ends when the Flow completes.
    /// - Throws: at once, or from the stream: 404 for a registration the
    ///   server does not know (`AuthError.RegistrationNotFound`), the
    ///   network's and the throttle's errors otherwise.
    public func registrationStatus(userID: String) async throws(ServerError) -> AsyncThrowingStream<RegistrationStatus, any Error> {
        try await publicFlow(.observeRegistrationStatus, arguments: ObserveRegistrationStatusArguments(userId: userID),
                             of: RegistrationStatusEvent.self, map: { KRPCMapping.registrationStatus($0) }, isLast: \.isTerminal)
    }
}

extension KRPCMapping {
    /// The registration policy as the seam's mode; an unknown policy is closed.
    static func registrationMode(_ policy: RegistrationPolicy) -> RegistrationMode {
        switch policy {
        case .open: .open
        case .approvalQueue: .approval
        default: .closed
        }
    }

    /// A status event as the seam's status; nil for a word this app does not know.
    static func registrationStatus(_ event: RegistrationStatusEvent) -> RegistrationStatus? {
        switch event.status {
        case RegistrationStatusEvent.pending: .pending
        case RegistrationStatusEvent.approved: .approved
        case RegistrationStatusEvent.denied: .declined(message: event.message)
        default: nil
        }
    }
}
