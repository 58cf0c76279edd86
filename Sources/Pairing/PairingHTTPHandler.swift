import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// One parsed request, handed from the channel to the server's logic.
struct PairingHTTPRequest: Sendable {
    var method: HTTPMethod
    var path: String
    var headers: HTTPHeaders
    var body: [UInt8]
    var remoteAddress: String
}

/// One response: status, JSON body (or none), extra headers; or the start
/// of an event stream that stays open (``eventStream``).
struct PairingHTTPResponse: Sendable {
    var status: HTTPResponseStatus
    var body: [UInt8] = []
    var headers: [(String, String)] = []
    /// Set for `GET /api/v1/player/events`: the body is this stream, not `body`.
    var eventStream: EventStream?

    /// A stream slot and the frame it starts with.
    struct EventStream: Sendable {
        var reservation: RemoteEventHub.Reservation
        var first: [UInt8]
    }

    /// `200 text/event-stream`, its body the stream of `reservation`.
    static func events(_ reservation: RemoteEventHub.Reservation, first: [UInt8]) -> PairingHTTPResponse {
        PairingHTTPResponse(status: .ok, headers: [("Content-Type", "text/event-stream; charset=utf-8"), ("X-Accel-Buffering", "no")],
                            eventStream: EventStream(reservation: reservation, first: first))
    }

    static func json(_ status: HTTPResponseStatus, _ object: [String: Any]) -> PairingHTTPResponse {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return PairingHTTPResponse(status: status, body: Array(data), headers: [("Content-Type", "application/json")])
    }

    /// `{"error":{"code":…,"message":…}}`.
    static func error(_ status: HTTPResponseStatus, _ code: String, _ message: String, headers: [(String, String)] = []) -> PairingHTTPResponse {
        var response = json(status, ["error": ["code": code, "message": message]])
        response.headers += headers
        return response
    }
}

/// Reads one request per connection (bodies capped), runs it through the
/// server, answers, closes. A connection that stays silent (IdleStateHandler)
/// or has not finished its request by the deadline is closed, unless its
/// request is already being answered (a pairing waits for the user) or its
/// answer is an event stream being written (``EventStreamConnection``: the
/// read timeout is about requests, and the stream has its own heartbeat and
/// stalled-reader check).
///
/// `@unchecked Sendable`: used only on its channel's event loop.
final class PairingHTTPHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// reading → answering → done, or reading → draining (answered early, e.g. 413; the
    /// rest of the request is read and dropped so the client sees the answer) → done,
    /// or reading → answering → streaming (an event stream, until the connection closes) → done.
    private enum Phase { case reading, answering, draining, streaming, done }

    private let server: DiscoveryServer
    private var phase = Phase.reading
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var deadline: Scheduled<Void>?
    private var stream: (connection: EventStreamConnection, reservation: RemoteEventHub.Reservation)?

    init(server: DiscoveryServer) { self.server = server }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        let seconds = server.configuration.requestTimeout
        deadline = context.eventLoop.scheduleTask(in: .milliseconds(Int64(seconds * 1000))) { [weak self] in
            guard let self, self.phase == .reading || self.phase == .draining else { return }
            channel.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        phase = .done // an answer computed after the connection went away is dropped
        if let stream {
            stream.connection.stopped()
            server.remoteEvents.release(stream.reservation)
            self.stream = nil
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        stream?.connection.writabilityChanged()
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent, phase != .answering, phase != .streaming {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if phase == .draining, case .end = part {
            phase = .done
            context.close(promise: nil)
        }
        guard phase == .reading else { return }
        switch part {
        case .head(let head):
            self.head = head
            if let length = head.headers.first(name: "Content-Length").flatMap(Int.init), length > bodyLimit {
                answer(context: context, .error(.payloadTooLarge, "body_too_large", "Request bodies are limited to \(bodyLimit) bytes here."))
            }
        case .body(var chunk):
            guard body.count + chunk.readableBytes <= bodyLimit else {
                answer(context: context, .error(.payloadTooLarge, "body_too_large", "Request bodies are limited to \(bodyLimit) bytes here."))
                return
            }
            body += chunk.readBytes(length: chunk.readableBytes) ?? []
        case .end:
            guard let head else { return }
            phase = .answering
            deadline?.cancel()
            let request = PairingHTTPRequest(method: head.method, path: head.uri, headers: head.headers, body: body,
                                             remoteAddress: context.remoteAddress?.ipAddress ?? "unknown")
            let server = server
            let loop = context.eventLoop
            let bound = NIOLoopBound((self, context), eventLoop: loop)
            Task {
                let response = await server.respond(to: request)
                loop.execute {
                    let (handler, context) = bound.value
                    handler.answer(context: context, response)
                }
            }
        }
    }

    /// The body cap of the request being read (the player's commands have a smaller one).
    private var bodyLimit: Int {
        let path = head?.uri ?? ""
        return path.hasPrefix("/api/v1/player") ? server.configuration.remoteMaxBodyBytes : server.configuration.maxBodyBytes
    }

    private func answer(context: ChannelHandlerContext, _ response: PairingHTTPResponse) {
        guard phase == .reading || phase == .answering else {
            // The connection went away while the answer was computed: free its stream slot.
            if let stream = response.eventStream { server.remoteEvents.release(stream.reservation) }
            return
        }
        if let stream = response.eventStream, phase == .answering {
            startStreaming(context: context, response, stream)
            return
        }
        let early = phase == .reading
        phase = early ? .draining : .done
        var headers = HTTPHeaders(response.headers)
        headers.replaceOrAdd(name: "Content-Length", value: String(response.body.count))
        headers.replaceOrAdd(name: "Connection", value: "close")
        headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: response.status, headers: headers))), promise: nil)
        if !response.body.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: response.body)))), promise: nil)
        }
        let channel = context.channel
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !early { done.whenComplete { _ in channel.close(promise: nil) } }
    }

    /// Writes the head of an event stream (chunked: no length) and hands the body to an ``EventStreamConnection``.
    private func startStreaming(context: ChannelHandlerContext, _ response: PairingHTTPResponse, _ stream: PairingHTTPResponse.EventStream) {
        phase = .streaming
        var headers = HTTPHeaders(response.headers)
        headers.replaceOrAdd(name: "Connection", value: "close")
        headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: response.status, headers: headers))), promise: nil)
        let server = server
        let deviceID = stream.reservation.deviceID
        let configuration = server.configuration
        let connection = EventStreamConnection(context: context,
                                               minimumInterval: .milliseconds(Int64(configuration.remoteEventInterval * 1000)),
                                               heartbeatInterval: .milliseconds(Int64(configuration.remoteHeartbeatInterval * 1000)),
                                               stillAllowed: { server.streamMayContinue(deviceID: deviceID) })
        self.stream = (connection, stream.reservation)
        connection.start(first: stream.first)
        if !server.remoteEvents.attach(stream.reservation, to: connection) {
            connection.end(reason: "revoked")
        }
    }
}
