/// Reads from the cache off the main actor, where only the latest read
/// counts: a new read cancels the one under way, and a read that a newer
/// one overtook is never shown over it. The browse, shelves and Discover
/// models read their lists again this way after every change.
@MainActor
final class LatestRead {
    private var task: Task<Void, Never>?
    /// Bumped by every read: a read under way may predate the change that
    /// started the next.
    private var version = 0

    /// Runs `read` off the main actor, then `show` with its result, unless
    /// a newer read began meanwhile or this one was cancelled.
    /// - Returns: the read, to wait for it (tests, an action that must see
    ///   its own change).
    @discardableResult
    func start<Value: Sendable>(_ read: @escaping @Sendable () -> Value, show: @escaping @MainActor (Value) -> Void) -> Task<Void, Never> {
        version &+= 1
        let mine = version
        task?.cancel()
        let task = Task { [weak self] in
            let value = await Task.detached(priority: .userInitiated, operation: read).value
            guard let self, !Task.isCancelled, mine == self.version else { return }
            show(value)
        }
        self.task = task
        return task
    }

    /// Cancels the read under way, if any.
    func cancel() {
        task?.cancel()
        task = nil
    }
}
