import ListenUpCore

/// Items in arrival order for one waiter at a time, with a deadline.
final class TestInbox<Element: Sendable>: Sendable {
    private typealias Waiter = (id: Int, matches: @Sendable (Element) -> Bool, continuation: CheckedContinuation<Element, any Error>)
    private struct State { var items: [Element] = [], waiter: Waiter?, lastID = 0 }
    private let state = LockedValue(State())

    func append(_ element: Element) {
        let waiter = state.withLock { state -> Waiter? in
            if let waiter = state.waiter, waiter.matches(element) { state.waiter = nil; return waiter }
            state.items.append(element)
            return nil
        }
        waiter?.continuation.resume(returning: element)
    }

    /// Takes every item queued and not yet waited for.
    func drain() -> [Element] {
        state.withLock { state in
            defer { state.items.removeAll() }
            return state.items
        }
    }

    func next(within timeout: Duration, waitingFor what: String,
              where matches: @escaping @Sendable (Element) -> Bool) async throws -> Element {
        try await withCheckedThrowingContinuation { continuation in
            let id: Int? = state.withLock { state in
                if let index = state.items.firstIndex(where: matches) {
                    continuation.resume(returning: state.items.remove(at: index))
                    return nil
                }
                state.lastID += 1
                state.waiter = (state.lastID, matches, continuation)
                return state.lastID
            }
            guard let id else { return }
            Task {
                try? await Task.sleep(for: timeout)
                let expired = state.withLock { state -> Waiter? in
                    guard state.waiter?.id == id else { return nil }
                    defer { state.waiter = nil }
                    return state.waiter
                }
                expired?.continuation.resume(throwing: ScriptedWebSocketServer.TimedOut(description: "timed out waiting for \(what)"))
            }
        }
    }
}
