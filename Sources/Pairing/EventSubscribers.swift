import Foundation
import NIOConcurrencyHelpers

/// The server's event subscriptions: each event goes to every live one, in
/// the order it was sent.
///
/// Thread-safe: the table sits behind a lock, and events are yielded outside it.
final class EventSubscribers: Sendable {
    private let continuations = NIOLockedValueBox<[UUID: AsyncStream<PairingEvent>.Continuation]>([:])

    /// A new subscription; it ends at ``finish()`` or when its consumer stops iterating.
    func subscribe() -> AsyncStream<PairingEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: PairingEvent.self, bufferingPolicy: .unbounded)
        let id = UUID()
        continuation.onTermination = { [weak self] _ in
            _ = self?.continuations.withLockedValue { $0.removeValue(forKey: id) }
        }
        continuations.withLockedValue { $0[id] = continuation }
        return stream
    }

    /// Sends `event` to every subscription.
    func send(_ event: PairingEvent) {
        for continuation in continuations.withLockedValue({ Array($0.values) }) { continuation.yield(event) }
    }

    /// Ends every subscription.
    func finish() {
        for continuation in continuations.withLockedValue({ Array($0.values) }) { continuation.finish() }
    }
}
