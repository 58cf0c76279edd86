import Foundation
import ListenUpCore
import NIOCore
import NIOHTTP1
import NIOPosix

/// A loopback HTTP server for audio files, as the ListenUp server serves
/// them (contract §11.2): Bearer only, Range with 206, plain-text errors.
/// It records every request and can answer a status or cut the connection
/// after some bytes, once.
final class AudioFileServer: Sendable {
    struct Request: Sendable {
        var path: String
        var uri: String
        var authorization: String?
        var range: String?
    }

    struct Script: Sendable {
        var files: [String: URL] = [:]
        var token = "good-token"
        /// Answered instead of the file.
        var statuses: [String: Int] = [:]
        /// The next response for a path stops after this many body bytes
        /// and the connection is closed.
        var cutAfter: [String: Int] = [:]
        /// Responses for a path stop after this many body bytes and the
        /// connection stays open, silent: a network that stalled.
        var stallAfter: [String: Int] = [:]
        /// Served whole with `Accept-Ranges: none`, a Range ignored: a
        /// server that cannot start a file part-way.
        var withoutRanges: Set<String> = []
        /// Milliseconds between a response's head and its body for a path:
        /// a slow network, or a server slow to find the file.
        var bodyDelay: [String: Int64] = [:]
        /// Bytes sent every 100 ms for a path, the body a trickle: a
        /// network barely faster than the audio.
        var trickle: [String: Int] = [:]
    }

    let script = LockedValue(Script())
    let requests = LockedValue<[Request]>([])
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let channel: any Channel

    var port: Int { channel.localAddress?.port ?? 0 }

    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)") ?? URL(fileURLWithPath: "/")
    }

    init() async throws {
        let script = script
        let requests = requests
        channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(Handler(script: script, requests: requests))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
    }

    func stop() async {
        try? await channel.close()
        try? await group.shutdownGracefully()
    }

    private final class Handler: ChannelInboundHandler, @unchecked Sendable {
        // `@unchecked Sendable`: used only on its channel's event loop.
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let script: LockedValue<Script>
        let requests: LockedValue<[Request]>
        var head: HTTPRequestHead?

        init(script: LockedValue<Script>, requests: LockedValue<[Request]>) {
            self.script = script
            self.requests = requests
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head): self.head = head
            case .body: break
            case .end:
                guard let head else { return }
                respond(to: head, context: context)
            }
        }

        private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
            let path = String(head.uri.split(separator: "?", maxSplits: 1).first ?? "")
            let authorization = head.headers.first(name: "Authorization")
            let range = head.headers.first(name: "Range")
            requests.withLock { $0.append(Request(path: path, uri: head.uri, authorization: authorization, range: range)) }
            let current = script.value
            if authorization != "Bearer \(current.token)" { return text(401, "unauthorized\n", context) }
            if let status = current.statuses[path] { return text(status, "refused\n", context) }
            guard let file = current.files[path], let data = try? Data(contentsOf: file) else { return text(404, "file not found\n", context) }
            var start = 0
            var end = data.count - 1
            var status = HTTPResponseStatus.ok
            let ranges = !current.withoutRanges.contains(path)
            if ranges, let range, range.hasPrefix("bytes=") {
                let parts = range.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
                if let first = parts.first.flatMap({ Int($0) }) { start = first }
                if parts.count > 1, let last = Int(parts[1]) { end = min(last, data.count - 1) }
                guard start < data.count else { return text(416, "range not satisfiable\n", context) }
                status = .partialContent
            }
            var headers = HTTPHeaders()
            headers.add(name: "Content-Length", value: "\(end - start + 1)")
            headers.add(name: "Accept-Ranges", value: ranges ? "bytes" : "none")
            headers.add(name: "Content-Type", value: "audio/\(file.pathExtension)")
            if status == .partialContent { headers.add(name: "Content-Range", value: "bytes \(start)-\(end)/\(data.count)") }
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
            let body = data[start...end]
            if let delay = current.bodyDelay[path] {
                context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(delay)) { self.send(body, path: path, current, context) }
            } else {
                send(body, path: path, current, context)
            }
        }

        private func send(_ whole: Data, path: String, _ current: Script, _ context: ChannelHandlerContext) {
            var body = whole
            let cut = script.withLock { $0.cutAfter.removeValue(forKey: path) }
            if let cut { body = body.prefix(cut) }
            if let stall = current.stallAfter[path] {
                context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body.prefix(stall))))), promise: nil)
                return
            }
            if let chunk = current.trickle[path], body.count > chunk {
                context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body.prefix(chunk))))), promise: nil)
                let rest = Data(body.dropFirst(chunk))
                context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(100)) { self.send(rest, path: path, current, context) }
                return
            }
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
            if cut != nil {
                context.flush()
                context.close(promise: nil)
                return
            }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }

        private func text(_ code: Int, _ body: String, _ context: ChannelHandlerContext) {
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "text/plain")
            headers.add(name: "Content-Length", value: "\(body.utf8.count)")
            let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: code), headers: headers)
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
