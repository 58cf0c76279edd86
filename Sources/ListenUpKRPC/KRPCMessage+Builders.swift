extension KRPCMessage {
    /// The handshake the Swift client sends first on every socket (§2.3):
    /// every plugin except BACKPRESSURE, no `connectionId`, no `pluginParams`.
    ///
    /// `{"type":"org.jetbrains.krpc.internal.transport.RPCProtocolMessage.Handshake","supportedPlugins":[-32767,-32766,-32765,-32764]}`
    public static let handshake = KRPCMessage.protocolHandshake(KRPCHandshake(
        supportedPlugins: [.handshake, .cancellation, .nonSuspendingServerFlows, .noAckCancellation]))

    /// A call (§2.4.1, §2.5): `callType` `"Method"` and `pluginParams`
    /// `{"-32763":""}`, which unary calls tolerate and Flow calls need, so
    /// one builder serves both.
    /// - Parameters:
    ///   - callId: unique within the connection, e.g. `"1:login:2"`.
    ///   - serviceType: the service's fq-name, e.g. ``KRPCServiceType/authServicePublic``'s raw value.
    ///   - method: the Kotlin function name.
    ///   - arguments: the encoded argument object, e.g. from ``KRPCJSON/encode(_:)``
    ///     of a ``LoginArguments``; `"{}"` for none. Send every parameter (§2.4.1).
    ///   - connectionId: the server handshake's `connectionId`; omitted when nil.
    /// - Returns: the `CallData` message.
    public static func call(callId: String, serviceType: String, method: String, arguments: String = "{}",
                            connectionId: Int64? = nil) -> KRPCMessage {
        .callData(KRPCCallData(callId: callId, serviceType: serviceType, method: method, data: arguments,
                               connectionId: connectionId, pluginParams: [.nonSuspendingServerFlowMarker: ""]))
    }

    /// A call of a known ``KRPCMethod``; see
    /// ``call(callId:serviceType:method:arguments:connectionId:)``.
    /// - Parameters:
    ///   - callId: unique within the connection.
    ///   - method: the method and its service.
    ///   - arguments: the encoded argument object (`"{}"` for none).
    ///   - connectionId: the server handshake's `connectionId`; omitted when nil.
    /// - Returns: the `CallData` message.
    public static func call(callId: String, method: KRPCMethod, arguments: String = "{}",
                            connectionId: Int64? = nil) -> KRPCMessage {
        call(callId: callId, serviceType: method.service.rawValue, method: method.name, arguments: arguments,
             connectionId: connectionId)
    }

    /// Unsubscribes from a Flow call (§2.5): a generic REQUEST cancellation.
    /// The server then sends nothing more for `callId`; drop late frames.
    ///
    /// `{"type":"…RPCGenericMessage","connectionId":null,"pluginParams":{"-32767":"cancellation","-32766":"REQUEST","-32765":"<callId>","-32764":"<serviceType>"}}`
    /// - Parameters:
    ///   - callId: the Flow call's id.
    ///   - serviceType: the Flow call's service fq-name.
    /// - Returns: the generic message.
    public static func cancelRequest(callId: String, serviceType: String) -> KRPCMessage {
        .generic(KRPCGenericMessage(connectionId: nil, pluginParams: [
            .genericMessageType: "cancellation",
            .cancellationType: KRPCCancellationType.request.rawValue,
            .cancellationId: callId,
            .clientServiceId: serviceType,
        ]))
    }

    /// Ends the kRPC session (§2.6); the server then closes the socket.
    ///
    /// `{"type":"…RPCGenericMessage","connectionId":null,"pluginParams":{"-32767":"cancellation","-32766":"ENDPOINT"}}`
    public static let cancelEndpoint = KRPCMessage.generic(KRPCGenericMessage(connectionId: nil, pluginParams: [
        .genericMessageType: "cancellation",
        .cancellationType: KRPCCancellationType.endpoint.rawValue,
    ]))
}
