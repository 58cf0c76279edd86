import ListenUpKRPC

/// Where a Flow call's messages go: frames with its ids, on its socket.
/// Each stream the endpoint runs (sync events, registration and policy
/// watches) sends through one.
///
/// Confined to the socket's event loop, as its stream is.
struct DemoKRPCFlowOutlet {
    let call: KRPCCallData
    private(set) weak var endpoint: DemoKRPCEndpoint?

    init(call: KRPCCallData, endpoint: DemoKRPCEndpoint) {
        self.call = call
        self.endpoint = endpoint
    }

    /// A `StreamMessage` carrying `data` (an `RpcEvent`'s JSON).
    func send(_ data: String) {
        endpoint?.send(.streamMessage(KRPCStreamMessage(callId: call.callId, serviceType: call.serviceType, data: data,
                                                        connectionId: call.connectionId, serviceId: call.serviceId)))
    }

    /// `StreamFinished` (a normal end); the endpoint forgets the call.
    func finish() {
        endpoint?.send(.streamFinished(KRPCStreamFinished(callId: call.callId, serviceType: call.serviceType,
                                                          connectionId: call.connectionId, serviceId: call.serviceId)))
        endpoint?.streamFinished(callId: call.callId)
    }

    /// `StreamCancel` with `cause` (the server ends the call abnormally).
    func cancel(cause: KRPCSerializedException) {
        endpoint?.send(.streamCancel(KRPCStreamCancel(callId: call.callId, serviceType: call.serviceType, cause: cause,
                                                       connectionId: call.connectionId, serviceId: call.serviceId)))
    }
}
