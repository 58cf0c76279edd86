import Foundation
import ListenUpAPI
import Logging

/// One HTTP request as the demo server sees it.
struct DemoRequest: Sendable {
    var method: String
    var path: String
    var query: [String: String]
    var headers: [(String, String)]
    var body: Data

    func header(_ name: String) -> String? {
        headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
    }
}

/// One HTTP response.
struct DemoResponse: Sendable {
    var status: Int
    var contentType: String
    var body: Data
    var headers: [(String, String)] = []

    static func envelope<T: Encodable>(_ payload: T, status: Int = 200) -> DemoResponse {
        let body = (try? EnvelopeEncoder.success(payload)) ?? EnvelopeEncoder.failure(APIMessage.unexpected)
        return DemoResponse(status: status, contentType: "application/json", body: body)
    }

    static func failure(_ status: Int, _ message: String) -> DemoResponse {
        DemoResponse(status: status, contentType: "application/json", body: EnvelopeEncoder.failure(message))
    }

    static func text(_ status: Int, _ message: String) -> DemoResponse {
        DemoResponse(status: status, contentType: "text/plain; charset=utf-8", body: Data((message + "\n").utf8))
    }
}

/// A response can stand for a rejected request body in a `Result`.
extension DemoResponse: Error {}

/// The server's behaviour and state, independent of sockets: every request
/// goes through ``handle(_:)`` under one lock.
final class DemoService: Sendable {
    struct User {
        var id: String
        var email: String
        var password: String
        var firstName: String
        var lastName: String
        var isRoot: Bool
        var createdAt: Date
        var lastLoginAt: Date
        /// The name as given to kRPC `setupRoot`; nil: "first last".
        var displayName: String?
        /// Made an administrator (an invite with role `ADMIN`); the root
        /// account is one without this.
        var isAdmin = false

        /// kRPC's `UserRole` name: `ROOT`, `ADMIN` or `MEMBER`.
        var role: String { isRoot ? "ROOT" : isAdmin ? "ADMIN" : "MEMBER" }

        /// The name users see.
        var shownName: String { displayName ?? "\(firstName) \(lastName)" }
    }

    struct SessionRecord {
        var id: String
        var userID: String
        var refreshToken: String
    }

    struct State {
        var users: [User] = []
        var sessions: [String: SessionRecord] = [:]
        /// access token → (user id, expiry)
        var accessTokens: [String: (userID: String, expires: Date)] = [:]
        var buckets: [String: (tokens: Double, updated: Date)] = [:]
        var requestCounts: [String: Int] = [:]
        var deletedBookIDs: [(id: String, at: Date)] = []
        var books: [SyncBook] = []
        /// The browse domains: everyone the books credit, every series
        /// they are in, and what was deleted when (REST deltas name them).
        var contributors: [DemoContributor] = []
        var series: [DemoSeries] = []
        var deletedContributorIDs: [(id: String, at: Date)] = []
        var deletedSeriesIDs: [(id: String, at: Date)] = []
        /// Listening: events by id, progress per user and book.
        var listening = ListeningState()
        /// Test hooks for the audio route: a status to answer once, bytes
        /// after which the next response is cut.
        var audioRefusal: (status: Int, remaining: Int)?
        var audioCut: Int?
        /// While set, `/api/v1/sync/events` answers 503 (``DemoServer/refuseEventStreams``).
        var eventStreamsRefused = false
        /// Who listens now, by user id (DemoPresence.swift), and a count of
        /// its changes (the kRPC side nudges event streams when it moves).
        var presence: [String: DemoPresence] = [:]
        var presenceRevision = 0
        /// Every audio request served, oldest first (at most ``DemoService/audioRequestsKept``).
        var audioRequests: [DemoServer.AudioRequest] = []
        /// Bytes per second each audio response is held to; nil: as fast as the socket goes.
        var audioRateLimit: Int?
        /// Revisions and recent writes of the library (the kRPC mode's sync).
        var ledger: DemoSyncLedger
        /// Genres, tags, moods, collections (DemoFacets.swift).
        var facets = DemoFacets()
        /// Every user's shelves and the books on them, tombstones kept (DemoShelves.swift).
        var shelves: [DemoShelf] = []
        var shelfBooks: [DemoShelfBook] = []
        /// Shelves each new user starts with, its "To Read" included
        /// (``DemoServer/Configuration/shelvesPerUser``).
        var shelvesPerUser = 1
        /// Invites made by the test controls (DemoInvites.swift).
        var invites: [DemoInvite] = []
        /// Registrations: the mode, pending users, decisions, watches (DemoRegistration.swift).
        var registrations = DemoRegistrations()
        /// Password resets (kRPC; DemoPasswordReset.swift).
        var passwordResets = DemoPasswordResets()
    }

    let configuration: DemoServer.Configuration
    let instanceID: String
    let createdAt: Date
    /// The library now (tests change it through ``DemoServer``).
    var books: [SyncBook] { state.withLock { $0.books } }
    let state: Locked<State>
    let events = DemoEventHub()
    let logger: Logger

