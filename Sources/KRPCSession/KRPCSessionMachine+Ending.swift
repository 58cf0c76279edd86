import ListenUpKRPC
import WebSocketTransport

extension KRPCSessionMachine {
    /// Time passed: fails the handshake or unary calls whose deadline is at
    /// or before `now`. A timed-out call that was sent is also cancelled on
    /// the server (REQUEST cancellation), and its late answer is dropped.
    /// - Parameter now: the current time.
    /// - Returns: the actions, in handle order.
    public mutating func timeAdvanced(to now: Duration) -> [Action] {
        switch state {
        case .closed:
            return []
        case .handshaking(let deadline) where deadline <= now:
            return end(.handshakeTimedOut, sendEndpoint: false, closeSocket: true)
        case .connecting, .handshaking, .open:
            let expired = calls.values.filter { $0.deadline.map { $0 <= now } ?? false }
            return expired.sorted { $0.handle < $1.handle }.flatMap { call in
                abandon(call, failure: .timedOut(method: call.method))
            }
        }
    }

    /// The consumer of a stream stopped listening (it broke out of its loop
    /// or its task was cancelled). A sent stream gets the REQUEST
    /// cancellation of §2.5; a queued one is forgotten. Late frames for it
    /// are dropped.
    /// - Parameter handle: the stream.
    /// - Returns: the cancellation to send, or nothing.
    public mutating func streamDropped(_ handle: KRPCCallHandle) -> [Action] {
        guard case .open = state, let call = calls[handle] else {
            remove(handle)
            return []
        }
        return abandon(call, failure: nil)
    }

    /// The task waiting on a unary call was cancelled: fails the call with
    /// ``KRPCSessionError/cancelled`` and, if it was sent, cancels it on the
    /// server (REQUEST cancellation).
    /// - Parameter handle: the call.
    /// - Returns: the actions, or nothing if the call is already over.
    public mutating func callCancelled(_ handle: KRPCCallHandle) -> [Action] {
        guard let call = calls[handle] else { return [] }
        if case .closed = state { return [] }
        return abandon(call, failure: .cancelled)
    }

    /// The client ends the session: everything pending fails with
    /// ``KRPCSessionError/closed(_:)`` (``KRPCSessionCloseReason/closedByClient``),
    /// the ENDPOINT cancellation is sent if the session is open, then the
    /// socket is closed.
    /// - Returns: the actions, or nothing if already closed.
    public mutating func closeRequested() -> [Action] {
        switch state {
        case .closed: return []
        case .open: return end(.closedByClient, sendEndpoint: true, closeSocket: true)
        case .connecting, .handshaking: return end(.closedByClient, sendEndpoint: false, closeSocket: true)
        }
    }

    /// The WebSocket ended (the server closed it, the network dropped it, or
    /// after our own close): everything pending fails with
    /// ``KRPCSessionError/closed(_:)``.
    /// - Parameter reason: how the transport ended.
    /// - Returns: the actions, or nothing if the session had already ended.
    public mutating func socketClosed(_ reason: WebSocketCloseReason) -> [Action] {
        if case .closed = state { return [] }
        return end(.socketClosed(reason), sendEndpoint: false, closeSocket: false)
    }

    /// Forgets `call`; if it was sent, cancels it on the server and
    /// remembers its callId. `failure` fails a unary call (or a stream) first.
    private mutating func abandon(_ call: Call, failure: KRPCSessionError?) -> [Action] {
        remove(call.handle)
        var actions: [Action] = []
        if let failure {
            actions.append(call.isStream ? .failStream(call.handle, failure) : .failCall(call.handle, failure))
        }
        if let callId = call.callId {
            rememberAbandoned(callId)
            actions.append(.send(KRPCMessage.cancelRequest(callId: callId, serviceType: call.serviceType).encoded()))
        }
        return actions
    }

    /// Closes the session: fails every call in handle order with the error
    /// `reason` implies, then sends ENDPOINT and closes the socket if asked,
    /// then reports the end.
    mutating func end(_ reason: KRPCSessionCloseReason, sendEndpoint: Bool, closeSocket: Bool) -> [Action] {
        let failure = KRPCSessionError(ending: reason)
        var actions: [Action] = calls.keys.sorted().compactMap { handle in
            guard let call = calls[handle] else { return nil }
            return call.isStream ? .failStream(handle, failure) : .failCall(handle, failure)
        }
        calls.removeAll()
        handlesByCallId.removeAll()
        queued.removeAll()
        if sendEndpoint { actions.append(.send(KRPCMessage.cancelEndpoint.encoded())) }
        if closeSocket { actions.append(.closeSocket) }
        state = .closed(reason)
        actions.append(.sessionEnded(reason))
        return actions
    }
}
