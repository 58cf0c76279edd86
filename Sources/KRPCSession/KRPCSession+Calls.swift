import ListenUpKRPC

extension KRPCSession {
    /// Calls a unary method and returns the `data` of its `CallSuccess`:
    /// the `AppResult` JSON (§2.4.2), a domain failure (`{"type":"Failure",…}`)
    /// included. Decode it with `AppResult<T>.decode(from:)`, or use
    /// ``call(_:arguments:returning:timeout:)``.
    ///
    /// Any task. A call made before the handshake completes is sent after it.
    /// Cancelling the task fails the call with `CancellationError` and sends
    /// the REQUEST cancellation.
    /// - Parameters:
    ///   - service: the `serviceType` fq-name (it must be registered on this
    ///     session's mount, or the server never answers, §2.7).
    ///   - method: the Kotlin method name.
    ///   - arguments: the encoded argument object; `"{}"` for none. Send every parameter (§2.4.1).
    ///   - timeout: how long to wait for the answer; nil: the configuration's call timeout.
    /// - Returns: the `CallSuccess` `data`.
    /// - Throws: ``KRPCSessionError``: ``KRPCSessionError/timedOut(method:)``,
    ///   ``KRPCSessionError/callException(className:message:)``,
    ///   ``KRPCSessionError/endpointCancelled``, ``KRPCSessionError/closed(_:)``,
    ///   ``KRPCSessionError/notOpen``, ``KRPCSessionError/handshakeFailed``;
    ///   `CancellationError`.
    public func call(service: String, method: String, arguments: String = "{}",
                     timeout: Duration? = nil) async throws -> String {
        try Task.checkCancellation()
        let (handle, actions) = machine.startCall(service: service, method: method, arguments: arguments,
                                                  kind: .unary(timeout: timeout), now: now())
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                unaryCalls[handle] = continuation
                perform(actions)
            }
        } onCancel: {
            Task { await self.cancelCall(handle) }
        }
    }

    /// Starts a Flow method (§2.5). Each element is one `StreamMessage`
    /// `data`: an `RpcEvent` JSON (`RpcEvent<T>.decode(from:)`). The sequence
    /// ends after `StreamFinished`; a typed server error arrives as an
    /// `RpcEvent.Error` element before it.
    ///
    /// Any task; one consumer. Cancelling the consuming task, or leaving the
    /// loop once nothing else holds the sequence (as with
    /// `for try await e in await session.stream(…)`), unsubscribes: the
    /// session sends the REQUEST cancellation and drops later frames.
    /// Elements are buffered without limit until read. Streams have no timeout.
    /// - Parameters:
    ///   - service: the `serviceType` fq-name.
    ///   - method: the Kotlin method name.
    ///   - arguments: the encoded argument object; `"{}"` for none.
    /// - Returns: the elements. The sequence throws ``KRPCSessionError``:
    ///   ``KRPCSessionError/streamCancelled(message:)`` (`StreamCancel`),
    ///   ``KRPCSessionError/callException(className:message:)``,
    ///   ``KRPCSessionError/endpointCancelled``, ``KRPCSessionError/closed(_:)``,
    ///   ``KRPCSessionError/notOpen``, ``KRPCSessionError/cancelledByServer``.
    public func stream(service: String, method: String, arguments: String = "{}") -> AsyncThrowingStream<String, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: String.self)
        let (handle, actions) = machine.startCall(service: service, method: method, arguments: arguments,
                                                  kind: .stream, now: now())
        streams[handle] = continuation
        continuation.onTermination = { [weak self] termination in
            guard case .cancelled = termination else { return }
            Task { await self?.streamDropped(handle) }
        }
        perform(actions)
        return stream
    }

    /// Ends the session cleanly: pending calls and streams fail with
    /// ``KRPCSessionError/closed(_:)`` (``KRPCSessionCloseReason/closedByClient``),
    /// the ENDPOINT cancellation is sent (§2.6), then the WebSocket's closing
    /// handshake runs. Returns once the socket is closed. Does nothing more
    /// if the session has already ended.
    ///
    /// Any task.
    public func close() async {
        perform(machine.closeRequested())
        await writer?.value
    }

    /// Waits until the session ends, however it ends, and says how. Returns
    /// at once if it already has. A caller that did not close the session
    /// itself reconnects (with `ReconnectBackoff`) and resubscribes.
    ///
    /// Any task, any number of waiters.
    /// - Returns: the reason, also in ``closeReason``.
    /// - Throws: `CancellationError` when the waiting task is cancelled.
    public func waitUntilClosed() async throws -> KRPCSessionCloseReason {
        if let closeReason { return closeReason }
        let id = nextWaiterID
        nextWaiterID += 1
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                endWaiters[id] = continuation
            }
        } onCancel: {
            Task { await self.cancelEndWaiter(id) }
        }
    }
}
