import Foundation
import JSONToolkit
import ListenUpKRPC
import NIOCore

/// `AuthServicePublic.requestPasswordReset`, `observePasswordResetStatus`
/// and `completePasswordReset` (addendum §6.3; upstream `api/AuthService.kt`,
/// `server/.../services/PasswordResetService.kt`). The REST mode has none,
/// as the Go server has none.
extension DemoKRPCService {
    /// `requestPasswordReset(email, deviceClaim)`: 5 a minute per address,
    /// then always a ticket (an unknown email's is not stored).
    func requestPasswordReset(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let email = try call.present(call.decode("email", as: String.self), "email")
        let claim = try call.present(call.decode("deviceClaim", as: String.self), "deviceClaim")
        if let wait = takeAttempt("passwordReset", perMinute: 5, host: call.remoteHost) {
            return .result(DemoKRPCWrap.failure(.rateLimited(retryAfterSeconds: wait)))
        }
        let ticket = service.requestPasswordReset(email: email.trimmingCharacters(in: .whitespaces), claim: claim)
        let json = #"{"ticketId":"# + JSONWriter.quoted(ticket.ticketID) + #","expiresAt":"# +
            String(DemoKRPCMapping.milliseconds(ticket.expiresAt)) + "}"
        return .result(DemoKRPCWrap.success(json))
    }

    /// `observePasswordResetStatus(ticketId)`: a poll (``DemoKRPCPasswordResetWatch``).
    func observePasswordResetStatus(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        .passwordResetWatch(ticketID: try call.present(call.decode("ticketId", as: String.self), "ticketId"))
    }

    /// `completePasswordReset(ticketId, claimSecret, code, newPassword)`:
    /// the password policy first (`WeakPassword` uses no attempt), then the
    /// request's checks (``DemoService/completePasswordReset(ticketID:claim:code:newPassword:)``);
    /// success ends every session of the account.
    func completePasswordReset(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let ticketID = try call.present(call.decode("ticketId", as: String.self), "ticketId")
        let claim = try call.present(call.decode("claimSecret", as: String.self), "claimSecret")
        let code = try call.present(call.decode("code", as: String.self), "code")
        let password = try call.present(call.decode("newPassword", as: String.self), "newPassword")
        if RequestLimits.isBlank(password) { return .result(DemoKRPCWrap.failure(.weakPassword(.blank))) }
        if password.count < 8 { return .result(DemoKRPCWrap.failure(.weakPassword(.tooShort))) }
        if password.count > 1024 { return .result(DemoKRPCWrap.failure(.weakPassword(.tooLong))) }
        switch service.completePasswordReset(ticketID: ticketID, claim: claim, code: code, newPassword: password) {
        case .success(let userID):
            tokens.revoke(userID: userID)
            return .result(DemoKRPCWrap.unit)
        case .failure(.notFound):
            return .result(DemoKRPCWrap.failure(DemoAppFailure(type: "AuthError.ResetRequestNotFound")))
        case .failure(.exhausted):
            return .result(DemoKRPCWrap.failure(DemoAppFailure(type: "AuthError.ResetAttemptsExhausted")))
        case .failure(.notApproved):
            return .result(DemoKRPCWrap.failure(DemoAppFailure(type: "AuthError.ResetNotApproved")))
        case .failure(.wrong(let remaining)):
            return .result(DemoKRPCWrap.failure(DemoAppFailure(type: "AuthError.ResetCodeIncorrect",
                                                               fields: [("attemptsRemaining", String(remaining))])))
        }
    }
}

/// One `observePasswordResetStatus` call: the server polls the request every
/// ``DemoServer/KRPCOptions/passwordResetPollInterval`` seconds (3) and
/// sends every poll (`{"status","expiresAt"}`, repeats included) while
/// `PENDING` or `APPROVED`; the first other status is sent, then
/// `StreamFinished`. It never errors.
///
/// Confined to its socket's event loop; not Sendable.
final class DemoKRPCPasswordResetWatch: DemoKRPCStream {
    let serviceType: String
    private let outlet: DemoKRPCFlowOutlet
    private let service: DemoService
    private let loop: any EventLoop
    private var poll: RepeatedTask?
    private var isStopped = false

    init(call: KRPCCallData, endpoint: DemoKRPCEndpoint) {
        outlet = DemoKRPCFlowOutlet(call: call, endpoint: endpoint)
        serviceType = call.serviceType
        service = endpoint.service.service
        loop = endpoint.channel.eventLoop
    }

    func start(ticketID: String, every interval: TimeInterval) {
        let bound = NIOLoopBound(self, eventLoop: loop)
        poll = loop.scheduleRepeatedTask(initialDelay: .zero, delay: .milliseconds(Int64(interval * 1000))) { _ in
            bound.value.check(ticketID)
        }
    }

    private func check(_ ticketID: String) {
        guard !isStopped else { return }
        let (status, expiresAt) = service.passwordResetStatus(ticketID)
        send(DemoKRPCWrap.event(#"{"status":"# + JSONWriter.quoted(status.rawValue) + #","expiresAt":"# +
            String(DemoKRPCMapping.milliseconds(expiresAt)) + "}"))
        if status != .pending, status != .approved { finish() }
    }

    func stop() {
        guard !isStopped else { return }
        isStopped = true
        poll?.cancel()
        poll = nil
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
