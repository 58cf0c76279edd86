import Foundation
import JSONToolkit
import ListenUpKRPC
import Logging
import NIOCore
import NIOWebSocket

/// One socket's kRPC session (§2): answers the handshake, dispatches calls
/// to ``DemoKRPCMethods``, runs and cancels streams, and ends the session
/// on an ENDPOINT cancellation, a close frame or server shutdown.
///
/// The client bugs the real server turns into hangs stay hangs (§2.7): an
/// envelope that does not decode and a `serviceType` not served on this
/// mount get no reply at all.
///
/// Confined to its channel's event loop; not Sendable (other threads reach
/// it through `NIOLoopBound`).
final class DemoKRPCEndpoint {
    let service: DemoKRPCService
    let mount: KRPCMount
    let principal: DemoKRPCPrincipal?
    let remoteHost: String
    let channel: any Channel
    /// The plugins the client's handshake listed.
    private(set) var clientPlugins: Set<KRPCPlugin> = []
    private var streams: [String: any DemoKRPCStream] = [:]
    private var isEnded = false

    init(service: DemoKRPCService, mount: KRPCMount, principal: DemoKRPCPrincipal?, remoteHost: String, channel: any Channel) {
        self.service = service
        self.mount = mount
        self.principal = principal
        self.remoteHost = remoteHost
        self.channel = channel
    }

    private var logger: Logger { service.logger }

    // MARK: Incoming

    /// One text message from the client.
    func receive(_ text: String) {
        guard !isEnded else { return }
        guard let message = try? KRPCMessage(decoding: text) else {
            logger.debug("kRPC: undecodable message dropped (no reply)")
            return
        }
        switch message {
        case .protocolHandshake(let handshake):
            clientPlugins = Set(handshake.supportedPlugins)
            send(.protocolHandshake(KRPCHandshake(supportedPlugins: KRPCPlugin.all, connectionId: 1,
                                                  pluginParams: [.windowUpdate: "1000"])))
        case .generic(let generic):
            handle(generic)
        case .callData(let call):
            handle(call)
        case .unknown(let type):
            logger.debug("kRPC: message of unknown type dropped (no reply)", metadata: ["type": "\(type)"])
        case .protocolFailure, .callSuccess, .callException, .streamMessage, .streamFinished, .streamCancel:
            logger.debug("kRPC: message the server does not expect ignored")
        }
    }

    private func handle(_ generic: KRPCGenericMessage) {
        // Window updates and unknown generic messages are ignored (§2.6).
        guard let cancellation = generic.cancellation else { return }
        switch cancellation.type {
        case .endpoint:
            end(code: .normalClosure, reason: "")
        case .request:
            guard let serviceType = cancellation.serviceType else {
                send(.protocolFailure(KRPCProtocolFailure(errorMessage: "Expected CLIENT_SERVICE_ID for cancellation of type 'request'")))
                return
            }
            guard let callId = cancellation.callId else { return }
            if let stream = streams[callId], stream.serviceType == serviceType {
                streams.removeValue(forKey: callId)
                stream.stop()
            }
            if !clientPlugins.contains(.noAckCancellation) {
                send(.generic(KRPCGenericMessage(connectionId: nil, pluginParams: [
                    .genericMessageType: "cancellation", .cancellationType: KRPCCancellationType.cancellationAck.rawValue,
                    .cancellationId: callId,
                ])))
            }
        default:
            break
        }
    }

