/// The contract's frames (shared/contract/listenup-krpc-v0.9.md), verbatim.
/// Their call ids assume the numbering of the contract's examples:
/// getServerInfo 1, login 2, getInfo 3, observeEvents 4.
enum ContractFrame {
    /// §2.3: the handshake the Swift client sends.
    static let handshakeClient = ##"{"type":"org.jetbrains.krpc.internal.transport.RPCProtocolMessage.Handshake","supportedPlugins":[-32767,-32766,-32765,-32764]}"##
    /// §2.3: the server's reply.
    static let handshakeServerReply = ##"{"type":"org.jetbrains.krpc.internal.transport.RPCProtocolMessage.Handshake","supportedPlugins":[-32767,-32766,-32765,-32764,-32763],"connectionId":1,"pluginParams":{"-32762":"1000"}}"##
    /// §2.4.1: `getServerInfo` as the first call.
    static let getServerInfoCall = ##"{"type":"org.jetbrains.krpc.RPCMessage.CallData","callId":"1:getServerInfo:1","serviceType":"com.calypsan.listenup.api.InstanceService","method":"getServerInfo","callType":"Method","data":"{}","connectionId":1,"pluginParams":{"-32763":""}}"##
    /// §2.4.2: its `CallSuccess`.
    static let getServerInfoSuccess = ##"{"type":"org.jetbrains.krpc.RPCMessage.CallSuccess","callId":"1:getServerInfo:1","serviceType":"com.calypsan.listenup.api.InstanceService","data":"{\"type\":\"Success\",\"data\":{\"name\":\"ListenUp\",\"version\":\"0.9.0\",\"apiVersion\":\"v1\",\"setupRequired\":true,\"registrationPolicy\":\"APPROVAL_QUEUE\",\"instanceId\":\"8f0c2a4e-0000-0000-0000-000000000000\"}}","connectionId":1}"##
    /// §3.2: a login request (the second call).
    static let loginCall = ##"{"type":"org.jetbrains.krpc.RPCMessage.CallData","callId":"1:login:2","serviceType":"com.calypsan.listenup.api.AuthServicePublic","method":"login","callType":"Method","data":"{\"request\":{\"email\":\"alice@example.com\",\"password\":\"correct horse\",\"sessionLabel\":\"Alice's desktop\",\"deviceInfo\":{\"deviceType\":\"desktop\",\"platform\":\"Linux\",\"clientName\":\"ListenUp GTK\",\"clientVersion\":\"0.1.0\"},\"timezone\":\"Europe/Berlin\"}}","connectionId":1,"pluginParams":{"-32763":""}}"##
    /// §3.2: its success, with both tokens.
    static let loginSuccess = ##"{"type":"org.jetbrains.krpc.RPCMessage.CallSuccess","callId":"1:login:2","serviceType":"com.calypsan.listenup.api.AuthServicePublic","data":"{\"type\":\"Success\",\"data\":{\"accessToken\":\"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.e30.sig\",\"accessTokenExpiresAt\":1787400900000,\"refreshToken\":\"<opaque>\",\"refreshTokenExpiresAt\":1789992000000,\"sessionId\":\"<session-id>\",\"user\":{\"id\":\"<user-id>\",\"email\":\"alice@example.com\",\"displayName\":\"Alice\",\"role\":\"ROOT\",\"status\":\"ACTIVE\",\"createdAt\":1787400000000}}}","connectionId":1}"##
    /// §2.4.3: a domain failure, still a `CallSuccess`.
    static let loginInvalidCredentials = ##"{"type":"org.jetbrains.krpc.RPCMessage.CallSuccess","callId":"1:login:2","serviceType":"com.calypsan.listenup.api.AuthServicePublic","data":"{\"type\":\"Failure\",\"error\":{\"type\":\"AuthError.InvalidCredentials\",\"correlationId\":\"3b1f6c9e-5d2a-4c1e-9a57-0f6f2b8e7d11\"}}","connectionId":1}"##
    /// §2.4.4: a `CallException` for `getInfo` (the third call).
    static let unknownMethodException = ##"{"type":"org.jetbrains.krpc.RPCMessage.CallException","callId":"1:getInfo:3","serviceType":"com.calypsan.listenup.api.InstanceService","cause":{"toStringMessage":"kotlin.IllegalStateException: Service com.calypsan.listenup.api.InstanceService has no method 'getInfo'","message":"Service com.calypsan.listenup.api.InstanceService has no method 'getInfo'","stacktrace":[],"cause":null,"className":"kotlin.IllegalStateException"},"connectionId":1}"##
    /// §2.5: `observeEvents(4711)` as the fourth call.
    static let observeEventsCall = ##"{"type":"org.jetbrains.krpc.RPCMessage.CallData","callId":"1:observeEvents:4","serviceType":"com.calypsan.listenup.api.SyncStreamService","method":"observeEvents","callType":"Method","data":"{\"sinceRevision\":4711}","connectionId":1,"pluginParams":{"-32763":""}}"##
    /// §2.5: the stream's hello.
    static let heartbeatElement = ##"{"type":"org.jetbrains.krpc.RPCMessage.StreamMessage","callId":"1:observeEvents:4","serviceType":"com.calypsan.listenup.api.SyncStreamService","flowId":"1","data":"{\"type\":\"RpcEvent.Data\",\"value\":{\"domain\":\"control\",\"json\":\"{\\\"type\\\":\\\"SyncControl.Heartbeat\\\"}\"}}","connectionId":1}"##
    /// §2.5: a data element, three JSON layers.
    static let playbackPositionElement = ##"{"type":"org.jetbrains.krpc.RPCMessage.StreamMessage","callId":"1:observeEvents:4","serviceType":"com.calypsan.listenup.api.SyncStreamService","flowId":"1","data":"{\"type\":\"RpcEvent.Data\",\"value\":{\"domain\":\"playback_positions\",\"revision\":4712,\"json\":\"{\\\"type\\\":\\\"SyncEvent.Updated\\\",\\\"id\\\":\\\"<position-id>\\\",\\\"revision\\\":4712,\\\"occurredAt\\\":1787401000123,\\\"clientOpId\\\":\\\"op-77\\\",\\\"payload\\\":{\\\"id\\\":\\\"<position-id>\\\",\\\"bookId\\\":\\\"<book-id>\\\",\\\"positionMs\\\":1234567,\\\"lastPlayedAt\\\":1787401000000,\\\"finished\\\":false,\\\"playbackSpeed\\\":1.25,\\\"currentChapterId\\\":\\\"<chapter-id>\\\",\\\"revision\\\":4712,\\\"updatedAt\\\":1787401000123,\\\"createdAt\\\":1787300000000,\\\"deletedAt\\\":null}}\"}}","connectionId":1}"##
    /// §2.5: an `RpcEvent.Error` element.
    static let sessionExpiredElement = ##"{"type":"org.jetbrains.krpc.RPCMessage.StreamMessage","callId":"1:observeEvents:4","serviceType":"com.calypsan.listenup.api.SyncStreamService","flowId":"1","data":"{\"type\":\"RpcEvent.Error\",\"error\":{\"type\":\"AuthError.SessionExpired\"}}","connectionId":1}"##
    /// §2.5: the end of the stream.
    static let streamFinished = ##"{"type":"org.jetbrains.krpc.RPCMessage.StreamFinished","callId":"1:observeEvents:4","serviceType":"com.calypsan.listenup.api.SyncStreamService","flowId":"1","connectionId":1}"##
    /// §2.5: a server-side cancel.
    static let streamCancel = ##"{"type":"org.jetbrains.krpc.RPCMessage.StreamCancel","callId":"1:observeEvents:4","serviceType":"com.calypsan.listenup.api.SyncStreamService","flowId":"1","cause":{"toStringMessage":"…CancellationException: …","message":"…","stacktrace":[],"cause":null,"className":"<a CancellationException type name>"},"connectionId":1}"##
    /// §2.5: the client unsubscribing from call 4.
    static let cancelRequest = ##"{"type":"org.jetbrains.krpc.internal.transport.RPCGenericMessage","connectionId":null,"pluginParams":{"-32767":"cancellation","-32766":"REQUEST","-32764":"com.calypsan.listenup.api.SyncStreamService","-32765":"1:observeEvents:4"}}"##
    /// §2.6: the ENDPOINT cancellation.
    static let cancelEndpoint = ##"{"type":"org.jetbrains.krpc.internal.transport.RPCGenericMessage","connectionId":null,"pluginParams":{"-32767":"cancellation","-32766":"ENDPOINT"}}"##
    /// §2.6: a window update (to be ignored).
    static let windowUpdate = ##"{"type":"org.jetbrains.krpc.internal.transport.RPCGenericMessage","connectionId":1,"pluginParams":{"-32762":"1","-32761":"com.calypsan.listenup.api.SyncStreamService/1:observeEvents:4"}}"##
    /// §2.6: a protocol Failure.
    static let protocolFailure = ##"{"type":"org.jetbrains.krpc.internal.transport.RPCProtocolMessage.Failure","errorMessage":"Expected CLIENT_SERVICE_ID for cancellation of type 'request'"}"##
}
