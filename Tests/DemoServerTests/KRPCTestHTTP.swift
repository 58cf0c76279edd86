import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// One plain HTTP/1.1 request on a fresh loopback connection (tests only):
/// the kRPC mode's blob routes, `/healthz`, and refused upgrades.
enum KRPCTestHTTP {
    /// A whole response.
    struct Response: Sendable {
        var status: Int
        var headers: HTTPHeaders
        var body: [UInt8]

        /// The body as text.
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Sends one request and reads the whole response (at most 10 s).
    static func request(port: Int, path: String, method: HTTPMethod = .GET, headers: [(String, String)] = []) async throws -> Response {
        let (channel, response) = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let promise = channel.eventLoop.makePromise(of: Response.self)
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(ResponseCollector(promise: promise))
                    let timeout = channel.eventLoop.scheduleTask(in: .seconds(10)) {
                        promise.fail(KRPCTestTimeout(description: "no response to \(method) \(path)"))
                    }
                    promise.futureResult.whenComplete { _ in timeout.cancel() }
                    return (channel, promise.futureResult)
                }
            }
        var head = HTTPRequestHead(version: .http1_1, method: method, uri: path)
        head.headers.add(name: "Host", value: "127.0.0.1:\(port)")
        head.headers.add(name: "Connection", value: "close")
        for (name, value) in headers { head.headers.add(name: name, value: value) }
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        try await channel.writeAndFlush(HTTPClientRequestPart.end(nil))
        defer { channel.close(promise: nil) }
        return try await response.get()
    }
}

/// Collects one response into a promise.
private final class ResponseCollector: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart

    private let promise: EventLoopPromise<KRPCTestHTTP.Response>
    private var response: KRPCTestHTTP.Response?

    init(promise: EventLoopPromise<KRPCTestHTTP.Response>) {
        self.promise = promise
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            response = KRPCTestHTTP.Response(status: Int(head.status.code), headers: head.headers, body: [])
        case .body(var buffer):
            response?.body += buffer.readBytes(length: buffer.readableBytes) ?? []
        case .end:
            if let response { promise.succeed(response) }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise.fail(KRPCTestTimeout(description: "the connection closed before the response ended"))
        context.fireChannelInactive()
    }
}
