import Foundation
import ListenUpKRPC
import NIOCore

/// One `SyncStreamService.observeEvents(sinceRevision)` call (§2.5, §3.4):
/// `StreamMessage`s with flowId `"1"`, each an `RpcEvent<SyncFrame>`.
///
/// If `sinceRevision` is below the oldest retained revision, the stream is
/// one `CursorStale` frame and `StreamFinished`. Otherwise: the hello
/// heartbeat, the replay of retained writes after `sinceRevision` (all of
/// them for null) the caller may see, then live writes and a heartbeat
/// every ``DemoServer/KRPCOptions/heartbeatInterval``. Every
/// ``DemoServer/KRPCOptions/sessionCheckInterval`` the session must still
/// be live, else `RpcEvent.Error(AuthError.SessionExpired)` and
/// `StreamFinished`. A REQUEST cancellation stops it silently.
///
/// Confined to its socket's event loop; not Sendable.
final class DemoKRPCEventStream {
    let serviceType: String
    private let outlet: DemoKRPCFlowOutlet
    private let principal: DemoKRPCPrincipal
    private let service: DemoKRPCService
    private let loop: any EventLoop
    private var observer: UUID?
    private var heartbeat: Scheduled<Void>?
    private var livenessCheck: Scheduled<Void>?
    private var lastSent: Int64 = 0
    private var isStopped = false

    init(call: KRPCCallData, principal: DemoKRPCPrincipal, endpoint: DemoKRPCEndpoint) {
        outlet = DemoKRPCFlowOutlet(call: call, endpoint: endpoint)
        serviceType = call.serviceType
        self.principal = principal
        service = endpoint.service
        loop = endpoint.channel.eventLoop
    }

    private enum Opening {
        case stale(floor: Int64)
        case open(replay: [DemoSyncChange])
    }

    /// Sends what comes first and subscribes to later writes, atomically
    /// with the snapshot of the retained ones (nothing is missed or doubled).
    func start(since: Int64?) {
        let token = UUID()
        let bound = NIOLoopBound(self, eventLoop: loop)
        let loop = loop
        let userID = principal.userID
        let opening = service.service.state.withLock { state -> Opening in
            if let since, let oldest = state.ledger.oldestRetained, since < oldest { return .stale(floor: oldest) }
            let replay = state.ledger.retained.filter { $0.revision > (since ?? 0) && $0.isVisible(to: userID) }
            state.ledger.addObserver(token) { change in loop.execute { bound.value.deliver(change) } }
            return .open(replay: replay)
        }
        switch opening {
        case .stale(let floor):
            send(frame: DemoKRPCWrap.cursorStaleFrame(lastKnownRevision: floor))
            finish()
        case .open(let replay):
            observer = token
            service.addControlStream(token, userID: userID) { frame in loop.execute { bound.value.deliverControl(frame) } }
            lastSent = since ?? 0
            send(frame: DemoKRPCWrap.heartbeatFrame)
            for change in replay { deliver(change) }
            scheduleHeartbeat()
            scheduleLivenessCheck()
        }
    }

    /// A write (replayed or live): sent if the caller may see it and it is newer than the last sent.
    func deliver(_ change: DemoSyncChange) {
        guard !isStopped, change.revision > lastSent, change.isVisible(to: principal.userID) else { return }
        lastSent = change.revision
        send(frame: DemoKRPCMapping.frameJSON(change, libraryID: service.libraryID))
    }

    /// A control frame for this stream's user (`SyncControl.PreferencesChanged`).
    func deliverControl(_ frame: String) {
        guard !isStopped else { return }
        send(frame: frame)
    }

    /// Stops without sending anything more (a REQUEST cancellation, a closed socket).
    func stop() {
        guard !isStopped else { return }
        isStopped = true
        heartbeat?.cancel()
        livenessCheck?.cancel()
        if let observer {
            service.service.state.withLock { $0.ledger.removeObserver(observer) }
            service.removeControlStream(observer)
        }
        observer = nil
    }

    /// Server shutdown: `StreamCancel` with a cancellation cause, then stop.
    func cancelForShutdown() {
        guard !isStopped else { return }
        let cause = KRPCSerializedException(toStringMessage: "kotlinx.coroutines.JobCancellationException: Server is shutting down",
                                            message: "Server is shutting down",
                                            className: "kotlinx.coroutines.JobCancellationException")
        outlet.cancel(cause: cause)
        stop()
    }

    private func send(frame: String) {
        send(data: DemoKRPCWrap.event(frame))
    }

    private func send(data: String) {
        outlet.send(data)
    }

    /// Completes normally: `StreamFinished`, then forgets the stream.
    private func finish() {
        stop()
        outlet.finish()
    }

    private func scheduleHeartbeat() {
        heartbeat = loop.assumeIsolated().scheduleTask(in: Self.amount(service.options.heartbeatInterval)) { [self] in
            guard !isStopped else { return }
            send(frame: DemoKRPCWrap.heartbeatFrame)
            scheduleHeartbeat()
        }
    }

    private func scheduleLivenessCheck() {
        livenessCheck = loop.assumeIsolated().scheduleTask(in: Self.amount(service.options.sessionCheckInterval)) { [self] in
            guard !isStopped else { return }
            if service.tokens.isLive(sessionID: principal.sessionID) {
                scheduleLivenessCheck()
            } else {
                send(data: DemoKRPCWrap.eventError(.sessionExpired))
                finish()
            }
        }
    }

    private static func amount(_ seconds: TimeInterval) -> TimeAmount {
        .nanoseconds(Int64(max(0.001, seconds) * 1e9))
    }
}
