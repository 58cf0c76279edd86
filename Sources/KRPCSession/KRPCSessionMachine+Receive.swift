import ListenUpKRPC

extension KRPCSessionMachine {
    /// A text frame arrived: decodes it and routes it (see ``receive(_:)``),
    /// or logs it if it is not a kRPC message.
    /// - Parameter text: the frame's text.
    /// - Returns: the actions.
    public mutating func receive(text: String) -> [Action] {
        do {
            return receive(try KRPCMessage(decoding: text))
        } catch {
            return receiveUndecodable(error)
        }
    }

    /// A text frame that is not a kRPC message arrived. The session goes on
    /// (the server never sends one; a proxy or a newer peer might).
    /// - Parameter error: why it did not decode.
    /// - Returns: one log action, or nothing once closed.
    public mutating func receiveUndecodable(_ error: KRPCDecodingError) -> [Action] {
        if case .closed = state { return [] }
        return [.log(.undecodableFrame(error))]
    }

    /// A decoded kRPC message arrived: routes it by `type`, then by `callId` (§2.8).
    /// - Parameter message: the message.
    /// - Returns: the actions; nothing once closed.
    public mutating func receive(_ message: KRPCMessage) -> [Action] {
        switch state {
        case .closed:
            return []
        case .connecting, .handshaking:
            switch message {
            case .protocolHandshake(let handshake): return completeHandshake(handshake)
            case .protocolFailure, .generic, .unknown: return receiveSessionLevel(message)
            default: return [.log(.unexpectedMessage(kind: message.kindName, callId: message.callId))]
            }
        case .open:
            return receiveSessionLevel(message)
        }
    }

    private mutating func receiveSessionLevel(_ message: KRPCMessage) -> [Action] {
        switch message {
        case .protocolHandshake, .callData:
            return [.log(.unexpectedMessage(kind: message.kindName, callId: message.callId))]
        case .protocolFailure(let failure):
            return [.log(.protocolFailure(errorMessage: failure.errorMessage))]
        case .unknown(let type):
            return [.log(.unknownMessage(type: type))]
        case .generic(let generic):
            return receiveGeneric(generic)
        case .callSuccess(let success):
            return route(success.callId, kind: message.kindName) { call in
                call.isStream ? nil : .resumeCall(call.handle, data: success.data)
            }
        case .callException(let exception):
            let error = KRPCSessionError.callException(className: exception.cause.className,
                                                       message: exception.cause.message)
            return route(exception.callId, kind: message.kindName) { call in
                call.isStream ? .failStream(call.handle, error) : .failCall(call.handle, error)
            }
        case .streamMessage(let element):
            guard let call = inFlight(element.callId) else { return unmatched(element.callId) }
            guard call.isStream else { return [.log(.unexpectedMessage(kind: message.kindName, callId: element.callId))] }
            return [.yieldStream(call.handle, data: element.data)]
        case .streamFinished(let finished):
            return route(finished.callId, kind: message.kindName) { call in
                call.isStream ? .finishStream(call.handle) : nil
            }
        case .streamCancel(let cancel):
            let error = KRPCSessionError.streamCancelled(message: cancel.cause.message)
            return route(cancel.callId, kind: message.kindName) { call in
                call.isStream ? .failStream(call.handle, error) : .failCall(call.handle, error)
            }
        }
    }

    private mutating func receiveGeneric(_ generic: KRPCGenericMessage) -> [Action] {
        if generic.isWindowUpdate { return [] }
        guard let cancellation = generic.cancellation else {
            let keys = generic.pluginParams.keys.sorted().map(\.wireKey).joined(separator: ",")
            return [.log(.ignoredGeneric(detail: "pluginParams keys [\(keys)]"))]
        }
        switch cancellation.type {
        case .endpoint:
            return end(.endpointCancelled, sendEndpoint: false, closeSocket: true)
        case .request:
            guard let callId = cancellation.callId else {
                return [.log(.ignoredGeneric(detail: "REQUEST cancellation without a callId"))]
            }
            return route(callId, kind: "REQUEST cancellation") { call in
                call.isStream ? .failStream(call.handle, .cancelledByServer) : .failCall(call.handle, .cancelledByServer)
            }
        default:
            return [.log(.ignoredGeneric(detail: "\(cancellation.type) cancellation"))]
        }
    }

    /// The in-flight call `callId` names, if any.
    private func inFlight(_ callId: String) -> Call? {
        handlesByCallId[callId].flatMap { calls[$0] }
    }

    /// Ends the call `callId` names with the action `outcome` gives, or logs
    /// the frame when it has no call or `outcome` finds it unexpected (nil).
    private mutating func route(_ callId: String, kind: String, outcome: (Call) -> Action?) -> [Action] {
        guard let call = inFlight(callId) else { return unmatched(callId) }
        guard let action = outcome(call) else { return [.log(.unexpectedMessage(kind: kind, callId: callId))] }
        remove(call.handle)
        return [action]
    }

    /// The log action for a frame whose callId is not in flight.
    private func unmatched(_ callId: String) -> [Action] {
        [.log(abandonedSet.contains(callId) ? .lateFrame(callId: callId) : .unknownCall(callId: callId))]
    }

    /// Forgets a call (queued or in flight).
    mutating func remove(_ handle: KRPCCallHandle) {
        guard let call = calls.removeValue(forKey: handle) else { return }
        if let callId = call.callId { handlesByCallId[callId] = nil }
        queued.removeAll { $0 == handle }
    }

    /// Remembers a callId given up on, so its late frames are dropped quietly.
    mutating func rememberAbandoned(_ callId: String) {
        guard abandonedSet.insert(callId).inserted else { return }
        abandoned.append(callId)
        if abandoned.count > Self.abandonedMemory {
            abandonedSet.remove(abandoned.removeFirst())
        }
    }
}
