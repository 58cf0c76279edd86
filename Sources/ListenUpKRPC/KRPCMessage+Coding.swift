import Foundation
import JSONToolkit

/// The `type` serial names of §2.1. They are kRPC's `@SerialName`s, not its
/// Kotlin class names.
public enum KRPCMessageType {
    /// `RPCProtocolMessage.Handshake`.
    public static let handshake = "org.jetbrains.krpc.internal.transport.RPCProtocolMessage.Handshake"
    /// `RPCProtocolMessage.Failure`.
    public static let failure = "org.jetbrains.krpc.internal.transport.RPCProtocolMessage.Failure"
    /// `RPCGenericMessage`.
    public static let generic = "org.jetbrains.krpc.internal.transport.RPCGenericMessage"
    /// `RPCMessage.CallData`.
    public static let callData = "org.jetbrains.krpc.RPCMessage.CallData"
    /// `RPCMessage.CallSuccess`.
    public static let callSuccess = "org.jetbrains.krpc.RPCMessage.CallSuccess"
    /// `RPCMessage.CallException`.
    public static let callException = "org.jetbrains.krpc.RPCMessage.CallException"
    /// `RPCMessage.StreamMessage`.
    public static let streamMessage = "org.jetbrains.krpc.RPCMessage.StreamMessage"
    /// `RPCMessage.StreamFinished`.
    public static let streamFinished = "org.jetbrains.krpc.RPCMessage.StreamFinished"
    /// `RPCMessage.StreamCancel`.
    public static let streamCancel = "org.jetbrains.krpc.RPCMessage.StreamCancel"
}

extension KRPCMessage {
    /// Decodes one WebSocket text frame.
    ///
    /// Omitted `connectionId`, `serviceId` and `pluginParams` take their
    /// defaults (nil, nil, empty; §2.9(b)); unknown keys are ignored; bare
    /// numeric `pluginParams` keys are accepted (§2.9(c)); unknown plugins and
    /// plugin keys are kept; an unknown `type` gives ``unknown(type:)``.
    /// - Parameter text: the frame's text.
    /// - Throws: ``KRPCDecodingError`` when the text is not JSON, not an
    ///   object, has no `type`, or lacks a required field of a known type.
    public init(decoding text: String) throws(KRPCDecodingError) {
        // A CallSuccess (a sync page is one of several megabytes) is read by
        // hand: the same message, or a mismatch that leaves it to JSONDecoder.
        if let read = JSONReader.read(text, { reader throws(JSONReadError) in try Self.callSuccess(reading: &reader) }) {
            self = read
            return
        }
        self = try KRPCJSON.decode(KRPCMessage.self, from: text)
    }

    /// Decodes one frame given as UTF-8 bytes; see `init(decoding:)`.
    /// - Throws: ``KRPCDecodingError``.
    public init(decoding data: Data) throws(KRPCDecodingError) {
        if let read = JSONReader.read(data, { reader throws(JSONReadError) in try Self.callSuccess(reading: &reader) }) {
            self = read
            return
        }
        self = try KRPCJSON.decode(KRPCMessage.self, from: data)
    }
}

/// A `CodingKey` for any key name.
struct AnyCodingKey: CodingKey {
    let stringValue: String
    let intValue: Int? = nil

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}

extension KRPCMessage: Decodable {
    /// Decodes a message by its `type`; see `init(decoding:)`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        let type = try c.decode(String.self, forKey: AnyCodingKey("type"))
        func string(_ key: String) throws -> String { try c.decode(String.self, forKey: AnyCodingKey(key)) }
        func id(_ key: String) throws -> Int64? { try c.decodeIfPresent(Int64.self, forKey: AnyCodingKey(key)) }
        func params() throws -> KRPCPluginParams {
            try c.decodeIfPresent(WirePluginParams.self, forKey: AnyCodingKey("pluginParams"))?.params ?? [:]
        }
        func cause() throws -> KRPCSerializedException {
            try c.decode(KRPCSerializedException.self, forKey: AnyCodingKey("cause"))
        }
        switch type {
        case KRPCMessageType.handshake:
            self = .protocolHandshake(KRPCHandshake(
                supportedPlugins: try c.decode([KRPCPlugin].self, forKey: AnyCodingKey("supportedPlugins")),
                connectionId: try id("connectionId"), pluginParams: try params()))
        case KRPCMessageType.failure:
            self = .protocolFailure(KRPCProtocolFailure(
                errorMessage: try string("errorMessage"), connectionId: try id("connectionId"),
                failedMessage: try c.decodeIfPresent(KRPCMessage.self, forKey: AnyCodingKey("failedMessage")),
                pluginParams: try params()))
        case KRPCMessageType.generic:
            self = .generic(KRPCGenericMessage(connectionId: try id("connectionId"), pluginParams: try params()))
        case KRPCMessageType.callData:
            self = .callData(KRPCCallData(
                callId: try string("callId"), serviceType: try string("serviceType"), method: try string("method"),
                callType: try string("callType"), data: try string("data"), connectionId: try id("connectionId"),
                serviceId: try id("serviceId"), pluginParams: try params()))
        case KRPCMessageType.callSuccess:
            self = .callSuccess(KRPCCallSuccess(
                callId: try string("callId"), serviceType: try string("serviceType"), data: try string("data"),
                connectionId: try id("connectionId"), serviceId: try id("serviceId"), pluginParams: try params()))
        case KRPCMessageType.callException:
            self = .callException(KRPCCallException(
                callId: try string("callId"), serviceType: try string("serviceType"), cause: try cause(),
                connectionId: try id("connectionId"), serviceId: try id("serviceId"), pluginParams: try params()))
        case KRPCMessageType.streamMessage:
            self = .streamMessage(KRPCStreamMessage(
                callId: try string("callId"), serviceType: try string("serviceType"), flowId: try string("flowId"),
                data: try string("data"), connectionId: try id("connectionId"), serviceId: try id("serviceId"),
                pluginParams: try params()))
        case KRPCMessageType.streamFinished:
            self = .streamFinished(KRPCStreamFinished(
                callId: try string("callId"), serviceType: try string("serviceType"), flowId: try string("flowId"),
                connectionId: try id("connectionId"), serviceId: try id("serviceId"), pluginParams: try params()))
        case KRPCMessageType.streamCancel:
            self = .streamCancel(KRPCStreamCancel(
                callId: try string("callId"), serviceType: try string("serviceType"), flowId: try string("flowId"),
                cause: try cause(), connectionId: try id("connectionId"), serviceId: try id("serviceId"),
                pluginParams: try params()))
        default:
            self = .unknown(type: type)
        }
    }
}

/// `pluginParams` as sent: string keys holding numbers, string values. Keys
/// that are not numbers are dropped; scalar values that are not strings are
/// kept as their text (kotlinx `isLenient` reads them so); null and nested
/// values are dropped.
private struct WirePluginParams: Decodable {
    var params: KRPCPluginParams = [:]

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { return }
        for (key, value) in try container.decode([String: JSONValue].self) {
            guard let pluginKey = KRPCPluginKey(wireKey: key) else { continue }
            switch value {
            case .string(let text): params[pluginKey] = text
            case .integer(let number): params[pluginKey] = String(number)
            case .double(let number): params[pluginKey] = String(number)
            case .bool(let flag): params[pluginKey] = String(flag)
            case .null, .array, .object: continue
            }
        }
    }
}