    /// Why `/api/v1/sync/events` is refused (the real server's text/plain
    /// 401), or nil to open the stream.
    func refuseEventStream(_ request: DemoRequest) -> DemoResponse? {
        let refused = state.withLock { state in
            state.requestCounts[request.path, default: 0] += 1
            return state.eventStreamsRefused
        }
        if bearer(request) == nil { return .text(401, "Unauthorized") }
        return refused ? .text(503, "Service Unavailable") : nil
    }

    init(configuration: DemoServer.Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        let now = Date()
        createdAt = now
        var random = SplitMix64(seed: configuration.seed)
        instanceID = "lib-" + Self.nanoID(&random)
        let library = DemoLibrary(count: configuration.bookCount, seed: configuration.seed, now: now,
                                  chapterSeconds: configuration.chapterSeconds, filePerChapter: configuration.filePerChapter,
                                  payload: configuration.payload)
        var initial = State(ledger: DemoSyncLedger(retention: configuration.krpc.eventRetention))
        initial.books = library.books
        initial.contributors = library.contributors
        initial.series = library.series
        for book in library.books { initial.ledger.seed(.books, id: book.id, row: .book(book), at: book.updatedAt) }
        for person in library.contributors {
            initial.ledger.seed(.contributors, id: person.id, row: .contributor(person), at: person.updatedAt)
        }
        for series in library.series { initial.ledger.seed(.series, id: series.id, row: .series(series), at: series.updatedAt) }
        // The facets come with the shape of a real library (`--payload
        // realistic`); the compact tests' library has none, so its
        // revisions and routes are what they were.
        if configuration.payload == .realistic {
            initial.seedFacets(DemoFacets(books: library.books, linked: true, libraryID: instanceID, at: now), at: now)
        }
        initial.seedNeighbourShelf(at: now)
        initial.shelvesPerUser = max(1, configuration.shelvesPerUser)
        initial.registrations.mode = configuration.registration
        initial.audioRateLimit = configuration.audioRateLimit.map { max(DemoServer.minimumAudioRateLimit, $0) }
        state = Locked(initial)
        if let admin = configuration.admin {
            state.withLock {
                let user = User(id: "user-" + Self.nanoID(&random), email: admin.email, password: admin.password,
                                firstName: admin.firstName, lastName: admin.lastName, isRoot: true, createdAt: now, lastLoginAt: now)
                $0.users.append(user)
                $0.createStarterShelf(for: user, at: now, seed: true)
            }
        }
    }