    private func handle(_ call: KRPCCallData) {
        guard let serviceName = DemoKRPCMethods.serviceName(call.serviceType, on: mount) else {
            // The real server buffers it forever, waiting for the service (§2.7).
            logger.debug("kRPC: call to a service not on this mount, no reply", metadata: ["service": "\(call.serviceType)"])
            return
        }
        service.count("\(serviceName).\(call.method)")
        guard call.callType == "Method" else { return fail(call, .unsupportedCallType(call.callType)) }
        guard let method = DemoKRPCMethods.method(call.method, of: serviceName) else {
            return fail(call, .unknownMethod(serviceType: call.serviceType, method: call.method))
        }
        guard let arguments = try? KRPCJSON.decode([String: JSONValue].self, from: call.data) else {
            return fail(call, .undecodable("The call's data is not a JSON object"))
        }
        // A position write may start or end a session: the streams hear of it.
        defer { service.announcePresenceIfChanged() }
        do {
            switch try method.run(service, DemoKRPCCall(arguments: arguments, principal: principal, remoteHost: remoteHost)) {
            case .result(let result):
                send(.callSuccess(KRPCCallSuccess(callId: call.callId, serviceType: call.serviceType, data: result,
                                                  connectionId: call.connectionId, serviceId: call.serviceId)))
            case .eventStream(let since):
                // The sync stream needs a principal (the authed socket has one).
                startFlow(call, principal.map { DemoKRPCEventStream(call: call, principal: $0, endpoint: self) }) { $0.start(since: since) }
            case .registrationWatch(let userID, let rateLimited):
                startFlow(call, DemoKRPCRegistrationWatch(call: call, endpoint: self)) { $0.start(userID: userID, rateLimited: rateLimited) }
            case .registrationPolicyWatch(let rateLimited):
                startFlow(call, DemoKRPCRegistrationPolicyWatch(call: call, endpoint: self)) { $0.start(rateLimited: rateLimited) }
            case .passwordResetWatch(let ticketID):
                let every = service.options.passwordResetPollInterval
                startFlow(call, DemoKRPCPasswordResetWatch(call: call, endpoint: self)) { $0.start(ticketID: ticketID, every: every) }
            }
        } catch let failure as DemoKRPCCallFailure {
            fail(call, failure)
        } catch {
            // The server's guard turns an escaped exception into InternalError.
            logger.error("kRPC: method failed", metadata: ["method": "\(serviceName).\(call.method)", "error": "\(error)"])
            send(.callSuccess(KRPCCallSuccess(callId: call.callId, serviceType: call.serviceType,
                                              data: DemoKRPCWrap.failure(.internalError),
                                              connectionId: call.connectionId, serviceId: call.serviceId)))
        }
    }

    /// Runs `stream` for the Flow `call` (in place of one with its id),
    /// started by `start`; a Flow called without the `-32763` marker is a
    /// `CallException` instead, and no stream (nil) ends it there.
    private func startFlow<Stream: DemoKRPCStream>(_ call: KRPCCallData, _ stream: @autoclosure () -> Stream?,
                                                   start: (Stream) -> Void) {
        guard call.pluginParams[.nonSuspendingServerFlowMarker] != nil else {
            return fail(call, .flowWithoutMarker(serviceType: call.serviceType, method: call.method))
        }
        guard let made = stream() else { return }
        streams[call.callId]?.stop()
        streams[call.callId] = made
        start(made)
    }

    private func fail(_ call: KRPCCallData, _ failure: DemoKRPCCallFailure) {
        send(.callException(KRPCCallException(callId: call.callId, serviceType: call.serviceType, cause: failure.exception,
                                              connectionId: call.connectionId,
                                              serviceId: failure.echoesServiceID ? call.serviceId : nil)))
    }

    // MARK: Outgoing

    /// Sends one message as one unfragmented text frame.
    func send(_ message: KRPCMessage) {
        guard !isEnded, channel.isActive else { return }
        let frame = WebSocketFrame(fin: true, opcode: .text, data: channel.allocator.buffer(string: message.encoded()))
        channel.writeAndFlush(frame, promise: nil)
    }

    /// A stream ended on its own (error, stale cursor): forget it.
    func streamFinished(callId: String) {
        streams.removeValue(forKey: callId)
    }

    /// Sends a close frame and closes the connection (ping timeout).
    func close(code: WebSocketErrorCode, reason: String) {
        end(code: code, reason: reason)
    }

    /// The client sent a close frame: answer it and close.
    func closeReceived(code: WebSocketErrorCode) {
        end(code: code, reason: "")
    }

    /// The connection is gone: every stream stops.
    func socketClosed() {
        isEnded = true
        stopStreams()
    }

    /// Server shutdown: open streams get `StreamCancel`, a client that
    /// advertised CANCELLATION an ENDPOINT cancellation, then close 1001.
    func shutDown() {
        guard !isEnded else { return }
        for stream in streams.values { stream.cancelForShutdown() }
        streams.removeAll()
        if clientPlugins.contains(.cancellation) {
            send(.generic(KRPCGenericMessage(connectionId: nil, pluginParams: [
                .genericMessageType: "cancellation", .cancellationType: KRPCCancellationType.endpoint.rawValue,
            ])))
        }
        end(code: .goingAway, reason: "")
    }

    private func end(code: WebSocketErrorCode, reason: String) {
        guard !isEnded else { return }
        stopStreams()
        var body = channel.allocator.buffer(capacity: 2 + reason.utf8.count)
        body.write(webSocketErrorCode: code)
        body.writeString(reason)
        isEnded = true
        let channel = channel
        guard channel.isActive else { return }
        channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .connectionClose, data: body)).whenComplete { _ in
            channel.close(promise: nil)
        }
    }

    private func stopStreams() {
        for stream in streams.values { stream.stop() }
        streams.removeAll()
    }
}
