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
    func syncFailed(_ error: ServerError) -> Bool
    /// Live events started or stopped flowing.
    func liveChanged(_ live: Bool)
    /// Live events changed the cache: these books and, if `changes.progress`,
    /// the progress. Returns once the screen shows them.
    func cacheChanged(_ changes: LibraryCacheChanges) async
}

/// What a ``LibrarySyncSession`` learns that concerns the whole signed-in
/// session rather than the library shown (``SignedInSession`` wires it to
/// the player, the downloads and the account's preferences), on the main
/// actor.
@MainActor
protocol LibrarySessionEvents: AnyObject {
    /// The server could not be reached (a sync failed on the network, the
    /// live events dropped), or answered again (a sync finished, the live
    /// events connected). Told at every such moment; repeats are the
    /// listener's to ignore.
    func serverUnreachable(_ unreachable: Bool)
    /// Another device (or this one) reported a position in a book.
    func listeningPositionChanged(_ position: ListeningPosition)
    /// The account's preferences may have changed on the server: the live
    /// events (re)connected (a change pushed meanwhile was missed), or the
    /// server said so.
    func accountPreferencesMayHaveChanged()
    /// The account is gone on the server.
    func accountDeleted(reason: String?)
    /// A sync or a live event changed the cached books or what browsing
    /// reads (series, contributors): the browse lists and pages are read again.
    func libraryCacheChanged()
    /// Who else listens now may have changed: the server said so (kRPC),
    /// the live events (re)connected (a nudge may have been missed), or a
    /// sync finished (REST v1 says nothing otherwise).
    func listeningNowMayHaveChanged()
}

/// What live events changed in the cache since the screen last read it.
struct LibraryCacheChanges: Equatable, Sendable {
    /// Books stored (added or replaced).
    var upserted: Set<String> = []
    /// Books removed.
    var deleted: Set<String> = []
    /// Listening progress changed.
    var progress = false

    /// How many books changed.
    var bookCount: Int { upserted.count + deleted.count }

    /// Adds one event's books; the latest word on a book wins.
    mutating func record(upserted stored: [String], deleted removed: [String]) {
        for id in stored {
            deleted.remove(id)
            upserted.insert(id)
        }
        for id in removed {
            upserted.remove(id)
            deleted.insert(id)
        }
    }
}

/// Keeps one signed-in library's cache in step with the server: a sync on
/// demand (full the first time, then deltas; one at a time), then the live
/// event stream (which reconnects by itself; each reconnection catches up
/// with a delta, as events are not replayed), a delta now and then, and
/// the screen told what events changed in the cache (it reads just those
/// books): at once after a quiet spell, then at most every 150 ms while
/// they keep coming.
///
/// Main actor only. The work runs in tasks it owns; ``stop()`` (or the
/// screen going away) ends them.
@MainActor
final class LibrarySyncSession {
    private let server: any ServerConnection
    private let store: any LibraryStore
    private let dependencies: Dependencies
    private weak var screen: (any LibrarySyncScreen)?
    private weak var events: (any LibrarySessionEvents)?
    private let replaysLiveEvents: Bool

    private var syncTask: Task<Void, Never>?
    private var liveTask: Task<Void, Never>?
    private var periodicTask: Task<Void, Never>?
    private var refreshTask: Task<Void, Never>?
    private var lastSync: ContinuousClock.Instant?
    /// When the last re-read for live changes began.
    private var lastRefresh: ContinuousClock.Instant?
    /// What live events changed since that re-read.
    private var pendingChanges = LibraryCacheChanges()
    private(set) var isSyncing = false
    /// A sync was asked for while one ran, by something that needs one
    /// after what it saw (an event saying the data changed, the user's
    /// reload): it runs when the running one ends.
    private var syncAgain = false
    /// Browse domains to sync on their own (``syncDomains(_:)``), and the task doing it.
    private var pendingDomains: Set<BrowseDomain> = []
    private var domainTask: Task<Void, Never>?
    /// What the drift checks after each sync remember (LibraryDrift.swift).
    private let drift = LibraryDriftCheck.Memory()

