import Foundation
import Observation

/// The player: one book at a time, for the signed-in session. Lives as long
/// as the session (the ``AppNavigator`` owns it), not as long as a screen:
/// the now-playing bar, the player page, the desktop's media controls and
/// the headless front all observe this one model and send it intents.
///
/// It turns intents into engine calls (``PlaybackEngine``), applies the
/// listening rules (resume point, rewind after a pause, sleep timer,
/// previous chapter), records listening spans and local positions
/// (``ListeningStore``) and hands spans to the ``ListeningReporter``.
@MainActor @Observable
public final class PlayerModel: ScreenModel {
    /// What the player is doing (the headless `status`).
    public enum Status: String, Equatable, Sendable {
        /// No book loaded.
        case idle
        case loading
        case playing
        case paused
        case buffering
        /// The end of the book was reached.
        case ended
        /// Stopped by the user (the book is unloaded).
        case stopped
        case error
    }

    /// The book loaded.
    public struct NowPlaying: Equatable, Sendable {
        public var bookID: String
        public var title: String
        public var authors: String
        public var narrators: String
        public var hasCover: Bool
        /// For cover caching (the book's `updated_at`).
        public var version: Date
        public var chapters: [PlaybackTimeline.Chapter]
        /// Milliseconds.
        public var duration: Int64

        public init(bookID: String, title: String, authors: String, narrators: String = "", hasCover: Bool = false,
                    version: Date = Date(timeIntervalSince1970: 0), chapters: [PlaybackTimeline.Chapter], duration: Int64) {
            self.bookID = bookID
            self.title = title
            self.authors = authors
            self.narrators = narrators
            self.hasCover = hasCover
            self.version = version
            self.chapters = chapters
            self.duration = duration
        }
    }

    /// A sleep timer the user set.
    public enum SleepTimer: Equatable, Sendable {
        /// Pauses when `remaining` reaches zero (fading out over the last 10 s).
        case minutes(Int)
        /// Pauses at the end of the chapter playing when it was set.
        case endOfChapter
    }

    public enum Intent: Equatable, Sendable {
        /// Plays a book from its resume point (or resumes it, if loaded),
        /// reading it from the library's cache first.
        case play(bookID: String)
        /// Plays a book the library read already (``PlayableBook``).
        case playBook(PlayableBook)
        case pause
        case resume
        case togglePlayPause
        case stop
        /// A book position, milliseconds.
        case seek(Int64)
        /// Forward (positive) or back (negative), seconds.
        case skip(seconds: Int)
        /// By the lengths set in Preferences.
        case skipBack
        case skipForward
        /// 0-based.
        case chapter(Int)
        /// Restarts the chapter if more than 3 s in, else the one before.
        case previousChapter
        case nextChapter
        /// 0.5...3.0 (rounded to 0.05).
        case rate(Double)
        /// 0...1.
        case volume(Double)
        /// `nil` turns the timer off.
        case sleep(SleepTimer?)
        /// The book's volume boost, dB: 0...12 (rounded to 0.5 dB).
        case boost(Double)
        /// *Mark as Finished* (true) or *Mark as Not Started* (false: back to 0).
        case markFinished(bookID: String, finished: Bool)
        /// Moves to ``positionOffer`` (*Continue from 1:23:45*).
        case takeOffer
        /// Back to where the book was before its last jump (the first of
        /// ``recentPositions``, which it leaves; PlayerModel+Jumps.swift).
        case undoJump
        /// To the place at this index of ``recentPositions`` (0: the newest).
        case jumpToRecent(Int)
        /// Volume 0, or back to the volume before it.
        case toggleMute
    }

    /// Something the user should hear about that is not a playback failure
    /// (a book not marked finished because the server did not answer), for
    /// a toast; `id` tells two equal notices apart.
    public struct Notice: Equatable, Sendable {
        /// What the player could not do; the raw value is the headless
        /// `error` line's code, stable for scripts.
        public enum Code: String, Equatable, Sendable {
            /// Mark as Finished / Not Started did not reach the server.
            case markFailed
        }

        public var id: UUID
        public var code: Code
        public var message: String
    }

