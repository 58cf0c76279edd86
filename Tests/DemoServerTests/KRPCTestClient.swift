import Foundation
import ListenUpKRPC
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// What a ``KRPCTestSocket`` received.
enum KRPCTestEvent: Sendable, Equatable {
    case text(String)
    case ping([UInt8])
    case close(code: UInt16, reason: String)
    /// The TCP connection closed.
    case closed
}

/// A wait in a test that ran out.
struct KRPCTestTimeout: Error, CustomStringConvertible {
    var description: String
}

/// Events in arrival order, awaited with a deadline (polling, so no thread blocks).
final class KRPCTestInbox: @unchecked Sendable {
    // @unchecked Sendable: `events` is only touched under `lock`.
    private let lock = NSLock()
    private var events: [KRPCTestEvent] = []

    func append(_ event: KRPCTestEvent) {
        lock.withLock { events.append(event) }
    }

    /// The first event that `matches`, taken out; the others stay for a
    /// later wait (a ping that came while a test waited for text is still
    /// there when it waits for pings: on a loaded machine a 0.2 s ping
    /// interval can beat the handshake's reply).
    func next(within timeout: Duration, where matches: (KRPCTestEvent) -> Bool = { _ in true }) async throws -> KRPCTestEvent {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            let found = lock.withLock { () -> KRPCTestEvent? in
                guard let index = events.firstIndex(where: matches) else { return nil }
                return events.remove(at: index)
            }
            if let found { return found }
            if ContinuousClock.now >= deadline { throw KRPCTestTimeout(description: "nothing arrived within \(timeout)") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// The client side of one kRPC WebSocket to the demo server (tests only):
/// masked text frames out; text, pings and the close frame in. Pongs
/// answer pings unless `answerPings` is false.
final class KRPCTestSocket: Sendable {
    private let channel: any Channel
    let inbox: KRPCTestInbox

    private init(channel: any Channel, inbox: KRPCTestInbox) {
        self.channel = channel
        self.inbox = inbox
    }

    /// Opens `ws://127.0.0.1:port<path>`.
    /// - Throws: when the server does not answer 101.
    static func connect(port: Int, path: String, bearer: String? = nil, answerPings: Bool = true) async throws -> KRPCTestSocket {
        let inbox = KRPCTestInbox()
        let (channel, upgraded) = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let upgrader = NIOTypedWebSocketClientUpgrader<Bool>(maxFrameSize: 64 << 20) { channel, _ in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHandler(TestFrameHandler(inbox: inbox, answerPings: answerPings))
                            return true
                        }
                    }
                    var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path)
                    head.headers.add(name: "Host", value: "127.0.0.1:\(port)")
                    if let bearer { head.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
                    let upgrade = NIOTypedHTTPClientUpgradeConfiguration<Bool>(upgradeRequestHead: head, upgraders: [upgrader]) { channel in
                        channel.eventLoop.makeSucceededFuture(false)
                    }
                    var configuration = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: upgrade)
                    configuration.leftOverBytesStrategy = .forwardBytes
                    let result = try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(configuration: configuration)
                    return (channel, result)
                }
            }
        guard try await upgraded.get() else {
            try? await channel.close()
            throw KRPCTestTimeout(description: "the upgrade of \(path) was refused")
        }
        return KRPCTestSocket(channel: channel, inbox: inbox)
    }

    /// Sends one masked text frame.
    func send(_ text: String) async throws {
        let frame = WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: channel.allocator.buffer(string: text))
        try await channel.writeAndFlush(frame)
    }

    /// Sends one kRPC message.
    func send(_ message: KRPCMessage) async throws {
        try await send(message.encoded())
    }

    /// The next text message.
    func nextText(within timeout: Duration = .seconds(5)) async throws -> String {
        guard case .text(let text) = try await inbox.next(within: timeout, where: { if case .text = $0 { true } else { false } }) else {
            throw KRPCTestTimeout(description: "no text")
        }
        return text
    }

    /// The next kRPC message.
    func nextMessage(within timeout: Duration = .seconds(5)) async throws -> KRPCMessage {
        try KRPCMessage(decoding: try await nextText(within: timeout))
    }

    /// The close frame or the end of the connection.
    func nextClose(within timeout: Duration = .seconds(5)) async throws -> KRPCTestEvent {
        try await inbox.next(within: timeout) { event in
            switch event {
            case .close, .closed: true
            default: false
            }
        }
    }

    /// Closes the connection without a close frame.
    func close() async {
        try? await channel.close()
    }
}

/// Collects frames; answers pings; aggregates nothing (the server never fragments).
private final class TestFrameHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let inbox: KRPCTestInbox
    private let answerPings: Bool

    init(inbox: KRPCTestInbox, answerPings: Bool) {
        self.inbox = inbox
        self.answerPings = answerPings
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        var payload = frame.unmaskedData
        switch frame.opcode {
        case .text:
            inbox.append(.text(payload.readString(length: payload.readableBytes) ?? ""))
        case .ping:
            let bytes = payload.readBytes(length: payload.readableBytes) ?? []
            inbox.append(.ping(bytes))
            if answerPings {
                let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: context.channel.allocator.buffer(bytes: bytes))
                context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
            }
        case .connectionClose:
            let code = payload.readInteger(as: UInt16.self) ?? 0
            inbox.append(.close(code: code, reason: payload.readString(length: payload.readableBytes) ?? ""))
        default:
            break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        inbox.append(.closed)
        context.fireChannelInactive()
    }
}