    /// - Parameter replaysLiveEvents: the live stream resumes where the sync
    ///   left off (kRPC's `observeEvents` from the sync's revision), so
    ///   nothing changes unseen between the two; REST v1's stream does not.
    init(server: any ServerConnection, store: any LibraryStore, dependencies: Dependencies, screen: any LibrarySyncScreen,
         events: (any LibrarySessionEvents)?, replaysLiveEvents: Bool = false) {
        self.replaysLiveEvents = replaysLiveEvents
        self.server = server
        self.store = store
        self.dependencies = dependencies
        self.screen = screen
        self.events = events
    }

    /// Runs a sync, unless one runs.
    /// - Parameter afterRunning: when one runs, run another once it ends
    ///   (the running one may have read the server before the change that
    ///   prompted this call).
    func sync(afterRunning: Bool = false) {
        guard !isSyncing else {
            if afterRunning { syncAgain = true }
            return
        }
        isSyncing = true
        screen?.syncStarted()
        let (server, store, logger, drift) = (server, store, dependencies.logger, drift)
        syncTask = Task { [weak self] in
            defer {
                self?.isSyncing = false
                self?.screen?.syncEnded()
                if self?.syncAgain == true, !Task.isCancelled {
                    self?.syncAgain = false
                    self?.sync()
                }
            }
            let firstSync = !((try? store.syncState().fullSyncDone) ?? false)
            let expected = firstSync ? try? await server.libraryBookCount() : nil
            if let expected { self?.screen?.syncProgressed(stored: 0, expected: expected) }
            do throws(ServerError) {
                let changed = try await LibrarySync(server: server, store: store, logger: logger).run { [weak self] stored in
                    await self?.progressed(stored: stored, expected: expected)
                }
                // The browse domains before the drift check: the tabs and
                // pages wait on them, while a repair is rare.
                let browsed = await Self.syncBrowse(server: server, store: store, logger: logger)
                // Caught up: does the cache still match the server (LibraryDrift.swift)?
                let repaired = await LibraryDriftCheck(server: server, store: store, logger: logger, memory: drift).check()
                guard !Task.isCancelled, let self else { return }
                self.lastSync = .now
                self.events?.serverUnreachable(false)
                await self.screen?.synced(changed: changed + repaired)
                if changed + repaired + browsed > 0 { self.events?.libraryCacheChanged() }
                self.events?.listeningNowMayHaveChanged()
                self.followLiveEvents()
            } catch {
                guard !Task.isCancelled, let self, error != .sessionLapsed else { return }
                if case .transport = error { self.events?.serverUnreachable(true) }
                if self.screen?.syncFailed(error) == true { self.followLiveEvents() }
            }
        }
    }

    /// Syncs the browse domains after the books (BrowseSync.swift). The
    /// books are what the library cannot do without: a server that fails
    /// here is logged, and the books stay synced.
    /// - Returns: how many rows changed.
    private nonisolated static func syncBrowse(server: any ServerConnection, store: any LibraryStore, logger: Logger) async -> Int {
        do {
            return try await BrowseSync(server: server, store: store, logger: logger).run()
        } catch {
            logger.warning("Could not sync the browse domains (people, series, genres, tags, moods, collections, shelves)", metadata: ["reason": "\(error)"])
            return 0
        }
    }

    /// Syncs `domains` alone (their deltas; no books, no drift check). A
    /// whole sync under way covers them if it has not read them yet: one
    /// more runs after it. Domains asked for while this runs are synced
    /// next, together.
    func syncDomains(_ domains: Set<BrowseDomain>) {
        if isSyncing {
            syncAgain = true
            return
        }
        pendingDomains.formUnion(domains)
        guard domainTask == nil else { return }
        let (server, store, logger) = (server, store, dependencies.logger)
        domainTask = Task { [weak self] in
            while let self, !Task.isCancelled, !self.pendingDomains.isEmpty {
                let batch = self.pendingDomains
                self.pendingDomains = []
                var changed = 0
                for domain in BrowseDomain.allCases where batch.contains(domain) {
                    do {
                        changed += try await BrowseSync(server: server, store: store, logger: logger).run(domain)
                    } catch {
                        logger.warning("Could not sync a browse domain", metadata: ["domain": "\(domain.rawValue)", "reason": "\(error)"])
                    }
                }
                if changed > 0, !Task.isCancelled { self.events?.libraryCacheChanged() }
            }
            self?.domainTask = nil
        }
    }

