import ListenUpKRPC
import Logging
import WebSocketTransport

extension KRPCSession {
    /// A text frame from the reader task.
    func received(_ text: String) {
        frameLog.record(.incoming, text)
        perform(machine.receive(text: text))
    }

    /// A tick from the timer task; false once the session has ended.
    func tick() -> Bool {
        perform(machine.timeAdvanced(to: now()))
        return closeReason == nil
    }

    /// The reader task saw the socket end.
    func socketEnded(_ reason: WebSocketCloseReason) {
        perform(machine.socketClosed(reason))
    }

    /// A stream's consumer went away.
    func streamDropped(_ handle: KRPCCallHandle) {
        streams[handle] = nil
        perform(machine.streamDropped(handle))
    }

    /// A unary call's task was cancelled.
    func cancelCall(_ handle: KRPCCallHandle) {
        perform(machine.callCancelled(handle))
    }

    /// A ``waitUntilClosed()`` task was cancelled.
    func cancelEndWaiter(_ id: Int) {
        endWaiters.removeValue(forKey: id)?.resume(throwing: CancellationError())
    }

    /// Carries out the machine's actions, in order.
    func perform(_ actions: [KRPCSessionMachine.Action]) {
        for action in actions {
            switch action {
            case .send(let text):
                frameLog.record(.outgoing, text)
                outbox.yield(.text(text))
            case .completeHandshake(let connectionId):
                self.connectionId = connectionId
                logger.debug("kRPC session open", metadata: ["connectionId": "\(connectionId.map(String.init) ?? "none")"])
                for waiter in handshakeWaiters { waiter.resume() }
                handshakeWaiters.removeAll()
            case .resumeCall(let handle, let data):
                unaryCalls.removeValue(forKey: handle)?.resume(returning: data)
            case .failCall(let handle, let error):
                unaryCalls.removeValue(forKey: handle)?.resume(throwing: error == .cancelled ? CancellationError() : error)
            case .yieldStream(let handle, let data):
                streams[handle]?.yield(data)
            case .finishStream(let handle):
                streams.removeValue(forKey: handle)?.finish()
            case .failStream(let handle, let error):
                streams.removeValue(forKey: handle)?.finish(throwing: error)
            case .log(let diagnostic):
                log(diagnostic)
            case .closeSocket:
                outbox.yield(.close)
            case .sessionEnded(let reason):
                ended(reason)
            }
        }
    }

    private func ended(_ reason: KRPCSessionCloseReason) {
        closeReason = reason
        logger.debug("kRPC session ended", metadata: ["reason": "\(reason)"])
        outbox.finish()
        ticker?.cancel()
        let error = KRPCSessionError(ending: reason)
        for waiter in handshakeWaiters { waiter.resume(throwing: error) }
        handshakeWaiters.removeAll()
        for waiter in endWaiters.values { waiter.resume(returning: reason) }
        endWaiters.removeAll()
    }

    private func log(_ diagnostic: KRPCSessionMachine.Diagnostic) {
        switch diagnostic {
        case .protocolFailure(let message):
            logger.warning("The server could not handle a kRPC message", metadata: ["error": "\(message)"])
        case .unknownMessage(let type):
            logger.notice("Ignoring a kRPC message of an unknown type", metadata: ["type": "\(type)"])
        case .undecodableFrame(let error):
            logger.notice("Ignoring a frame that is not a kRPC message", metadata: ["error": "\(error)"])
        case .unexpectedMessage(let kind, let callId):
            logger.notice("Ignoring an unexpected kRPC message",
                          metadata: ["kind": "\(kind)", "callId": "\(callId ?? "none")"])
        case .unknownCall(let callId):
            logger.notice("Ignoring a kRPC frame for an unknown call", metadata: ["callId": "\(callId)"])
        case .lateFrame(let callId):
            logger.debug("Dropping a late kRPC frame for a call given up on", metadata: ["callId": "\(callId)"])
        case .ignoredGeneric(let detail):
            logger.debug("Ignoring a kRPC generic message", metadata: ["detail": "\(detail)"])
        }
    }
}
