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

    /// Whether this server has a feed (kRPC's `activities` domain, REST
    /// v1's `/social/feed`), or a feed was kept from one (an offline start).
    public var isAvailable: Bool { previewAvailable || (server?.hasActivityFeed ?? false) || !entries.isEmpty }

    @ObservationIgnored private let server: (any ServerConnection)?
    @ObservationIgnored private let store: (any BrowseStore)?
    @ObservationIgnored private let logger: Logger
    @ObservationIgnored private let latest = LatestRead()
    @ObservationIgnored private var previewAvailable = false

    public init(dependencies: Dependencies, server: (any ServerConnection)?, store: (any BrowseStore)?) {
        self.server = server
        self.store = store
        logger = dependencies.logger
    }

    /// A feed read from `store` as if the server had one (previews, which have no server).
    public init(previewStore store: any BrowseStore, dependencies: Dependencies) {
        server = nil
        self.store = store
        logger = dependencies.logger
        previewAvailable = true
    }

    /// Reads the feed from the cache (the first time).
    public func start() {
        reread()
    }

    /// The cache changed (a sync, a live event): the feed is read again.
    public func cacheChanged() {
        reread()
    }

    public func stop() {
        latest.cancel()
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