    private func progressed(stored: Int, expected: Int?) {
        screen?.syncProgressed(stored: stored, expected: expected)
    }

    /// Ends every task.
    func stop() {
        for task in [syncTask, liveTask, periodicTask, refreshTask, domainTask] { task?.cancel() }
        domainTask = nil
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

    /// The books' delta, then the browse domains' (no drift check), shown
    /// when it changed something. A sync under way gets another after it.
    private func catchUp() {
        guard !isSyncing else {
            syncAgain = true
            return
        }
        isSyncing = true
        let (server, store, logger) = (server, store, dependencies.logger)
        syncTask = Task { [weak self] in
            defer {
                self?.isSyncing = false
                if self?.syncAgain == true, !Task.isCancelled {
                    self?.syncAgain = false
                    self?.sync()
                }
            }
            do throws(ServerError) {
                let changed = try await LibrarySync(server: server, store: store, logger: logger).run()
                let browsed = await Self.syncBrowse(server: server, store: store, logger: logger)
                logger.debug("Caught up after connecting", metadata: ["changed": "\(changed)", "browseChanged": "\(browsed)"])
                guard !Task.isCancelled, let self else { return }
                if changed > 0 { await self.screen?.synced(changed: changed) }
                if changed + browsed > 0 { self.events?.libraryCacheChanged() }
            } catch {
                logger.debug("Could not catch up after connecting", metadata: ["reason": "\(error)"])
            }
        }
    }

    private func apply(_ change: LibraryLiveUpdates.Change) {
        switch change {
        case .connected:
            screen?.liveChanged(true)
            events?.serverUnreachable(false)
            events?.accountPreferencesMayHaveChanged()
            events?.listeningNowMayHaveChanged()
            // Events are not replayed on REST v1: catch up on what was
            // missed. Just after a whole sync, the books' and the browse
            // domains' deltas (what changed after the sync read them, and
            // before the stream opened, reached no stream), without the
            // drift check; on kRPC the stream resumes from the sync's
            // revision, so nothing.
            if let lastSync, ContinuousClock.now - lastSync < .seconds(5) {
                if !replaysLiveEvents { catchUp() }
                return
            }
            sync()
        case .disconnected:
            screen?.liveChanged(false)
            events?.serverUnreachable(true)
        case .booksChanged(let upserted, let deleted):
            pendingChanges.record(upserted: upserted, deleted: deleted)
            scheduleRefresh()
        case .progressChanged(let position):
            if let position { events?.listeningPositionChanged(position) }
            pendingChanges.progress = true
            scheduleRefresh()
        case .needsDeltaSync:
            sync(afterRunning: true)
        case .browseChanged(let domains):
            syncDomains(domains)
        case .userDeleted(let reason):
            events?.accountDeleted(reason: reason)
        case .preferencesChanged:
            events?.accountPreferencesMayHaveChanged()
        case .listeningNowChanged:
            events?.listeningNowMayHaveChanged()
        }
    }

    /// Hands the screen what live events changed: at once for a change
    /// after a quiet spell (a live event shows without delay), otherwise
    /// 150 ms after the last hand-over began, so a burst of events costs one
    /// read per 150 ms and its last change is never left unread.
    private func scheduleRefresh() {
        guard refreshTask == nil else { return }
        let interval = Duration.milliseconds(150)
        let wait = lastRefresh.map { interval - (ContinuousClock.now - $0) } ?? .zero
        refreshTask = Task { [weak self] in
            if wait > .zero { try? await Task.sleep(for: wait) }
            guard let self else { return }
            self.refreshTask = nil
            self.lastRefresh = .now
            let changes = self.pendingChanges
            self.pendingChanges = LibraryCacheChanges()
            await self.screen?.cacheChanged(changes)
            if !changes.upserted.isEmpty || !changes.deleted.isEmpty { self.events?.libraryCacheChanged() }
        }
    }
}