    public internal(set) var status: Status = .idle
    public internal(set) var nowPlaying: NowPlaying?
    /// The book position, milliseconds.
    public internal(set) var position: Int64 = 0
    /// The book's speed (its own, or the default speed for a book never
    /// played).
    public internal(set) var rate: Double
    /// Whether the book loaded is finished, as its position row says: only
    /// reaching the end, *Mark as Finished* and *Mark as Not Started*
    /// change it (playing a finished book again keeps it finished).
    public internal(set) var finished = false
    /// The book's volume boost, dB (0...12).
    public internal(set) var volumeBoostDb: Double = 0
    public internal(set) var volume: Double
    /// The chapter playing (nil when nothing is loaded or the book has none).
    public internal(set) var chapterIndex: Int?
    public internal(set) var sleepTimer: SleepTimer?
    /// Until the sleep timer pauses, milliseconds (nil: no timer).
    public internal(set) var sleepRemaining: Int64?
    /// Set with ``Status/error``.
    public internal(set) var failure: Failure?
    /// 0...100 while buffering.
    public internal(set) var bufferingPercent = 0
    /// *Continue listening*, most recent first (cached for offline).
    public internal(set) var continueListening: [ContinueListeningItem] = []
    /// The cover of the book playing as a file (the desktop's media
    /// controls show it), once it has been fetched.
    public internal(set) var coverFile: URL?
    /// The last command a paired device sent (the window says so).
    public internal(set) var remoteNotice: RemoteNotice?
    /// The last thing the user should be told (a toast; headless: an `error` line).
    public internal(set) var notice: Notice?
    /// The last position another device reported that the book loaded
    /// here took at once (it was not playing here).
    public internal(set) var adoptedPosition: PositionNotice?
    /// A newer position another device reported while the book played
    /// here, offered once the user paused (nil when none, or once taken
    /// or played past).
    public internal(set) var positionOffer: PositionNotice?
    /// Where each book was before its last jumps, newest first, by book
    /// (``recentPositions`` is the loaded book's; PlayerModel+Jumps.swift).
    var jumpHistory: [String: [RecentPosition]] = [:]
    /// The last jump, for the window's *Jumped to …* toast with Undo (nil
    /// once undone).
    public internal(set) var lastJump: JumpNotice?
    /// Skip lengths, seconds (Preferences).
    public internal(set) var skipBackSeconds: Int
    public internal(set) var skipForwardSeconds: Int
    /// The sleep timer's default length, minutes (Preferences; nil: none).
    public internal(set) var defaultSleepTimerMinutes: Int?
    /// Whether loudness is evened out (Preferences): the loudness
    /// correction of the book's row (`measuredGainDb`) is applied with its
    /// boost when on (``gainDecibels``).
    public internal(set) var evenLoudness: Bool
    /// The account's playback preferences, kept in step with the server
    /// (made with the player by the navigator; nil in previews).
    @ObservationIgnored public internal(set) var accountPreferences: AccountPreferencesSync?

    /// Whether someone watches the position move: a window on screen, the
    /// headless front's once-a-second line (true until a front says
    /// otherwise). When nobody does, the engine reports the position only
    /// when the player's own work needs it (``positionReportInterval()``):
    /// a hidden window's app is not woken every second for nothing.
    @ObservationIgnored public var isPositionWatched = true {
        didSet { if isPositionWatched != oldValue { updatePositionInterval() } }
    }
    /// Whether a paired device follows the player's state (its position is
    /// then reported as it moves, whatever the window does).
    @ObservationIgnored public var hasRemoteFollowers = false {
        didSet { if hasRemoteFollowers != oldValue { updatePositionInterval() } }
    }

