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

/// One response: status, JSON body (or none), extra headers.
struct PairingHTTPResponse: Sendable {
    var status: HTTPResponseStatus
    var body: [UInt8] = []
    var headers: [(String, String)] = []

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
/// request is already being answered (a pairing waits for the user).
///
/// `@unchecked Sendable`: used only on its channel's event loop.
final class PairingHTTPHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// reading → answering → done, or reading → draining (answered early, e.g. 413; the
    /// rest of the request is read and dropped so the client sees the answer) → done.
    private enum Phase { case reading, answering, draining, done }

    private let server: DiscoveryServer
    private var phase = Phase.reading
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var deadline: Scheduled<Void>?

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
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent, phase != .answering {
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
            if let length = head.headers.first(name: "Content-Length").flatMap(Int.init), length > server.configuration.maxBodyBytes {
                answer(context: context, .error(.payloadTooLarge, "body_too_large", "Request bodies are limited to \(server.configuration.maxBodyBytes) bytes."))
            }
        case .body(var chunk):
            guard body.count + chunk.readableBytes <= server.configuration.maxBodyBytes else {
                answer(context: context, .error(.payloadTooLarge, "body_too_large", "Request bodies are limited to \(server.configuration.maxBodyBytes) bytes."))
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

    private func answer(context: ChannelHandlerContext, _ response: PairingHTTPResponse) {
        guard phase == .reading || phase == .answering else { return }
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
}
