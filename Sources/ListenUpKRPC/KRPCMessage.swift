/// The `[KRPCPluginKey: String]` map every kRPC message may carry.
public typealias KRPCPluginParams = [KRPCPluginKey: String]

/// One kRPC message: exactly one WebSocket text frame (§1.3, §2.1).
///
/// Decode a frame with `init(decoding:)` and write one with
/// ``encoded()``. A `type` this build does not know is ``unknown(type:)``,
/// never an error: the server ignores unknown generic messages and so should
/// the client (§2.6). Values are `Sendable` and carry no I/O.
public indirect enum KRPCMessage: Sendable, Equatable {
    /// `RPCProtocolMessage.Handshake`: first frame each way (§2.3).
    case protocolHandshake(KRPCHandshake)
    /// `RPCProtocolMessage.Failure`: the peer could not handle a protocol or
    /// generic message. Log and ignore (§2.6).
    case protocolFailure(KRPCProtocolFailure)
    /// `RPCGenericMessage`: cancellations and window updates (§2.5, §2.6).
    case generic(KRPCGenericMessage)
    /// `RPCMessage.CallData`: a call, client to server (§2.4.1).
    case callData(KRPCCallData)
    /// `RPCMessage.CallSuccess`: a unary call's `AppResult` (§2.4.2, §2.4.3).
    case callSuccess(KRPCCallSuccess)
    /// `RPCMessage.CallException`: the server could not run the call (§2.4.4).
    case callException(KRPCCallException)
    /// `RPCMessage.StreamMessage`: one Flow element, an `RpcEvent` (§2.5).
    case streamMessage(KRPCStreamMessage)
    /// `RPCMessage.StreamFinished`: the Flow completed (§2.5).
    case streamFinished(KRPCStreamFinished)
    /// `RPCMessage.StreamCancel`: the server-side Flow failed or was cancelled (§2.5).
    case streamCancel(KRPCStreamCancel)
    /// A message type this build does not know; ignore it.
    case unknown(type: String)

    /// The `callId` of call-level messages; nil for protocol, generic and unknown ones.
    public var callId: String? {
        switch self {
        case .callData(let message): return message.callId
        case .callSuccess(let message): return message.callId
        case .callException(let message): return message.callId
        case .streamMessage(let message): return message.callId
        case .streamFinished(let message): return message.callId
        case .streamCancel(let message): return message.callId
        case .protocolHandshake, .protocolFailure, .generic, .unknown: return nil
        }
    }

    /// The `serviceType` of call-level messages; nil otherwise.
    public var serviceType: String? {
        switch self {
        case .callData(let message): return message.serviceType
        case .callSuccess(let message): return message.serviceType
        case .callException(let message): return message.serviceType
        case .streamMessage(let message): return message.serviceType
        case .streamFinished(let message): return message.serviceType
        case .streamCancel(let message): return message.serviceType
        case .protocolHandshake, .protocolFailure, .generic, .unknown: return nil
        }
    }
}

/// `RPCProtocolMessage.Handshake` (§2.1, §2.3).
public struct KRPCHandshake: Sendable, Equatable {
    /// The features the sender supports; unknown values are kept.
    public var supportedPlugins: [KRPCPlugin]
    /// Set by the server's reply (`1`); the client's is omitted.
    public var connectionId: Int64?
    /// The server adds `WINDOW_UPDATE` = `"1000"`; ignore it.
    public var pluginParams: KRPCPluginParams

    /// Creates a handshake message; each parameter sets the property of the same name.
    public init(supportedPlugins: [KRPCPlugin], connectionId: Int64? = nil, pluginParams: KRPCPluginParams = [:]) {
        self.supportedPlugins = supportedPlugins
        self.connectionId = connectionId
        self.pluginParams = pluginParams
    }
}

/// `RPCProtocolMessage.Failure` (§2.1, §2.6).
public struct KRPCProtocolFailure: Sendable, Equatable {
    /// The peer's explanation, e.g. "Expected CLIENT_SERVICE_ID for cancellation of type 'request'".
    public var errorMessage: String
    /// Omitted by the server when null.
    public var connectionId: Int64?
    /// The message the peer could not handle, when it sends it back.
    public var failedMessage: KRPCMessage?
    /// Usually empty.
    public var pluginParams: KRPCPluginParams

    /// Creates a failure message; each parameter sets the property of the same name.
    public init(errorMessage: String, connectionId: Int64? = nil, failedMessage: KRPCMessage? = nil,
                pluginParams: KRPCPluginParams = [:]) {
        self.errorMessage = errorMessage
        self.connectionId = connectionId
        self.failedMessage = failedMessage
        self.pluginParams = pluginParams
    }
}

/// `RPCGenericMessage` (§2.1, §2.6): both keys are always written, even when null.
public struct KRPCGenericMessage: Sendable, Equatable {
    /// `null` on the cancellations the client sends.
    public var connectionId: Int64?
    /// What the message is; see ``cancellation`` and ``isWindowUpdate``.
    public var pluginParams: KRPCPluginParams

    /// Creates a generic message; each parameter sets the property of the same name.
    public init(connectionId: Int64? = nil, pluginParams: KRPCPluginParams) {
        self.connectionId = connectionId
        self.pluginParams = pluginParams
    }

    /// The cancellation this message carries, if it is one
    /// (`GENERIC_MESSAGE_TYPE` = `"cancellation"`).
    public var cancellation: KRPCCancellation? {
        guard pluginParams[.genericMessageType] == "cancellation" else { return nil }
        return KRPCCancellation(type: KRPCCancellationType(rawValue: pluginParams[.cancellationType] ?? ""),
                                callId: pluginParams[.cancellationId],
                                serviceType: pluginParams[.clientServiceId])
    }

    /// Whether this is a BACKPRESSURE window update. Only sent to peers that
    /// advertise BACKPRESSURE; ignore it.
    public var isWindowUpdate: Bool { pluginParams[.windowUpdate] != nil }
}

/// A cancellation read from a ``KRPCGenericMessage``.
public struct KRPCCancellation: Sendable, Equatable {
    /// ENDPOINT (the session is over) or REQUEST (one call), or a name this build does not know.
    public var type: KRPCCancellationType
    /// The cancelled callId (`CANCELLATION_ID`), for REQUEST.
    public var callId: String?
    /// The cancelled call's serviceType (`CLIENT_SERVICE_ID`), for REQUEST.
    public var serviceType: String?

    /// Creates a cancellation; each parameter sets the property of the same name.
    public init(type: KRPCCancellationType, callId: String? = nil, serviceType: String? = nil) {
        self.type = type
        self.callId = callId
        self.serviceType = serviceType
    }
}