    @ObservationIgnored let dependencies: Dependencies
    @ObservationIgnored let session: Session?
    /// The session's downloads: a downloaded book plays from its files.
    @ObservationIgnored weak var downloads: DownloadsModel?
    /// Made on first play: GStreamer is loaded then, not at start-up.
    @ObservationIgnored var engine: (any PlaybackEngine)?
    @ObservationIgnored var engineEvents: Task<Void, Never>?
    @ObservationIgnored var timeline: PlaybackTimeline?
    @ObservationIgnored lazy var listening: any ListeningStore = openListening()
    @ObservationIgnored lazy var library: (any LibraryStore)? = session.map { dependencies.openLibrary($0.serverURL, $0.userID) }
    @ObservationIgnored var reporter: ListeningReporter?
    @ObservationIgnored var coverLoader: CoverLoader?
    /// The span being listened: from where and when playing started.
    @ObservationIgnored var openSpan: (start: Int64, at: Date, rate: Double)?
    @ObservationIgnored var lastSaved: (position: Int64, at: ContinuousClock.Instant)?
    @ObservationIgnored var pausedAt: Date?
    /// Playing was asked for and the engine has not said it plays yet.
    @ObservationIgnored var wantsToPlay = false
    /// A front asked for the last book to be offered (``offerLastBook()``).
    @ObservationIgnored var offersLastBook = false
    /// The refused audio was answered with fresh credentials once already.
    @ObservationIgnored var refreshedAfterRefusal = false
    /// When the sleep timer's minutes run out (listening time, not wall time).
    @ObservationIgnored var sleepDeadline: ContinuousClock.Instant?
    /// Where an end-of-chapter timer pauses.
    @ObservationIgnored var sleepChapterEnd: Int64?
    @ObservationIgnored var periodic: Task<Void, Never>?
    @ObservationIgnored var continueRefresh: Task<Void, Never>?
    @ObservationIgnored var deviceID: String
    /// The loudness correction the book's row keeps (sent back unchanged).
    @ObservationIgnored var measuredGainDb: Double?
    /// A newer position from another device that came while the book
    /// played here, offered when the user pauses.
    @ObservationIgnored var heldPosition: ListeningPosition?
    /// The volume before M muted it (``toggleMute()``).
    @ObservationIgnored var volumeBeforeMute: Double?
    /// When a jump happens (tests set their own).
    @ObservationIgnored var clock: @MainActor () -> Date = { Date() }
    /// Previews only: the player page opens its Recent Positions at once
    /// (the screenshot of the list).
    @ObservationIgnored public internal(set) var opensRecentPositions = false
    @ObservationIgnored var libraryChangedHandler: (@MainActor (_ bookID: String, _ progress: BookProgress) -> Void)?

    /// How often an open span is cut and queued while playing.
    static let spanInterval: TimeInterval = 60
    /// How often the local position is saved while playing.
    static let saveInterval: Duration = .seconds(10)

    /// - Parameters:
    ///   - downloads: the session's downloads (a downloaded book plays from
    ///     its files, with no network).
    ///   - library: the session's library cache (``SignedInSession``'s);
    ///     nil: the session's is opened when first needed.
    public init(dependencies: Dependencies, session: Session?, downloads: DownloadsModel? = nil,
                library: (any LibraryStore)? = nil) {
        self.dependencies = dependencies
        self.session = session
        self.downloads = downloads
        let settings = dependencies.settings.load().playback
        rate = settings.rate
        volume = settings.volume
        skipBackSeconds = settings.skipBackSeconds
        skipForwardSeconds = settings.skipForwardSeconds
        defaultSleepTimerMinutes = settings.defaultSleepTimerMinutes
        evenLoudness = settings.evenLoudness
        deviceID = dependencies.deviceID()
        if let library { self.library = library }
        guard let session else { return }
        reporter = ListeningReporter(server: session.connection, store: listening, logger: dependencies.logger)
        coverLoader = CoverLoader(server: session.connection, cache: dependencies.openCoverCache(session.serverURL, session.userID),
                                  logger: dependencies.logger)
        continueListening = (try? listening.continueListening()) ?? []
        startPeriodicWork()
    }

    private func openListening() -> any ListeningStore {
        guard let session else { return InMemoryListeningStore() }
        return dependencies.openListening(session.serverURL, session.userID)
    }

