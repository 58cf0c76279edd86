import ListenUpKRPC

extension KRPCSessionError {
    /// Whether this failure proves the call's `CallData` never left this
    /// client, so the server cannot have run it. Decided from what
    /// ``KRPCSessionMachine`` does before each error:
    ///
    /// | Error | Sent? | Why |
    /// |---|---|---|
    /// | ``transport(_:)``, ``unauthorized`` | no | the socket never opened (`connect` throws them, before any call) |
    /// | ``handshakeFailed`` | no | calls wait in the queue until the server's Handshake; a failed handshake fails them there |
    /// | ``notOpen`` | no | the session had ended when the call started: nothing was sent |
    /// | ``invalidArguments(_:)`` | no | the arguments did not encode |
    /// | ``timedOut(method:)`` | yes | the call was sent (or queued) and got no answer: it may have run |
    /// | ``closed(_:)``, ``endpointCancelled`` | maybe | the session ended with the call pending; on an open session it had been handed to the writer |
    /// | ``cancelledByServer``, ``callException(className:message:)`` | yes | the server had it |
    /// | ``streamCancelled(message:)``, ``undecodableResult(_:)`` | yes | the server answered |
    /// | ``cancelled`` | maybe | our task gave up while it was pending |
    public var provesCallNeverSent: Bool {
        switch self {
        case .transport, .unauthorized, .handshakeFailed, .notOpen, .invalidArguments:
            true
        case .timedOut, .closed, .endpointCancelled, .cancelledByServer, .callException, .streamCancelled,
             .undecodableResult, .cancelled:
            false
        }
    }
}

extension KRPCDelivery {
    /// Whether a call that failed with `error` on its first attempt may be
    /// sent once more, on a new session.
    ///
    /// ``KRPCDelivery/retryOnce``: whenever a reconnect may mend the failure
    /// (``KRPCSessionError/isRetryableAfterReconnect``), even when the
    /// server may have run the first send. ``KRPCDelivery/atMostOnce``: only
    /// when, besides, the failure proves the call never left
    /// (``KRPCSessionError/provesCallNeverSent``); a timeout or a socket that
    /// ended under the call is the caller's error.
    ///
    /// Pure; any thread.
    /// - Parameter error: how the first attempt failed.
    /// - Returns: true to send the call again on a new session.
    public func allowsResend(after error: KRPCSessionError) -> Bool {
        switch self {
        case .retryOnce: error.isRetryableAfterReconnect
        case .atMostOnce: error.isRetryableAfterReconnect && error.provesCallNeverSent
        }
    }
}