    static func nanoID(_ random: inout SplitMix64) -> String {
        let alphabet = Array("_-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        return String((0..<21).map { _ in alphabet[random.next(alphabet.count)] })
    }

    static func randomToken(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let data = Data((0..<bytes).map { _ in UInt8.random(in: 0...255, using: &generator) })
        return data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }

    // MARK: Routing

    func handle(_ request: DemoRequest) -> DemoResponse {
        state.withLock { $0.requestCounts[request.path, default: 0] += 1 }
        switch (request.method, request.path) {
        case ("GET", "/health"):
            return .envelope(["status": "healthy"])
        case ("GET", "/api/v1/instance"):
            return .envelope(instance())
        case ("POST", "/api/v1/auth/setup"):
            return setup(request)
        case ("POST", "/api/v1/auth/login"):
            return login(request)
        case ("POST", "/api/v1/auth/refresh"):
            return refresh(request)
        case ("POST", "/api/v1/auth/logout"):
            return logout(request)
        case ("POST", "/api/v1/auth/register"):
            return register(request)
        case ("GET", _) where request.path.hasPrefix(Self.registrationStatusPrefix) && !request.path.hasSuffix("/stream"):
            return registrationStatus(request)
        case ("GET", "/api/v1/users/me"):
            return authorized(request) { user in .envelope(self.userResponse(user)) }
        case ("GET", "/api/v1/library/status"):
            return authorized(request) { _ in
                .envelope(LibraryStatus(exists: true, library: self.library, needsSetup: false, bookCount: self.books.count,
                                        isScanning: false))
            }
        case ("GET", "/api/v1/sync/books"):
            return authorized(request) { _ in self.syncBooks(request) }
        case ("GET", "/api/v1/sync/contributors"):
            return authorized(request) { _ in self.syncContributors(request) }
        case ("GET", "/api/v1/sync/series"):
            return authorized(request) { _ in self.syncSeries(request) }
        case ("GET", "/api/v1/books"):
            return authorized(request) { _ in self.listBooks(request) }
        case (_, _) where request.path == "/api/v1/shelves" || request.path.hasPrefix("/api/v1/shelves/"):
            return authorized(request) { user in self.shelvesRoute(request, user: user) }
        case ("GET", _) where request.path.hasPrefix("/api/v1/covers/"):
            return cover(request)
        case ("GET", _) where request.path.hasPrefix("/api/v1/contributors/") && request.path.hasSuffix("/image"):
            return contributorImage(request)
        case ("POST", "/api/v1/listening/events"):
            return authorized(request) { user in self.listeningEvents(request, user: user) }
        case ("GET", "/api/v1/listening/progress"):
            return authorized(request) { user in self.progressList(request, user: user) }
        case ("GET", "/api/v1/social/feed"):
            return authorized(request) { _ in self.socialFeed(request) }
        case ("GET", "/api/v1/social/currently-listening"):
            return authorized(request) { user in self.currentlyListeningREST(request, viewer: user.id) }
        case ("GET", "/api/v1/listening/stats"):
            return authorized(request) { user in self.listeningStats(request, user: user) }
        case ("GET", "/api/v1/listening/continue"):
            return authorized(request) { user in self.continueList(request, user: user) }
        case (_, _) where request.path.hasPrefix("/api/v1/books/") && request.path.contains("/progress"):
            return authorized(request) { user in self.bookProgress(request, user: user) }
        default:
            return handleInvites(request) ?? handleFacets(request) ?? .text(404, "404 page not found")
        }
    }

    /// The one library (its collections are under `/api/v1/libraries/{id}`).
    private var library: LibraryStatus.Library {
        LibraryStatus.Library(id: libraryID, name: configuration.serverName, ownerID: "", scanPaths: ["/audiobooks"], skipInbox: true,
                              accessMode: "open", createdAt: createdAt, updatedAt: createdAt)
    }

    private func instance() -> InstanceResponse {
        let setupRequired = state.withLock { !$0.users.contains { $0.isRoot } }
        return InstanceResponse(id: instanceID, name: configuration.serverName, version: "", localURL: "", remoteURL: nil,
                                openRegistration: state.withLock { $0.registrations.mode != .closed }, createdAt: createdAt, updatedAt: createdAt, setupRequired: setupRequired)
    }

    // MARK: Books

    private func syncBooks(_ request: DemoRequest) -> DemoResponse {
        let limit = Int(request.query["limit"] ?? "50") ?? -1
        guard (1...500).contains(limit) else { return .failure(422, "expected number <= 500 (query.limit: \(request.query["limit"] ?? ""))") }
        var source = books
        var deleted: [String]?
        var isFirstPage = true
        if let cursor = request.query["cursor"] {
            isFirstPage = false
            _ = cursor
        }
        if let after = request.query["updated_after"] {
            guard let date = RFC3339.date(from: after) else { return .failure(400, "invalid updated_after format, expected RFC3339") }
            source = source.filter { $0.updatedAt > date }.sorted { $0.updatedAt < $1.updatedAt }
            if isFirstPage { deleted = state.withLock { $0.deletedBookIDs.filter { $0.at > date }.map(\.id) } }
        }
        guard let start = Self.cursorIndex(request.query["cursor"]) else { return .failure(500, APIMessage.unexpected) }
        let page = Array(source.dropFirst(start).prefix(limit))
        let end = start + page.count
        let more = end < source.count
        return .envelope(SyncBooksResponse(nextCursor: more ? Self.cursor(end) : nil, books: page,
                                           deletedBookIDs: deleted.flatMap { $0.isEmpty ? nil : $0 }, hasMore: more))
    }

    private func listBooks(_ request: DemoRequest) -> DemoResponse {
        let limit = Int(request.query["limit"] ?? "50") ?? -1
        guard (1...100).contains(limit) else { return .failure(422, "expected number <= 100 (query.limit: \(request.query["limit"] ?? ""))") }
        guard let start = Self.cursorIndex(request.query["cursor"]) else { return .failure(500, APIMessage.unexpected) }
        let page = Array(books.dropFirst(start).prefix(limit))
        let end = start + page.count
        return .envelope(ListBooksResponse(
            items: page.map { BookResponse(id: $0.id, title: $0.title, duration: $0.totalDuration, size: $0.totalSize,
                                           audioFiles: $0.audioFiles.map { file in
                                               BookResponse.File(id: file.id, path: file.path, duration: file.duration, size: file.size,
                                                                 format: file.format, codec: file.codec ?? "", bitrate: file.bitrate ?? 0)
                                           },
                                           createdAt: $0.createdAt, updatedAt: $0.updatedAt) },
            total: books.count, nextCursor: end < books.count ? Self.cursor(end) : nil))
    }

    /// The cursor is base64 (padded) of the decimal start index.
    static func cursor(_ index: Int) -> String {
        Data(String(index).utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }

    static func cursorIndex(_ cursor: String?) -> Int? {
        guard let cursor else { return 0 }
        let standard = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard let data = Data(base64Encoded: standard), let index = Int(String(decoding: data, as: UTF8.self)), index >= 0 else { return nil }
        return index
    }

    private func cover(_ request: DemoRequest) -> DemoResponse {
        guard bearer(request) != nil else { return .text(401, "authentication required") }
        let id = String(request.path.dropFirst("/api/v1/covers/".count))
        guard books.contains(where: { $0.id == id }) else { return .text(404, "cover not found") }
        // Like the real server: always labelled image/jpeg, whatever the bytes are.
        return DemoResponse(status: 200, contentType: "image/jpeg", body: DemoLibrary.cover(for: id),
                            headers: [("Cache-Control", "public, max-age=86400")])
    }
}

/// A value behind a lock.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only touched inside `withLock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }
}
