import Foundation
import ListenUpCore

// Test doubles of the server seam and the audio engine, for unit tests of
// the models and pages (never a stand-in for a feature: the real engine and
// servers have tests of their own).

/// A server that speaks no wire protocol at all: a test double behind the
/// seam. If the library works through it, the library depends on
/// `ServerConnection` alone, and a second protocol (kRPC) can stand where
/// REST v1 stands today.
public actor ScriptedServer: ServerConnection {
    public nonisolated let baseURL = URL(string: "listenup-test://scripted")!
    private var books: [ServerBook]
    private var lapseHandlers: [@Sendable () async -> Void] = []
    private var events: AsyncThrowingStream<LibraryEvent, any Error>.Continuation?
    public private(set) var calls: [String] = []
    private let session: StoredSession

    public init(titles: [String]) throws {
        books = try titles.enumerated().map { try Self.book(id: "book-\($0.offset)", title: $0.element) }
        session = StoredSession(serverURL: URL(string: "listenup-test://scripted")!, accessToken: "a", refreshToken: "r",
                                sessionID: "s", userID: "user-1", displayName: "Ada L", email: "ada@example.com",
                                accessExpiresAt: .distantFuture)
    }

    /// A book of a minute with no files, people or cover, added on
    /// 2026-05-01 14:05:12 UTC. (Throws nothing today; callers may build
    /// books that do.)
    public static func book(id: String, title: String) throws -> ServerBook {
        let added = Date(timeIntervalSince1970: 1_777_644_312)
        return ServerBook(id: id, title: title, createdAt: added, updatedAt: added, totalDuration: 60_000, totalSize: 1)
    }

    public var currentSession: StoredSession? { session }

    public func onSessionLapsed(_ handler: @escaping @Sendable () async -> Void) { lapseHandlers.append(handler) }

    public func setupAdmin(firstName: String, lastName: String, email: String, password: String) async throws(ServerError) -> StoredSession {
        session
    }

    public func login(email: String, password: String) async throws(ServerError) -> StoredSession { session }

    public func logout() async { calls.append("logout") }

    public func libraryBookCount() async throws(ServerError) -> Int {
        calls.append("count")
        return books.count
    }

    /// Set by ``holdNextDelta()``: the next delta waits for ``releaseDelta()``.
    private var deltaHeld = false
    private var deltaWaiter: CheckedContinuation<Void, Never>?

    /// Makes the next delta sync wait (it is recorded in ``calls`` at once)
    /// until ``releaseDelta()``: a sync caught mid-way.
    public func holdNextDelta() { deltaHeld = true }

    /// Lets a held delta sync go on.
    public func releaseDelta() {
        deltaHeld = false
        deltaWaiter?.resume()
        deltaWaiter = nil
    }

    /// Two books a page, so the sync walks the cursor.
    public func syncBooks(limit: Int, cursor: String?, updatedAfter: Date?) async throws(ServerError) -> ServerBooksPage {
        calls.append(updatedAfter == nil ? "page \(cursor ?? "first")" : "delta")
        if updatedAfter != nil, deltaHeld {
            await withCheckedContinuation { deltaWaiter = $0 }
        }
        if updatedAfter != nil { return ServerBooksPage(books: []) }
        let start = Int(cursor ?? "0") ?? 0
        let end = min(start + 2, books.count)
        let more = end < books.count
        return ServerBooksPage(books: Array(books[start..<end]), nextCursor: more ? String(end) : nil, hasMore: more)
    }

    /// The contributors and series the server describes.
    private var contributors: [Contributor] = []
    private var series: [Series] = []
    /// The user's shelves with their books (served as REST v1 serves them: the whole list).
    private var shelves: [Shelf] = []
    public func setShelves(_ shelves: [Shelf]) { self.shelves = shelves }

    public func setBrowse(contributors: [Contributor], series: [Series]) {
        self.contributors = contributors
        self.series = series
    }

    /// One page: every row, or in a delta those changed after `updatedAfter`.
    public func syncBrowse(_ domain: BrowseDomain, limit: Int, cursor: String?, updatedAfter: Date?) async throws(ServerError) -> BrowseRows {
        let since = updatedAfter ?? .distantPast
        switch domain {
        case .contributors: return .contributors(EntityPage(entities: contributors.filter { $0.updatedAt > since }))
        case .series: return .series(EntityPage(entities: series.filter { $0.updatedAt > since }))
        case .shelves: return .allShelves(shelves)
        case .shelfBooks: return .shelfBooks(EntityPage(entities: []))
        default: return .empty(domain)
        }
    }

    /// What `listeningStats` answers (nil: the server keeps none).
    private var stats: ListeningStats?
    public func setStats(_ stats: ListeningStats?) { self.stats = stats }

    public func listeningStats(days: Int) async throws(ServerError) -> ListeningStats? {
        if offline { throw .transport(.unreachable("scripted")) }
        return stats
    }

    public func liveEvents() async throws(ServerError) -> AsyncThrowingStream<LibraryEvent, any Error> {
        calls.append("events")
        let (stream, continuation) = AsyncThrowingStream<LibraryEvent, any Error>.makeStream()
        events = continuation
        return stream
    }

    /// Every book's cover (nil: none).
    private var coverBytes: Data?
    public func setCover(_ bytes: Data?) { coverBytes = bytes }

    public func cover(bookID: String, maxBytes: Int) async throws(ServerError) -> Data? {
        calls.append("cover \(bookID)")
        return coverBytes
    }

    public private(set) var spans: [ListeningSpan] = []
    /// Read without awaiting, for polling tests.
    public nonisolated let spansSeen = LockedValue<[ListeningSpan]>([])
    public nonisolated var spansSnapshot: [ListeningSpan] { spansSeen.value }

    public func audioAccess(bookID: String, fileIDs: [String], afterRefusal: Bool) async throws(ServerError) -> AudioAccess {
        calls.append(afterRefusal ? "audio refreshed" : "audio")
        return AudioAccess(urls: Dictionary(uniqueKeysWithValues: fileIDs.map { ($0, baseURL.appendingPathComponent($0)) }), headers: [:])
    }

    /// Listening is refused as unreachable while true.
    public private(set) var offline = false
    private var positions: [ListeningPosition] = []

    public func setOffline(_ offline: Bool) { self.offline = offline }
    public func setPositions(_ positions: [ListeningPosition]) { self.positions = positions }

    public func sendListening(_ spans: [ListeningSpan]) async throws(ServerError) -> ListeningAcknowledgement {
        if offline { throw .transport(.unreachable("scripted outage")) }
        self.spans += spans.filter { span in !self.spans.contains { $0.id == span.id } }
        spansSeen.value = self.spans
        return ListeningAcknowledgement(acknowledged: spans.map(\.id), failed: [])
    }

    public func listeningPositions(updatedAfter: Date?) async throws(ServerError) -> [ListeningPosition] {
        positions.filter { position in updatedAfter.map { position.updatedAt > $0 } ?? true }
    }

    public func continueListening(limit: Int) async throws(ServerError) -> [ContinueListeningItem] { [] }

    /// The rows *Mark as Finished* / *Not Started* sent, in order (read
    /// without awaiting, for polling tests).
    public nonisolated let finishedRowsSeen = LockedValue<[ListeningPosition]>([])
    public nonisolated var finishedRowsSnapshot: [ListeningPosition] { finishedRowsSeen.value }

    public func setFinished(_ finished: Bool, row: ListeningPosition) async throws(ServerError) {
        calls.append(finished ? "finished \(row.bookID)" : "unfinished \(row.bookID)")
        finishedRowsSeen.withLock { $0.append(row) }
    }

    /// Sends a live event announcing a new book.
    public func announce(id: String, title: String) throws {
        events?.yield(.bookChanged(try Self.book(id: id, title: title)))
    }

    /// Sends a live event, as a connection hands it to the core.
    public func announceEvent(_ event: LibraryEvent) {
        events?.yield(event)
    }

    /// Ends the live event stream with a network error, as an outage
    /// does (the client reconnects by itself).
    public func dropLiveEvents() {
        events?.finish(throwing: ServerError.transport(.unreachable("scripted outage")))
        events = nil
    }

    /// Refuses the session, as a refused refresh does.
    public func lapse() async {
        for handler in lapseHandlers { await handler() }
    }

    // MARK: Account preferences

    /// The account's preferences this server keeps; nil (the default): it
    /// keeps none, as a REST v1 server. Set it before the session starts.
    public nonisolated let preferencesKept = LockedValue<AccountPreferences?>(nil)

    public nonisolated var keepsAccountPreferences: Bool { preferencesKept.value != nil }

    public func accountPreferences() async throws(ServerError) -> AccountPreferences? {
        calls.append("preferences")
        if offline { throw .transport(.unreachable("scripted outage")) }
        return preferencesKept.value
    }

    // MARK: Account sessions

    /// The account's sessions this server lists; nil (the default): it
    /// lists none, as a REST v1 server.
    public nonisolated let sessionsListed = LockedValue<[AccountSession]?>(nil)

    public func accountSessions() async throws(ServerError) -> [AccountSession]? {
        calls.append("sessions")
        if offline { throw .transport(.unreachable("scripted outage")) }
        return sessionsListed.value
    }

    /// Set by ``holdSessionEnd(_:)``: ending that session waits for
    /// ``releaseSessionEnd()``.
    private var sessionEndHeld: String?
    private var sessionEndWaiter: CheckedContinuation<Void, Never>?

    /// Makes ending session `id` wait (it is recorded in ``calls`` at
    /// once) until ``releaseSessionEnd()``: a change caught mid-way.
    public func holdSessionEnd(_ id: String) { sessionEndHeld = id }

    /// Lets a held session end go on.
    public func releaseSessionEnd() {
        sessionEndHeld = nil
        sessionEndWaiter?.resume()
        sessionEndWaiter = nil
    }

    public func endAccountSession(id: String) async throws(ServerError) {
        calls.append("end session \(id)")
        if sessionEndHeld == id { await withCheckedContinuation { sessionEndWaiter = $0 } }
        if offline { throw .transport(.unreachable("scripted outage")) }
        sessionsListed.withLock { listed in listed = listed?.filter { $0.id != id } }
    }

    /// Applies the change unclamped (the real servers' clamps are tested with them).
    public func updateAccountPreferences(_ change: AccountPreferencesChange) async throws(ServerError) -> AccountPreferences? {
        calls.append("update preferences")
        if offline { throw .transport(.unreachable("scripted outage")) }
        return preferencesKept.withLock { kept in
            kept = kept.map(change.applied(to:))
            return kept
        }
    }
}


