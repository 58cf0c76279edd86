import Foundation
import Logging
import Observation

/// Home: what to continue, this week's listening (minutes per day, the
/// streak, the total, the top genres) and the books added last. The stats
/// come from the server (``ServerConnection/listeningStats(days:)``) and are
/// kept in the library cache, so an offline start shows the last ones.
/// *Continue listening* is the player's (``PlayerModel/continueListening``).
///
/// The session makes one beside the library (``SignedInSession/home``).
/// Main actor only.
@MainActor @Observable
public final class HomeModel {
    /// What Home shows of the stats.
    public struct Summary: Equatable, Sendable {
        /// Minutes of each of the last seven days, today last.
        public var minutesByDay: [Int]
        /// The abbreviated weekday names of those days, in this locale.
        public var dayNames: [String]
        public var streakDays: Int
        public var totalMinutes: Int
        /// The top genres of the week, most listened first, minutes.
        public var topGenres: [(name: String, minutes: Int)]
        /// The stats are the last ones kept (the server did not answer now).
        public var isCached: Bool

        public static func == (left: Summary, right: Summary) -> Bool {
            left.minutesByDay == right.minutesByDay && left.dayNames == right.dayNames && left.streakDays == right.streakDays
                && left.totalMinutes == right.totalMinutes && left.isCached == right.isCached
                && left.topGenres.map(\.name) == right.topGenres.map(\.name) && left.topGenres.map(\.minutes) == right.topGenres.map(\.minutes)
        }
    }

    /// The week's listening; nil before any was read (or when the server keeps none).
    public private(set) var summary: Summary?
    /// The newest books of the library, newest first (followed from the
    /// first ``refresh()``).
    public private(set) var recentlyAdded: [LibraryModel.Book] = []
    /// A refresh is running.
    public private(set) var isRefreshing = false
    /// How many refreshes ended (tests and the headless front wait on it).
    public private(set) var refreshes = 0

    @ObservationIgnored private let server: (any ServerConnection)?
    @ObservationIgnored private let store: (any BrowseStore)?
    @ObservationIgnored private weak var library: LibraryModel?
    @ObservationIgnored private let logger: Logger
    @ObservationIgnored private var refreshTask: Task<Void, Never>?
    @ObservationIgnored private var libraryObservation: StateObservation?
    @ObservationIgnored var now: @Sendable () -> Date = { Date() }
    /// The session's shelves: a refresh asks for others' shelves too.
    @ObservationIgnored public weak var shelves: ShelvesModel?
    /// The session's activity feed (Home's Discover section); nil in previews without one.
    @ObservationIgnored public var discover: DiscoverModel?
    @ObservationIgnored var calendar = Calendar.current

    /// How many books *Recently added* shows.
    public static let recentLimit = 12

    public init(dependencies: Dependencies, server: (any ServerConnection)?, store: (any BrowseStore)?, library: LibraryModel?) {
        self.server = server
        self.store = store
        self.library = library
        logger = dependencies.logger
    }

    /// Shows the kept stats at once, then asks the server for new ones.
    /// The first refresh also starts following the library for *Recently
    /// added* (not before: a start that never shows Home orders no books
    /// by date).
    public func refresh() {
        if libraryObservation == nil, let library {
            libraryObservation = StateObservation { [weak self, weak library] in
                guard let library else { return }
                self?.recentlyAdded = library.recentlyAdded(limit: Self.recentLimit)
            }
        }
        guard refreshTask == nil else { return }
        isRefreshing = true
        let (server, store, logger) = (server, store, logger)
        refreshTask = Task { [weak self] in
            let kept = await Task.detached { try? store?.listeningStats() }.value
            if let kept, self?.summary == nil { self?.show(kept, cached: true) }
            var fresh: ListeningStats?
            do {
                fresh = try await server?.listeningStats(days: 7)
            } catch {
                logger.info("Listening stats not read", metadata: ["reason": "\(error)"])
            }
            guard let self, !Task.isCancelled else { return }
            if let fresh {
                self.show(fresh, cached: false)
                await Task.detached {
                    do { try store?.saveListeningStats(fresh) } catch {
                        logger.warning("Could not keep the listening stats", metadata: ["reason": "\(error)"])
                    }
                }.value
            }
            await self.shelves?.refreshDiscovered()
            self.isRefreshing = false
            self.refreshTask = nil
            self.refreshes += 1
        }
    }

    public func stop() {
        refreshTask?.cancel()
        refreshTask = nil
        libraryObservation?.cancel()
        libraryObservation = nil
    }

    private func show(_ stats: ListeningStats, cached: Bool) {
        let today = now()
        let names: [String] = (0..<7).reversed().map { back in
            let day = calendar.date(byAdding: .day, value: -back, to: today) ?? today
            let formatter = DateFormatter()
            formatter.locale = Localization.timeLocale
            formatter.calendar = calendar
            formatter.timeZone = calendar.timeZone
            formatter.setLocalizedDateFormatFromTemplate("EEE")
            return formatter.string(from: day)
        }
        summary = Summary(minutesByDay: stats.minutesByDay(endingOn: today, calendar: calendar), dayNames: names,
                          streakDays: stats.currentStreakDays, totalMinutes: Int(stats.totalSeconds / 60),
                          topGenres: topGenres(stats), isCached: cached)
    }

    /// The server's top genres, or (kRPC) the genres of the books listened
    /// to, each weighed by the time spent in its books.
    private func topGenres(_ stats: ListeningStats) -> [(name: String, minutes: Int)] {
        if !stats.topGenres.isEmpty { return stats.topGenres.prefix(5).map { ($0.name, Int($0.seconds / 60)) } }
        guard let store else { return [] }
        var seconds: [String: Int64] = [:]
        for (bookID, listened) in stats.secondsByBook {
            for genre in (try? store.links(ofBook: bookID).genres) ?? [] { seconds[genre.name, default: 0] += listened }
        }
        return seconds.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(5)
            .map { ($0.key, Int($0.value / 60)) }
    }
}

extension LibraryModel {
    /// The `limit` books added to the library last, newest first. Read
    /// again at each change of the books (a live event too): one pass over
    /// the library, not a sort of it.
    func recentlyAdded(limit: Int) -> [Book] {
        guard !books.isEmpty else { return [] }
        if sort == .recentlyAdded { return order.prefix(limit).map { book(at: $0) } }
        return index.first(limit, by: .recentlyAdded).map { book(at: $0) }
    }
}
