import Foundation

/// Turns payloads into ``QRImage``s off the main thread, latest request wins.
///
/// Each ``render(_:)`` gets a new, increasing token and cancels the render
/// before it. A finished image is published (through `publish` and
/// ``results``) only if its token is still the latest and it was not
/// cancelled, so a screen never shows an outdated code; a cancelled render
/// never publishes. Encoding runs in a detached task, not on the actor and
/// not on the caller's thread.
///
/// `publish` is called on the actor's executor, never on the main thread:
/// hop to `@MainActor` yourself (e.g. `Task { @MainActor in … }`).
public actor QRRenderer {
    /// One published image.
    public struct Rendered: Sendable, Equatable {
        /// The request's token (increasing per renderer).
        public let token: UInt64
        /// The payload that was encoded.
        public let payload: String
        /// The drawn symbol.
        public let image: QRImage
    }

    /// The payload → matrix step, a port: the app's is libqrencode
    /// (`QRRenderer.Encoder.libqrencode` in the `QRCode` module, set in
    /// ``Dependencies/qrEncoder`` by the composition root); tests make
    /// renders slow or failing with their own.
    /// (A struct, not a bare closure, so a trailing closure at `init` is always `publish`.)
    public struct Encoder: Sendable {
        let encode: @Sendable (String) throws -> QRMatrix

        /// Wraps a payload → matrix function.
        public init(_ encode: @escaping @Sendable (String) throws -> QRMatrix) { self.encode = encode }

        /// Encodes `payload`.
        public func callAsFunction(_ payload: String) throws -> QRMatrix { try encode(payload) }

        /// No encoder: every payload is refused, so no code is drawn
        /// (previews and tests without the `QRCode` module).
        public static let unavailable = Encoder { _ in throw Unavailable() }

        /// Why ``unavailable`` refuses.
        public struct Unavailable: Error, CustomStringConvertible {
            public var description: String { "no QR encoder in this build" }
        }
    }

    /// Every published image, in order. A single consumer is expected.
    public nonisolated let results: AsyncStream<Rendered>
    private let continuation: AsyncStream<Rendered>.Continuation
    private let publish: @Sendable (Rendered) -> Void
    private let encoder: Encoder
    private let moduleSize: Int
    private let quietZone: Int
    private var latest: UInt64 = 0
    private var running: Task<Void, Never>?

    /// - Parameters:
    ///   - moduleSize: pixels per module.
    ///   - quietZone: light modules around the symbol.
    ///   - encoder: the payload → matrix step.
    ///   - publish: called with each published image, on the actor.
    public init(moduleSize: Int = 8, quietZone: Int = 4,
                encoder: Encoder,
                publish: @escaping @Sendable (Rendered) -> Void = { _ in }) {
        (results, continuation) = AsyncStream.makeStream(of: Rendered.self, bufferingPolicy: .bufferingNewest(1))
        self.moduleSize = moduleSize
        self.quietZone = quietZone
        self.encoder = encoder
        self.publish = publish
    }

    deinit { continuation.finish() }

    /// The token of the newest request (0 before the first).
    public var latestToken: UInt64 { latest }

    /// Starts rendering `payload`, cancelling any render in flight.
    /// - Returns: the request's token.
    @discardableResult
    public func render(_ payload: String) -> UInt64 {
        running?.cancel()
        latest &+= 1
        let token = latest
        let encoder = encoder, moduleSize = moduleSize, quietZone = quietZone
        running = Task.detached(priority: .userInitiated) { [weak self] in
            guard !Task.isCancelled, let matrix = try? encoder.encode(payload), !Task.isCancelled else { return }
            let image = QRImage(matrix: matrix, moduleSize: moduleSize, quietZone: quietZone)
            guard !Task.isCancelled else { return }
            await self?.finish(Rendered(token: token, payload: payload, image: image))
        }
        return token
    }

    /// Cancels the render in flight (if any): it will not publish.
    public func cancel() {
        running?.cancel()
        running = nil
        latest &+= 1 // whatever is in flight is now stale, even if it already finished encoding
    }

    private func finish(_ rendered: Rendered) {
        guard rendered.token == latest else { return }
        running = nil
        publish(rendered)
        continuation.yield(rendered)
    }
}