    public func send(_ intent: Intent) {
        switch intent {
        case .play(let bookID): play(bookID)
        case .playBook(let book): play(book)
        case .pause: pause()
        case .resume: resume()
        case .togglePlayPause: status == .playing || status == .buffering || (status == .loading && wantsToPlay) ? pause() : resume()
        case .stop: stop()
        // Seeks, chapters, long skips and other devices' positions are
        // jumps: where the book was is remembered (PlayerModel+Jumps.swift).
        case .seek(let position): jumping { seek(to: position) }
        case .skip(let seconds): skipping(by: Int64(seconds) * 1_000)
        case .skipBack: skipping(by: -Int64(skipBackSeconds) * 1_000)
        case .skipForward: skipping(by: Int64(skipForwardSeconds) * 1_000)
        case .chapter(let index): jumping { jump(toChapter: index) }
        case .previousChapter:
            if let chapters = nowPlaying?.chapters {
                jumping { seek(to: ListeningRules.previousChapterTarget(chapters: chapters, position: position)) }
            }
        case .nextChapter:
            if let chapterIndex { jumping { jump(toChapter: chapterIndex + 1) } }
        case .rate(let value): changeRate(value)
        case .volume(let value): changeVolume(value)
        case .sleep(let timer): setSleepTimer(timer)
        case .boost(let decibels): changeBoost(decibels)
        case .takeOffer: jumping { takeOffer() }
        case .undoJump: undoJump()
        case .jumpToRecent(let index): jump(toRecent: index)
        case .toggleMute: toggleMute()
        case .markFinished(let bookID, let finished): markFinished(bookID, finished)
        }
    }

    // MARK: Derived values the fronts show

    /// The chapter playing.
    public var chapter: PlaybackTimeline.Chapter? {
        guard let chapterIndex, let chapters = nowPlaying?.chapters, chapters.indices.contains(chapterIndex) else { return nil }
        return chapters[chapterIndex]
    }

    /// Milliseconds into the chapter playing.
    public var chapterElapsed: Int64 {
        guard let chapter else { return position }
        return min(max(0, position - chapter.start), chapter.duration)
    }

    /// The chapter playing's length (the book's when it has no chapters).
    public var chapterDuration: Int64 {
        chapter?.duration ?? nowPlaying?.duration ?? 0
    }

    /// 0...1 of the whole book.
    public var bookProgress: Double {
        guard let duration = nowPlaying?.duration, duration > 0 else { return 0 }
        return min(1, max(0, Double(position) / Double(duration)))
    }

    /// What is left of the book at the current speed, milliseconds.
    public var timeLeftAtRate: Int64 {
        guard let duration = nowPlaying?.duration else { return 0 }
        return Int64((Double(max(0, duration - position)) / max(rate, 0.5)).rounded())
    }

    /// The cover of the book playing, large (``CoverSize/large``): the
    /// player, the media controls and a paired remote show it.
    public func cover() async -> CoverData? {
        guard let nowPlaying, nowPlaying.hasCover, let coverLoader else { return nil }
        return await coverLoader.cover(for: nowPlaying.bookID, version: nowPlaying.version, size: .large)
    }

    /// The cover of a book of *Continue listening* (or any book), at `size`
    /// (the row's covers are small: ``CoverSize/grid``).
    public func cover(bookID: String, size: CoverSize = .grid) async -> CoverData? {
        guard let coverLoader, let book = try? library?.book(id: bookID), book.hasCover else { return nil }
        return await coverLoader.cover(for: bookID, version: book.updatedAt, size: size)
    }

    /// Saves the position and queues the last span: the app is quitting or
    /// the session ends. Sends what is queued, waiting at most `grace`.
    public func shutdown(grace: Duration = .seconds(2)) async {
        catchUpPosition()
        closeSpan()
        savePosition()
        periodic?.cancel()
        continueRefresh?.cancel()
        engineEvents?.cancel()
        engine?.stop()
        guard let reporter else { return }
        // Whichever comes first: the queue sent, or the grace over (a
        // request under way is not waited for; its spans stay queued).
        let (first, done) = AsyncStream<Void>.makeStream()
        Task { _ = await reporter.flush(); done.yield() }
        Task { try? await Task.sleep(for: grace); done.yield() }
        for await _ in first { break }
    }
}
