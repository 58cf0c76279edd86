import Foundation
import NIOConcurrencyHelpers

/// Pairing requests waiting for the user's answer, by id.
///
/// A `POST /api/v1/pair` waits in ``ask(_:)``; the app answers with
/// ``answer(_:accept:)``; closing pairing refuses them all (``refuseAll()``).
/// Each request is published as ``PairingEvent/request(_:)`` once it can be
/// answered, and withdrawn (``PairingEvent/requestWithdrawn(_:)``) when it is
/// answered, refused or abandoned.
///
/// Thread-safe: the table sits behind a lock; continuations resume outside it.
final class PendingRequests: Sendable {
    private struct Table {
        var waiting: [UUID: CheckedContinuation<Bool, Never>] = [:]
        /// Waits cancelled before they were registered (so they refuse at once).
        var cancelled: Set<UUID> = []
    }

    private let table = NIOLockedValueBox(Table())
    private let events: EventSubscribers

    init(events: EventSubscribers) { self.events = events }

    /// Publishes `request` and waits for ``answer(_:accept:)``. A cancelled
    /// wait (the server's confirmation timeout) refuses and withdraws it.
    /// - Returns: true if the user accepted.
    func ask(_ request: PairingRequest) async -> Bool {
        let id = request.id
        let (table, events) = (table, events)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Bool, Never>) in
                let alreadyCancelled = table.withLockedValue { table -> Bool in
                    if table.cancelled.remove(id) != nil { return true }
                    table.waiting[id] = waiter
                    return false
                }
                if alreadyCancelled {
                    waiter.resume(returning: false)
                } else {
                    events.send(.request(request))
                }
            }
        } onCancel: {
            let waiter = table.withLockedValue { table -> CheckedContinuation<Bool, Never>? in
                if let waiter = table.waiting.removeValue(forKey: id) { return waiter }
                table.cancelled.insert(id)
                return nil
            }
            if let waiter {
                waiter.resume(returning: false)
                events.send(.requestWithdrawn(id))
            }
        }
    }

    /// Answers a pending request. Unknown or finished ids are ignored.
    func answer(_ id: UUID, accept: Bool) {
        guard let waiter = table.withLockedValue({ $0.waiting.removeValue(forKey: id) }) else { return }
        waiter.resume(returning: accept)
        events.send(.requestWithdrawn(id))
    }

    /// Refuses every pending request.
    func refuseAll() {
        let waiting = table.withLockedValue { table -> [UUID: CheckedContinuation<Bool, Never>] in
            defer { table.waiting.removeAll() }
            return table.waiting
        }
        for (id, waiter) in waiting {
            waiter.resume(returning: false)
            events.send(.requestWithdrawn(id))
        }
    }
}
