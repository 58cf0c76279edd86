import JSONToolkit

extension KRPCMessage {
    /// The message as one WebSocket text frame, written the way kotlinx
    /// writes it (§1.4): compact, `type` first, then the fields in
    /// declaration order, `data` as a JSON string, Kotlin defaults omitted
    /// (nil `connectionId`/`serviceId`, empty `pluginParams`) except where a
    /// key is required: `callType`, `RPCGenericMessage`'s two keys, and
    /// SerializedException's `cause`. `pluginParams` keys are quoted and
    /// written in index order.
    ///
    /// ``unknown(type:)`` writes `{"type":"…"}`.
    /// - Returns: the frame's text.
    public func encoded() -> String {
        var writer = JSONWriter.object()
        switch self {
        case .protocolHandshake(let message):
            writer.string("type", KRPCMessageType.handshake)
            writer.raw("supportedPlugins", JSONWriter.array(message.supportedPlugins.map { String($0.rawValue) }))
            writer.integerIfPresent("connectionId", message.connectionId)
            writer.pluginParamsIfAny(message.pluginParams)
        case .protocolFailure(let message):
            writer.string("type", KRPCMessageType.failure)
            writer.string("errorMessage", message.errorMessage)
            writer.integerIfPresent("connectionId", message.connectionId)
            if let failed = message.failedMessage { writer.raw("failedMessage", failed.encoded()) }
            writer.pluginParamsIfAny(message.pluginParams)
        case .generic(let message):
            writer.string("type", KRPCMessageType.generic)
            writer.raw("connectionId", message.connectionId.map { String($0) } ?? "null")
            writer.raw("pluginParams", JSONWriter.pluginParams(message.pluginParams))
        case .callData(let message):
            writer.string("type", KRPCMessageType.callData)
            writer.string("callId", message.callId)
            writer.string("serviceType", message.serviceType)
            writer.string("method", message.method)
            writer.string("callType", message.callType)
            writer.string("data", message.data)
            writer.routing(message.connectionId, message.serviceId, message.pluginParams)
        case .callSuccess(let message):
            writer.string("type", KRPCMessageType.callSuccess)
            writer.string("callId", message.callId)
            writer.string("serviceType", message.serviceType)
            writer.string("data", message.data)
            writer.routing(message.connectionId, message.serviceId, message.pluginParams)
        case .callException(let message):
            writer.string("type", KRPCMessageType.callException)
            writer.string("callId", message.callId)
            writer.string("serviceType", message.serviceType)
            writer.raw("cause", message.cause.jsonText)
            writer.routing(message.connectionId, message.serviceId, message.pluginParams)
        case .streamMessage(let message):
            writer.string("type", KRPCMessageType.streamMessage)
            writer.string("callId", message.callId)
            writer.string("serviceType", message.serviceType)
            writer.string("flowId", message.flowId)
            writer.string("data", message.data)
            writer.routing(message.connectionId, message.serviceId, message.pluginParams)
        case .streamFinished(let message):
            writer.string("type", KRPCMessageType.streamFinished)
            writer.string("callId", message.callId)
            writer.string("serviceType", message.serviceType)
            writer.string("flowId", message.flowId)
            writer.routing(message.connectionId, message.serviceId, message.pluginParams)
        case .streamCancel(let message):
            writer.string("type", KRPCMessageType.streamCancel)
            writer.string("callId", message.callId)
            writer.string("serviceType", message.serviceType)
            writer.string("flowId", message.flowId)
            writer.raw("cause", message.cause.jsonText)
            writer.routing(message.connectionId, message.serviceId, message.pluginParams)
        case .unknown(let type):
            writer.string("type", type)
        }
        return writer.finished()
    }
}

extension JSONWriter {
    /// `connectionId`, `serviceId` and `pluginParams`, each only when it
    /// differs from its default.
    mutating func routing(_ connectionId: Int64?, _ serviceId: Int64?, _ params: KRPCPluginParams) {
        integerIfPresent("connectionId", connectionId)
        integerIfPresent("serviceId", serviceId)
        pluginParamsIfAny(params)
    }

    /// `"pluginParams":{…}` unless `params` is empty.
    mutating func pluginParamsIfAny(_ params: KRPCPluginParams) {
        if !params.isEmpty { raw("pluginParams", Self.pluginParams(params)) }
    }

    /// `{"-32767":"…",…}`: quoted keys in index order.
    static func pluginParams(_ params: KRPCPluginParams) -> String {
        var writer = JSONWriter.object()
        for key in params.keys.sorted() {
            writer.string(key.wireKey, params[key])
        }
        return writer.finished()
    }
}