/// An engine that plays nothing: records what it was asked and reports
/// what the test tells it to (a test double inside unit tests only; the
/// real engine is tested in PlaybackTests).
public final class ScriptedEngine: PlaybackEngine {
    public struct Log: Sendable {
        public var calls: [String] = []
        public var loaded: PlaybackTimeline?
        public var volume: Double = 1
        /// The last gain asked for, in decibels, as asked (not clamped).
        public var gain: Double = 0
        public var rate: Double = 1
        public var headers: [String: String] = [:]
        /// The last position interval asked for (nil: never set).
        public var positionInterval: Duration?
    }

    public let log = LockedValue(Log())
    private let continuation: AsyncStream<PlaybackEngineEvent>.Continuation
    private let stream: AsyncStream<PlaybackEngineEvent>
    private let current = LockedValue<Int64>(0)

    public init() { (stream, continuation) = AsyncStream.makeStream() }

    public func report(_ event: PlaybackEngineEvent) {
        if case .position(let position) = event { current.value = position }
        continuation.yield(event)
    }

    public var calls: [String] { log.value.calls }

    /// The audio moved on to `position` with no report yet (reports come
    /// seconds apart while nobody watches): only a query sees it.
    public func advance(to position: Int64) { current.value = position }

    public func load(_ timeline: PlaybackTimeline, at position: Int64) {
        current.value = position
        log.withLock { $0.calls.append("load \(position)"); $0.loaded = timeline }
    }

    public func play() { log.withLock { $0.calls.append("play") } }
    public func pause() { log.withLock { $0.calls.append("pause") } }
    public func stop() { log.withLock { $0.calls.append("stop") } }
    public func seek(to position: Int64) {
        current.value = position
        log.withLock { $0.calls.append("seek \(position)") }
    }

    public func setRate(_ rate: Double) { log.withLock { $0.rate = rate } }
    public func setVolume(_ volume: Double) { log.withLock { $0.volume = volume } }
    public func setGain(decibels: Double) { log.withLock { $0.gain = decibels } }
    public func setHeaders(_ headers: [String: String]) { log.withLock { $0.headers = headers; $0.calls.append("headers") } }
    public func setPositionInterval(_ interval: Duration) { log.withLock { $0.positionInterval = interval } }
    public var position: Int64 { current.value }
    public func events() -> AsyncStream<PlaybackEngineEvent> { stream }
}

