import Foundation
import Logging
import Observation

/// Discover: what the other readers of the server listen to and finish,
/// newest first (the activity feed the official apps show on their
/// Discover screen, upstream `app/iosApp/ListenUp/Features/Discover/`
/// `DiscoverView.swift`, `Components/ActivitySectionView.swift`).
///
/// The feed is kRPC's `activities` domain joined with `public_profiles`
/// and the cached books (``BrowseStore/activityFeed(limit:)``), read off
/// the main actor, and again when a sync or a live event changed the cache
/// (``cacheChanged()``). REST v1 has no sync feed for it (addendum §7): its
/// client reads the newest of `GET /api/v1/social/feed` on each sync
/// instead. A connection with neither (an offline start with nothing kept)
/// offers no Discover (``isAvailable``).
///
/// The session makes one beside the library (``SignedInSession/discover``).
/// Main actor only.
@MainActor @Observable
public final class DiscoverModel {
    /// How many entries are shown at most.
    public nonisolated static let limit = 50

    /// The feed, newest first.
    public private(set) var entries: [ActivityFeedEntry] = []
    /// How many reads of the cache ended (tests and the headless front wait on it).
    public private(set) var reads = 0
    /// Who else listens now, live rows first (``ServerConnection/currentlyListening()``):
    /// asked of the server, not kept in the cache, after each sync (the
    /// first one ends the session's start), when the live events connect,
    /// and when the server says it changed.
    public private(set) var listeningNow: [ListeningNow] = []

    /// Whether this server has a feed (kRPC's `activities` domain, REST
    /// v1's `/social/feed`), or a feed was kept from one (an offline start).
    public var isAvailable: Bool { previewAvailable || (server?.hasActivityFeed ?? false) || !entries.isEmpty || !listeningNow.isEmpty }

    @ObservationIgnored private let server: (any ServerConnection)?
    @ObservationIgnored private let store: (any BrowseStore)?
    @ObservationIgnored private let logger: Logger
    @ObservationIgnored private let latest = LatestRead()
    @ObservationIgnored private var previewAvailable = false
    @ObservationIgnored private var listeningNowTask: Task<Void, Never>?
    /// Asked again while a read was under way: one more follows it.
    @ObservationIgnored private var listeningNowAgain = false

    public init(dependencies: Dependencies, server: (any ServerConnection)?, store: (any BrowseStore)?) {
        self.server = server
        self.store = store
        logger = dependencies.logger
    }

    /// A feed read from `store` as if the server had one, and `listeningNow`
    /// as if it had answered so (previews, which have no server).
    public init(previewStore store: any BrowseStore, listeningNow: [ListeningNow] = [], dependencies: Dependencies) {
        server = nil
        self.store = store
        self.listeningNow = listeningNow
        logger = dependencies.logger
        previewAvailable = true
    }

    /// Reads the feed from the cache (the first time).
    /// Who listens now is asked once the session's first sync ends
    /// (``listeningNowMayHaveChanged()``), not here: every start syncs.
    public func start() {
        reread()
    }

    /// Asks the server who listens now (one question at a time; asked
    /// again meanwhile, once more after it). A failure keeps what was shown.
    public func listeningNowMayHaveChanged() {
        guard let server else { return }
        guard listeningNowTask == nil else {
            listeningNowAgain = true
            return
        }
        let logger = logger
        listeningNowTask = Task { [weak self] in
            repeat {
                self?.listeningNowAgain = false
                do throws(ServerError) {
                    let rows = try await server.currentlyListening()
                    guard let self, !Task.isCancelled else { return }
                    if rows != self.listeningNow { self.listeningNow = rows }
                } catch {
                    logger.debug("Could not ask who listens now", metadata: ["code": "\(error.code)"])
                }
            } while self?.listeningNowAgain == true && !Task.isCancelled
            self?.listeningNowTask = nil
        }
    }

    /// The cache changed (a sync, a live event): the feed is read again.
    public func cacheChanged() {
        reread()
    }

    public func stop() {
        latest.cancel()
        listeningNowTask?.cancel()
        listeningNowTask = nil
    }

    @discardableResult
    private func reread() -> Task<Void, Never>? {
        guard let store else { return nil }
        let logger = logger
        return latest.start({ () -> [ActivityFeedEntry]? in
            do { return try store.activityFeed(limit: Self.limit) } catch {
                logger.warning("Could not read the activity feed", metadata: ["reason": "\(error)"])
                return nil
            }
        }, show: { [weak self] read in
            guard let self else { return }
            if let read, read != self.entries { self.entries = read }
            self.reads += 1
        })
    }
}
