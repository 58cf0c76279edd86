import Foundation
import JSONToolkit
import ListenUpKRPC
import NIOCore

/// `AuthServicePublic.register` and `observeRegistrationStatus` (addendum
/// §6.1, §6.2; upstream `server/.../auth/AuthServiceImpl.kt register`,
/// `RegistrationStatusWatch.kt`).
extension DemoKRPCService {
    /// `register(request: RegisterRequest)`, checked in the server's order:
    /// the REGISTER bucket (5 a minute per address) → `RateLimited`; not an
    /// email → `InvalidCredentials`; no users → `SetupRequired`; `CLOSED` →
    /// `RegistrationDisabled`; email taken → `EmailAlreadyExists`; blank
    /// password → `WeakPassword{BLANK}`. Then `OPEN` signs the new member in
    /// (`RegisterResult.Authenticated`) and `APPROVAL_QUEUE` queues it
    /// (`RegisterResult.PendingApproval{userId}`).
    func register(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let request = try call.present(call.decode("request", as: RegisterRequest.self,
                                                    requiredKeys: ["email", "password", "displayName"]), "request")
        do { try request.validate() } catch { throw DemoKRPCCallFailure.failedRequirement }
        if let wait = takeAttempt("register", perMinute: 5, host: call.remoteHost) {
            return .result(DemoKRPCWrap.failure(.rateLimited(retryAfterSeconds: wait)))
        }
        guard Self.isEmail(request.email) else { return .result(DemoKRPCWrap.failure(.invalidCredentials)) }
        let (noUsers, mode) = service.state.withLock { ($0.users.isEmpty, $0.registrations.mode) }
        if noUsers { return .result(DemoKRPCWrap.failure(.setupRequired)) }
        if mode == .closed { return .result(DemoKRPCWrap.failure(.registrationDisabled)) }
        if service.isEmailTaken(request.email) { return .result(DemoKRPCWrap.failure(DemoAppFailure(type: "AuthError.EmailAlreadyExists"))) }
        if RequestLimits.isBlank(request.password) { return .result(DemoKRPCWrap.failure(.weakPassword(.blank))) }
        let name = request.displayName.trimmingCharacters(in: .whitespaces)
        if mode == .open {
            let user = service.createMember(email: request.email, password: request.password, displayName: name)
            let auth = session(for: user, label: request.sessionLabel, deviceInfo: request.deviceInfo)
            return .result(DemoKRPCWrap.success(#"{"type":"RegisterResult.Authenticated","session":"# + auth.kotlinJSON + "}"))
        }
        let userID = service.queueRegistration(email: request.email, password: request.password, displayName: name)
        return .result(DemoKRPCWrap.success(#"{"type":"RegisterResult.PendingApproval","userId":"# + JSONWriter.quoted(userID) + "}"))
    }

    /// `observeRegistrationStatus(userId)`: a Flow (see ``DemoKRPCRegistrationWatch``).
    func observeRegistrationStatus(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let userID = try call.present(call.decode("userId", as: String.self), "userId")
        guard !userID.trimmingCharacters(in: .whitespaces).isEmpty else { throw DemoKRPCCallFailure.failedRequirement }
        let limited = takeAttempt("registrationWatch", perMinute: 20, host: call.remoteHost) != nil
        return .registrationWatch(userID: userID, rateLimited: limited)
    }
}

/// One `observeRegistrationStatus` call: the current status at once
/// (`RegistrationStatusEvent`, lower-case `status`); while pending, one
/// more event when an administrator decides (a denial carries its reason
/// as `message`), then `StreamFinished`. An unknown id is one
/// `RpcEvent.Error(AuthError.RegistrationNotFound)` and the end; past the
/// bucket, one `RpcEvent.Error(AuthError.RateLimited)` and the end.
///
/// Confined to its socket's event loop; not Sendable.
final class DemoKRPCRegistrationWatch: DemoKRPCStream {
    let serviceType: String
    private let outlet: DemoKRPCFlowOutlet
    private let service: DemoService
    private let loop: any EventLoop
    private var token: UUID?
    private var userID = ""
    private var isStopped = false

    init(call: KRPCCallData, endpoint: DemoKRPCEndpoint) {
        outlet = DemoKRPCFlowOutlet(call: call, endpoint: endpoint)
        serviceType = call.serviceType
        service = endpoint.service.service
        loop = endpoint.channel.eventLoop
    }

    func start(userID: String, rateLimited: Bool) {
        self.userID = userID
        if rateLimited {
            send(DemoKRPCWrap.eventError(.rateLimited(retryAfterSeconds: 3)))
            return finish()
        }
        let bound = NIOLoopBound(self, eventLoop: loop)
        let loop = loop
        // Subscribed before the status is read, so a decision in between is not missed.
        let token = service.watchRegistration(userID) { decision in loop.execute { bound.value.decided(decision) } }
        self.token = token
        switch service.state.withLock({ $0.registrations.status(of: userID) }) {
        case .none:
            send(DemoKRPCWrap.eventError(DemoAppFailure(type: "AuthError.RegistrationNotFound")))
            finish()
        case .some(.none):
            send(DemoKRPCWrap.event(#"{"status":"pending"}"#))
        case .some(.some(let decision)):
            decided(decision)
        }
    }

    private func decided(_ decision: DemoRegistrationDecision) {
        guard !isStopped else { return }
        switch decision {
        case .approved:
            send(DemoKRPCWrap.event(#"{"status":"approved"}"#))
        case .denied(let reason):
            let message = reason.map { #","message":"# + JSONWriter.quoted($0) } ?? ""
            send(DemoKRPCWrap.event(#"{"status":"denied""# + message + "}"))
        }
        finish()
    }

    func stop() {
        guard !isStopped else { return }
        isStopped = true
        if let token { service.unwatchRegistration(userID, token: token) }
        token = nil
    }

    func cancelForShutdown() {
        stop()
    }

    private func send(_ data: String) {
        guard !isStopped else { return }
        outlet.send(data)
    }

    private func finish() {
        stop()
        outlet.finish()
    }
}

/// A Flow call the endpoint runs and stops (sync events, registration watches).
protocol DemoKRPCStream: AnyObject {
    var serviceType: String { get }
    /// Stops without sending anything more.
    func stop()
    /// Server shutdown.
    func cancelForShutdown()
}

extension DemoKRPCEventStream: DemoKRPCStream {}
