import Foundation

/// What the sync session and the live updates tell the library.
extension LibraryModel: LibrarySyncScreen {
    func syncStarted() {
        syncProgress = SyncProgress(stored: 0, expected: nil)
        if books.isEmpty, case .failed = status { status = .loading }
    }

    func syncProgressed(stored: Int, expected: Int?) {
        syncProgress = SyncProgress(stored: stored, expected: expected)
    }

    func syncEnded() {
        syncProgress = nil
    }

    func synced(changed: Int) async {
        // A delta that changed nothing (the usual start) leaves the books
        // shown as they are: no second read of the whole cache.
        if changed > 0 || !hasLoadedCache { await loadCache() }
        serverAnswered()
        status = .loaded
    }

    func syncFailed(_ error: ServerError) -> Bool {
        if case .transport = error, !books.isEmpty {
            isOffline = true
            status = .loaded
            return true
        }
        status = .failed(code: error.code, message: error.userMessage)
        if ServerGenerationCheck.suggestsAnotherGeneration(error) { checkServerGeneration() }
        return false
    }

    /// The server refused the sync as one of the other generation would:
    /// checks it again (ServerGenerationCheck.swift), and signs in anew if
    /// it was upgraded or rolled back. The cache is emptied first: its books
    /// and where its syncs stopped (a date on REST v1, a revision on kRPC)
    /// describe the server as it was.
    func checkServerGeneration() {
        guard let session, generationCheck == nil else { return }
        let (dependencies, send, store) = (dependencies, send, store)
        generationCheck = Task {
            guard let server = await ServerGenerationCheck.run(for: session, dependencies: dependencies), !Task.isCancelled else { return }
            do {
                if let store { try store.apply([], deleting: try store.listedBooks().map(\.id), state: LibrarySyncState()) }
            } catch {
                dependencies.logger.warning("The library cache could not be emptied", metadata: ["reason": "\(error)"])
            }
            send(.serverChangedGeneration(server))
        }
    }

    func liveChanged(_ live: Bool) {
        isLive = live
        if live { serverAnswered() }
    }

    /// The server answered (a sync, the live stream): the books are no
    /// longer shown as offline. (What else the session does then is the
    /// ``SignedInSession``'s: the sync tells it too.)
    func serverAnswered() {
        isOffline = false
    }

    func cacheChanged(_ changes: LibraryCacheChanges) async {
        await applyLiveChanges(changes)
    }
}
