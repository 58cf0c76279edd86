import Foundation
import ListenUpAPI
import NIOCore
import NIOHTTP1

/// The live-event side of the demo server (`/api/v1/sync/events`, contract
/// §11.3): a `connected` frame first, then `event: T` / `data: {timestamp,
/// data, type}` frames, a heartbeat every ``DemoServer/Configuration/heartbeatInterval``.
final class DemoEventHub: Sendable {
    private let subscribers = Locked<[ObjectIdentifier: any Channel]>([:])

    var count: Int { subscribers.withLock { $0.count } }

    func add(_ channel: any Channel) {
        subscribers.withLock { $0[ObjectIdentifier(channel)] = channel }
        channel.closeFuture.whenComplete { [weak self] _ in
            self?.subscribers.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(channel)) }
        }
    }

    /// Sends `payload` as a `type` event to every open stream.
    func broadcast<Payload: Encodable>(_ type: String, _ payload: Payload) {
        let frame = Self.frame(type, payload)
        for channel in subscribers.withLock({ Array($0.values) }) {
            channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: frame))), promise: nil)
        }
    }

    /// Closes every open stream (clients see a dropped connection).
    func dropAll() {
        for channel in subscribers.withLock({ Array($0.values) }) { channel.close(promise: nil) }
    }

    private struct Wrapper<Payload: Encodable>: Encodable {
        var timestamp: Date
        var data: Payload
        var type: String
    }

    static func frame<Payload: Encodable>(_ type: String, _ payload: Payload) -> Data {
        let json = (try? ListenUpJSON.encoder.encode(Wrapper(timestamp: Date(), data: payload, type: type))) ?? Data("{}".utf8)
        return Data("event: \(type)\ndata: ".utf8) + json + Data("\n\n".utf8)
    }

    static func connectedFrame() -> Data {
        let id = "sse-" + UUID().uuidString.prefix(21)
        return Data("event: connected\ndata: {\"client_id\":\"\(id)\",\"message\":\"SSE connection established\"}\n\n".utf8)
    }

    /// Turns `channel` (whose request was just read) into an event stream.
    static func open(on context: ChannelHandlerContext, hub: DemoEventHub, heartbeat: TimeInterval) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/event-stream")
        headers.add(name: "Cache-Control", value: "no-cache")
        headers.add(name: "Connection", value: "keep-alive")
        headers.add(name: "X-Accel-Buffering", value: "no")
        let channel = context.channel
        channel.write(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers)), promise: nil)
        channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: connectedFrame()))), promise: nil)
        hub.add(channel)
        let interval = TimeAmount.milliseconds(Int64(heartbeat * 1000))
        let ticker = channel.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
            let frame = frame("heartbeat", ["server_time": RFC3339.string(from: Date())])
            channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: frame))), promise: nil)
        }
        channel.closeFuture.whenComplete { _ in ticker.cancel() }
    }
}
