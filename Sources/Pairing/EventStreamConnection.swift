import Foundation
import NIOCore
import NIOHTTP1

/// One `GET /api/v1/player/events` response being written: Server-Sent
/// Events on a chunked HTTP body that stays open.
///
/// Frames offered (from any thread) are coalesced: at most one every
/// `minimumInterval`, the latest winning, identical frames skipped. A comment
/// line goes out every `heartbeatInterval` so idle proxies and clients see
/// the connection alive; at each heartbeat the stream is closed if its device
/// is no longer paired (`stillAllowed`) or if the client has stopped reading
/// (the channel is still not writable: a whole interval's worth of output
/// is stuck in the buffers).
///
/// `@unchecked Sendable`: its mutable state and `context` are touched only on
/// `context.eventLoop`; ``offer(_:)`` and ``end(reason:)`` hop there.
final class EventStreamConnection: @unchecked Sendable {
    private let context: ChannelHandlerContext
    private let eventLoop: any EventLoop
    private let minimumInterval: TimeAmount
    private let heartbeatInterval: TimeAmount
    private let stillAllowed: @Sendable () -> Bool
    private var pending: [UInt8]?
    private var lastFrame: [UInt8]?
    private var lastSent = NIODeadline.distantPast
    private var flush: Scheduled<Void>?
    private var heartbeat: RepeatedTask?
    private var finished = false

    /// A stream over the handler `context` whose response head was written.
    /// - Parameters:
    ///   - minimumInterval: the least time between two state frames.
    ///   - heartbeatInterval: the time between two comment lines.
    ///   - stillAllowed: asked at each heartbeat (on the event loop); false ends the stream.
    init(context: ChannelHandlerContext, minimumInterval: TimeAmount, heartbeatInterval: TimeAmount,
         stillAllowed: @escaping @Sendable () -> Bool) {
        self.context = context
        eventLoop = context.eventLoop
        self.minimumInterval = minimumInterval
        self.heartbeatInterval = heartbeatInterval
        self.stillAllowed = stillAllowed
    }

    /// `event: <name>\ndata: <JSON>\n\n`.
    static func frame(event: String, _ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return Array("event: \(event)\ndata: ".utf8) + Array(json) + Array("\n\n".utf8)
    }

    /// Writes the reconnection hint and the first frame at once, and starts the heartbeat. On the event loop.
    func start(first frame: [UInt8]) {
        eventLoop.preconditionInEventLoop()
        write(Array("retry: 3000\n\n".utf8) + frame)
        lastFrame = frame
        lastSent = .now()
        heartbeat = eventLoop.scheduleRepeatedTask(initialDelay: heartbeatInterval, delay: heartbeatInterval) { [weak self] _ in
            self?.beat()
        }
    }

    /// Queues `frame`; it goes out now, or when the interval since the last one has passed.
    func offer(_ frame: [UInt8]) {
        eventLoop.execute { self.offerOnLoop(frame) }
    }

    /// Tells the client why the stream ends (`event: end`), then closes the connection.
    func end(reason: String) {
        eventLoop.execute {
            guard !self.finished else { return }
            self.write(Self.frame(event: "end", ["reason": reason]))
            self.close()
        }
    }

    /// The channel can take more output again: send what waited. On the event loop.
    func writabilityChanged() {
        if context.channel.isWritable { sendIfDue() }
    }

    /// The connection went away: timers stop. On the event loop.
    func stopped() {
        finished = true
        flush?.cancel()
        flush = nil
        heartbeat?.cancel()
        heartbeat = nil
        pending = nil
    }

    private func offerOnLoop(_ frame: [UInt8]) {
        guard !finished, frame != lastFrame else {
            pending = nil // the latest state is what the client already has
            return
        }
        pending = frame
        sendIfDue()
    }

    private func sendIfDue() {
        guard !finished, pending != nil, flush == nil else { return }
        let due = lastSent + minimumInterval
        guard NIODeadline.now() >= due else {
            flush = eventLoop.scheduleTask(deadline: due) { [weak self] in
                self?.flush = nil
                self?.sendIfDue()
            }
            return
        }
        guard let frame = pending, context.channel.isWritable else { return }
        pending = nil
        lastFrame = frame
        lastSent = .now()
        write(frame)
    }

    private func beat() {
        guard !finished else { return }
        guard stillAllowed() else {
            write(Self.frame(event: "end", ["reason": "unauthorized"]))
            close()
            return
        }
        guard context.channel.isWritable else {
            close() // the client stopped reading
            return
        }
        write(Array(": heartbeat\n\n".utf8))
    }

    private func write(_ bytes: [UInt8]) {
        let buffer = context.channel.allocator.buffer(bytes: bytes)
        context.writeAndFlush(NIOAny(HTTPServerResponsePart.body(.byteBuffer(buffer))), promise: nil)
    }

    private func close() {
        let channel = context.channel
        stopped()
        context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
