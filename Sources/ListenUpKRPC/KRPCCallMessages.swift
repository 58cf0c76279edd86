/// `RPCMessage.CallData` (§2.1, §2.4.1): a call. Build it with
/// ``KRPCMessage/call(callId:serviceType:method:arguments:connectionId:)``.
public struct KRPCCallData: Sendable, Equatable {
    /// Unique within the connection, e.g. `"1:login:2"`; the server treats it as opaque.
    public var callId: String
    /// The service's Kotlin fq-name (``KRPCServiceType``).
    public var serviceType: String
    /// The Kotlin function name.
    public var method: String
    /// Always `"Method"`; the key is required.
    public var callType: String
    /// The arguments: a JSON **string** holding an object keyed by parameter names (`"{}"` for none).
    public var data: String
    /// The handshake's `connectionId`, echoed by the server; omitted when nil.
    public var connectionId: Int64?
    /// Echoed by the server; omitted when nil.
    public var serviceId: Int64?
    /// `{"-32763":""}` on every call the Swift client makes.
    public var pluginParams: KRPCPluginParams

    /// Creates a call; each parameter sets the property of the same name.
    public init(callId: String, serviceType: String, method: String, callType: String = "Method", data: String,
                connectionId: Int64? = nil, serviceId: Int64? = nil, pluginParams: KRPCPluginParams = [:]) {
        self.callId = callId
        self.serviceType = serviceType
        self.method = method
        self.callType = callType
        self.data = data
        self.connectionId = connectionId
        self.serviceId = serviceId
        self.pluginParams = pluginParams
    }
}

/// `RPCMessage.CallSuccess` (§2.4.2): `data` is the encoded `AppResult`; decode
/// it with ``AppResult/decode(from:)``.
public struct KRPCCallSuccess: Sendable, Equatable {
    /// The call answered.
    public var callId: String
    /// The call's service.
    public var serviceType: String
    /// The result as a JSON string (an `AppResult` for every ListenUp method).
    public var data: String
    /// Echo of the call's; absent when the call had none.
    public var connectionId: Int64?
    /// Echo of the call's; absent when the call had none.
    public var serviceId: Int64?
    /// Usually empty.
    public var pluginParams: KRPCPluginParams

    /// Creates a success; each parameter sets the property of the same name.
    public init(callId: String, serviceType: String, data: String, connectionId: Int64? = nil, serviceId: Int64? = nil,
                pluginParams: KRPCPluginParams = [:]) {
        self.callId = callId
        self.serviceType = serviceType
        self.data = data
        self.connectionId = connectionId
        self.serviceId = serviceId
        self.pluginParams = pluginParams
    }
}

/// `RPCMessage.CallException` (§2.4.4): the call could not run (unknown
/// method, arguments that do not decode, an `init{require}` violation, a
/// missing Flow marker). Not retryable: a bug or a contract mismatch.
public struct KRPCCallException: Sendable, Equatable {
    /// The failed call.
    public var callId: String
    /// The failed call's service.
    public var serviceType: String
    /// What the server threw.
    public var cause: KRPCSerializedException
    /// Echo of the call's, when present.
    public var connectionId: Int64?
    /// Absent when the failure came from argument decoding (§6.2).
    public var serviceId: Int64?
    /// Usually empty.
    public var pluginParams: KRPCPluginParams

    /// Creates an exception message; each parameter sets the property of the same name.
    public init(callId: String, serviceType: String, cause: KRPCSerializedException, connectionId: Int64? = nil,
                serviceId: Int64? = nil, pluginParams: KRPCPluginParams = [:]) {
        self.callId = callId
        self.serviceType = serviceType
        self.cause = cause
        self.connectionId = connectionId
        self.serviceId = serviceId
        self.pluginParams = pluginParams
    }
}

/// `RPCMessage.StreamMessage` (§2.5): one element of a Flow call, an encoded
/// `RpcEvent`; decode `data` with ``RpcEvent/decode(from:)``.
public struct KRPCStreamMessage: Sendable, Equatable {
    /// The Flow call.
    public var callId: String
    /// The Flow call's service.
    public var serviceType: String
    /// Always `"1"` from this server.
    public var flowId: String
    /// The element as a JSON string.
    public var data: String
    /// Echo of the call's, when present.
    public var connectionId: Int64?
    /// Echo of the call's, when present.
    public var serviceId: Int64?
    /// Usually empty.
    public var pluginParams: KRPCPluginParams

    /// Creates a stream element; each parameter sets the property of the same name.
    public init(callId: String, serviceType: String, flowId: String = "1", data: String, connectionId: Int64? = nil,
                serviceId: Int64? = nil, pluginParams: KRPCPluginParams = [:]) {
        self.callId = callId
        self.serviceType = serviceType
        self.flowId = flowId
        self.data = data
        self.connectionId = connectionId
        self.serviceId = serviceId
        self.pluginParams = pluginParams
    }
}

/// `RPCMessage.StreamFinished` (§2.5): the Flow completed normally (a typed
/// error arrives before it, as an `RpcEvent.Error` element).
public struct KRPCStreamFinished: Sendable, Equatable {
    /// The Flow call.
    public var callId: String
    /// The Flow call's service.
    public var serviceType: String
    /// Always `"1"` from this server.
    public var flowId: String
    /// Echo of the call's, when present.
    public var connectionId: Int64?
    /// Echo of the call's, when present.
    public var serviceId: Int64?
    /// Usually empty.
    public var pluginParams: KRPCPluginParams

    /// Creates a completion; each parameter sets the property of the same name.
    public init(callId: String, serviceType: String, flowId: String = "1", connectionId: Int64? = nil,
                serviceId: Int64? = nil, pluginParams: KRPCPluginParams = [:]) {
        self.callId = callId
        self.serviceType = serviceType
        self.flowId = flowId
        self.connectionId = connectionId
        self.serviceId = serviceId
        self.pluginParams = pluginParams
    }
}

/// `RPCMessage.StreamCancel` (§2.5): the server-side Flow failed or was
/// cancelled (e.g. shutdown). The client never sends it to unsubscribe: it
/// sends ``KRPCMessage/cancelRequest(callId:serviceType:)``.
public struct KRPCStreamCancel: Sendable, Equatable {
    /// The Flow call.
    public var callId: String
    /// The Flow call's service.
    public var serviceType: String
    /// Always `"1"` from this server.
    public var flowId: String
    /// Why; `className` and `message` vary by platform.
    public var cause: KRPCSerializedException
    /// Echo of the call's, when present.
    public var connectionId: Int64?
    /// Echo of the call's, when present.
    public var serviceId: Int64?
    /// Usually empty.
    public var pluginParams: KRPCPluginParams

    /// Creates a stream cancel; each parameter sets the property of the same name.
    public init(callId: String, serviceType: String, flowId: String = "1", cause: KRPCSerializedException,
                connectionId: Int64? = nil, serviceId: Int64? = nil, pluginParams: KRPCPluginParams = [:]) {
        self.callId = callId
        self.serviceType = serviceType
        self.flowId = flowId
        self.cause = cause
        self.connectionId = connectionId
        self.serviceId = serviceId
        self.pluginParams = pluginParams
    }
}
