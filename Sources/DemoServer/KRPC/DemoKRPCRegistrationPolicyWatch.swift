import Foundation
import JSONToolkit
import ListenUpKRPC
import NIOCore

/// `AuthServicePublic.observeRegistrationPolicy()` (addendum §6.2; upstream
/// `api/AuthService.kt`, `server/.../auth/RegistrationPolicyWatch.kt`).
extension DemoKRPCService {
    /// A Flow (see ``DemoKRPCRegistrationPolicyWatch``), counted in the
    /// address's bucket of 20 watches a minute.
    func observeRegistrationPolicy(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        .registrationPolicyWatch(rateLimited: takeAttempt("registrationPolicy", perMinute: 20, host: call.remoteHost) != nil)
    }
}

extension DemoServer.RegistrationMode {
    /// The mode as today's server names it (`RegistrationPolicy`).
    var policy: RegistrationPolicy {
        switch self {
        case .open: .open
        case .approval: .approvalQueue
        case .closed: .closed
        }
    }
}

/// One `observeRegistrationPolicy` call: the policy at once, as a JSON
/// string (`{"type":"RpcEvent.Data","value":"OPEN"}`), then each change
/// (the same policy is never sent twice in a row). It never completes on
/// its own; past the bucket it is one `RpcEvent.Error(RateLimited)` and
/// the end.
///
/// Confined to its socket's event loop; not Sendable.
final class DemoKRPCRegistrationPolicyWatch: DemoKRPCStream {
    let serviceType: String
    private let outlet: DemoKRPCFlowOutlet
    private let service: DemoService
    private let loop: any EventLoop
    private var token: UUID?
    private var last: DemoServer.RegistrationMode?
    private var isStopped = false

    init(call: KRPCCallData, endpoint: DemoKRPCEndpoint) {
        outlet = DemoKRPCFlowOutlet(call: call, endpoint: endpoint)
        serviceType = call.serviceType
        service = endpoint.service.service
        loop = endpoint.channel.eventLoop
    }

    func start(rateLimited: Bool) {
        if rateLimited {
            send(DemoKRPCWrap.eventError(.rateLimited(retryAfterSeconds: 3)))
            return finish()
        }
        let bound = NIOLoopBound(self, eventLoop: loop)
        let loop = loop
        // Subscribed before the mode is read, so a change in between is not missed.
        token = service.watchRegistrationMode { mode in loop.execute { bound.value.changed(to: mode) } }
        changed(to: service.state.withLock { $0.registrations.mode })
    }

    private func changed(to mode: DemoServer.RegistrationMode) {
        guard !isStopped, mode != last else { return }
        last = mode
        send(DemoKRPCWrap.event(JSONWriter.quoted(mode.policy.rawValue)))
    }

    func stop() {
        guard !isStopped else { return }
        isStopped = true
        if let token { service.unwatchRegistrationMode(token) }
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
