import Foundation
import Logging

/// What a ``LibrarySyncSession`` tells the screen it works for, on the main
/// actor. The library model shows these; the session keeps the timing.
@MainActor
protocol LibrarySyncScreen: AnyObject {
    /// A sync began.
    func syncStarted()
    /// How far the running sync is: books stored so far in this run, and the
    /// server's total on a first sync (once known).
    func syncProgressed(stored: Int, expected: Int?)
    /// The sync is over (finished, failed or cancelled).
    func syncEnded()
    /// The sync finished; `changed` books were stored or deleted. Returns
    /// once the screen shows the result.
    func synced(changed: Int) async
    /// The sync failed (never for a lapsed session: the connection's lapse
    /// handler moves the app on).
    /// - Returns: whether to keep following the server (its books are
    ///   shown offline and it may come back).
    func syncFailed(_ error: APIClientError) -> Bool
    /// Live events started or stopped flowing.
    func liveChanged(_ live: Bool)
    /// Live events changed the cache: read it again.
    func cacheChanged() async
    /// The account is gone on the server.
    func accountDeleted()
    /// Another device (or this one) reported a position in a book.
    func listeningPositionChanged(_ position: ListeningPosition)
}

/// Keeps one signed-in library's cache in step with the server: a sync on
/// demand (full the first time, then deltas; one at a time), then the live
/// event stream (which reconnects by itself; each reconnection catches up
/// with a delta, as events are not replayed), a delta now and then, and a
/// re-read of the cache at most every 150 ms while events change it.
///
/// Main actor only. The work runs in tasks it owns; ``stop()`` (or the
/// screen going away) ends them.
@MainActor
final class LibrarySyncSession {
    private let server: any ServerConnection
    private let store: any LibraryStore
    private let dependencies: Dependencies
    private weak var screen: (any LibrarySyncScreen)?

    private var syncTask: Task<Void, Never>?
    private var liveTask: Task<Void, Never>?
    private var periodicTask: Task<Void, Never>?
    private var refreshTask: Task<Void, Never>?
    private var lastSync: ContinuousClock.Instant?
    private(set) var isSyncing = false

    init(server: any ServerConnection, store: any LibraryStore, dependencies: Dependencies, screen: any LibrarySyncScreen) {
        self.server = server
        self.store = store
        self.dependencies = dependencies
        self.screen = screen
    }

    /// Runs a sync, unless one runs.
    func sync() {
        guard !isSyncing else { return }
        isSyncing = true
        screen?.syncStarted()
        let (server, store, logger) = (server, store, dependencies.logger)
        syncTask = Task { [weak self] in
            defer {
                self?.isSyncing = false
                self?.screen?.syncEnded()
            }
            let firstSync = !((try? store.syncState().fullSyncDone) ?? false)
            let expected = firstSync ? try? await server.libraryBookCount() : nil
            if let expected { self?.screen?.syncProgressed(stored: 0, expected: expected) }
            do throws(APIClientError) {
                let changed = try await LibrarySync(server: server, store: store, logger: logger).run { [weak self] stored in
                    await self?.progressed(stored: stored, expected: expected)
                }
                guard !Task.isCancelled, let self else { return }
                self.lastSync = .now
                await self.screen?.synced(changed: changed)
                self.followLiveEvents()
            } catch {
                guard !Task.isCancelled, let self, error != .sessionLapsed else { return }
                if self.screen?.syncFailed(error) == true { self.followLiveEvents() }
            }
        }
    }

    private func progressed(stored: Int, expected: Int?) {
        screen?.syncProgressed(stored: stored, expected: expected)
    }

    /// Ends every task.
    func stop() {
        for task in [syncTask, liveTask, periodicTask, refreshTask] { task?.cancel() }
        syncTask = nil
        liveTask = nil
        periodicTask = nil
        refreshTask = nil
    }

    /// Follows the event stream and runs a delta sync now and then (once).
    private func followLiveEvents() {
        guard liveTask == nil else { return }
        let live = LibraryLiveUpdates(server: server, store: store, backoff: dependencies.liveUpdatesBackoff,
                                      logger: dependencies.logger)
        liveTask = Task { [weak self] in
            await live.run { [weak self] change in
                await self?.apply(change)
            }
        }
        let interval = dependencies.periodicSync
        periodicTask = Task { [weak self] in
            while !Task.isCancelled {
                do { try await Task.sleep(for: interval) } catch { return }
                self?.sync()
            }
        }
    }

    private func apply(_ change: LibraryLiveUpdates.Change) {
        switch change {
        case .connected:
            screen?.liveChanged(true)
            // Events are not replayed: catch up on what was missed, unless
            // a sync has just run.
            if let lastSync, ContinuousClock.now - lastSync < .seconds(5) { return }
            sync()
        case .disconnected:
            screen?.liveChanged(false)
        case .booksChanged:
            scheduleRefresh()
        case .progressChanged(let position):
            if let position { screen?.listeningPositionChanged(position) }
            scheduleRefresh()
        case .needsDeltaSync:
            sync()
        case .userDeleted:
            screen?.accountDeleted()
        }
    }

    /// Re-reads the cache after live changes, at most every 150 ms.
    private func scheduleRefresh() {
        guard refreshTask == nil else { return }
        refreshTask = Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(150))
            self?.refreshTask = nil
            await self?.screen?.cacheChanged()
        }
    }
}
