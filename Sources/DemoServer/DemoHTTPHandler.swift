import Foundation
import ListenUpAPI
import NIOCore
import NIOHTTP1

/// Reads a whole request (at most 1 MiB of body), hands it to the service
/// (REST) or to the kRPC mode's plain-HTTP routes.
final class DemoHTTPHandler: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
    // @unchecked Sendable: lives on its channel's event loop only.
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    static let maxBody = 1 << 20
    /// Its name in the pipeline (the kRPC upgrade removes it by name).
    static let name = "demo-http"
    private let service: DemoService
    /// In kRPC mode, the routes that answer plain HTTP (the blob routes, `/healthz`).
    private let krpc: DemoKRPCService?
    private var head: HTTPRequestHead?
    private var body = Data()
    private var tooLarge = false

    init(service: DemoService, krpc: DemoKRPCService? = nil) {
        self.service = service
        self.krpc = krpc
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = Data()
            tooLarge = false
        case .body(var buffer):
            if body.count + buffer.readableBytes > Self.maxBody {
                tooLarge = true
            } else if let bytes = buffer.readBytes(length: buffer.readableBytes) {
                body.append(contentsOf: bytes)
            }
        case .end:
            guard let head else { return }
            if let krpc {
                self.head = nil
                answer(krpc.answerHTTP(method: head.method.rawValue, uri: head.uri, headers: head.headers.map { ($0.name, $0.value) }),
                       head: head, context: context)
                return
            }
            if head.method == .GET, head.uri.split(separator: "?").first == "/api/v1/sync/events" {
                let request = DemoRequest(method: "GET", path: "/api/v1/sync/events", query: [:],
                                          headers: head.headers.map { ($0.name, $0.value) }, body: Data())
                if let refusal = service.refuseEventStream(request) {
                    write(refusal, keepAlive: false, context: context)
                } else {
                    DemoEventHub.open(on: context, hub: service.events, heartbeat: service.configuration.heartbeatInterval)
                }
                self.head = nil
                return
            }
            let path = String(head.uri.split(separator: "?", maxSplits: 1).first ?? "")
            if head.method == .GET, let userID = DemoService.registrationStreamUserID(path) {
                self.head = nil
                DemoRegistrationStream.open(on: context, service: service, userID: userID)
                return
            }
            if let answer = service.audio(method: head.method.rawValue, path: path, query: Self.query(of: head.uri),
                                          headers: head.headers.map { ($0.name, $0.value) }) {
                self.head = nil
                self.answer(answer, head: head, context: context)
                return
            }
            let response: DemoResponse
            if tooLarge {
                response = .failure(413, "request body is too large limit=1048576 bytes")
            } else {
                let request = DemoRequest(method: head.method.rawValue, path: path, query: Self.query(of: head.uri),
                                          headers: head.headers.map { ($0.name, $0.value) }, body: body)
                response = service.handle(request)
            }
            write(response, keepAlive: head.isKeepAlive && !tooLarge, context: context)
            self.head = nil
        }
    }

    private func answer(_ answer: DemoService.AudioAnswer, head: HTTPRequestHead, context: ChannelHandlerContext) {
        switch answer {
        case .response(let response):
            write(response, keepAlive: head.isKeepAlive, context: context)
        case .stream(let file, let range, let status, let total, let cutAfter):
            // The kRPC server sets neither `ETag` nor `Last-Modified` on audio (§4).
            let extra = krpc.map { _ in DemoKRPCService.versionHeaders() } ?? [("Last-Modified", "Mon, 01 Jun 2026 12:00:00 GMT")]
            stream(file, range: range, status: status, total: total, cutAfter: cutAfter, headers: extra, head: head, context: context)
        }
    }

    static func query(of uri: String) -> [String: String] {
        let parts = uri.split(separator: "?", maxSplits: 1)
        var query: [String: String] = [:]
        if parts.count > 1 {
            for pair in parts[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1)
                let key = String(kv[0]).removingPercentEncoding ?? String(kv[0])
                let value = kv.count > 1 ? (String(kv[1]).removingPercentEncoding ?? String(kv[1])) : ""
                query[key] = value
            }
        }
        return query
    }

    /// Streams synthesised audio in 64 KiB chunks, each written once the
    /// one before is flushed (memory stays flat for any file size). Under
    /// an audio rate limit the chunks are smaller (a tenth of a second's
    /// bytes) and each waits until the bytes before it are due.
    private func stream(_ file: DemoAudio.File, range: Range<Int64>, status: Int, total: Int64, cutAfter: Int?,
                        headers extra: [(String, String)], head: HTTPRequestHead, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "audio/wav")
        headers.add(name: "Accept-Ranges", value: "bytes")
        headers.add(name: "Content-Length", value: String(range.count))
        for (name, value) in extra { headers.add(name: name, value: value) }
        if status == 206 { headers.add(name: "Content-Range", value: "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(total)") }
        let keepAlive = head.isKeepAlive && cutAfter == nil
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status),
                                                             headers: headers))), promise: nil)
        if head.method == .HEAD {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            return
        }
        let end = cutAfter.map { min(range.upperBound, range.lowerBound + Int64($0)) } ?? range.upperBound
        let channel = context.channel
        let rate = service.state.withLock { $0.audioRateLimit }.map { Int64(max(DemoServer.minimumAudioRateLimit, $0)) }
        let chunk: Int64 = rate.map { min(64 << 10, max(512, $0 / 10)) } ?? 64 << 10
        let started = NIODeadline.now()
        let first = range.lowerBound
        /// Sends from `offset` now, or when the bytes before it are due under the rate limit.
        @Sendable func pace(from offset: Int64) {
            guard let rate else { return send(from: offset) }
            let due = started + .nanoseconds((offset - first) * 1_000_000_000 / rate)
            if due <= .now() { return send(from: offset) }
            channel.eventLoop.scheduleTask(deadline: due) { send(from: offset) }
        }
        @Sendable func send(from offset: Int64) {
            guard channel.isActive else { return }
            if offset >= end {
                if cutAfter != nil {
                    channel.close(promise: nil)
                } else {
                    channel.writeAndFlush(HTTPServerResponsePart.end(nil), promise: nil)
                }
                return
            }
            let next = min(end, offset + chunk)
            let bytes = file.bytes(offset..<next)
            channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: bytes)))).whenComplete { result in
                if case .success = result { pace(from: next) }
            }
        }
        send(from: range.lowerBound)
    }

    private func write(_ response: DemoResponse, keepAlive: Bool, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        if !response.contentType.isEmpty { headers.add(name: "Content-Type", value: response.contentType) }
        headers.add(name: "Content-Length", value: String(response.body.count))
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        for (name, value) in response.headers { headers.add(name: name, value: value) }
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: response.status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if !response.body.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: response.body)))), promise: nil)
        }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            if !keepAlive { channel.close(promise: nil) }
        }
    }
}
