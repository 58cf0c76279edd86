import Foundation
import ListenUpAPI
import Testing
@testable import ListenUpCore

/// A server that speaks no wire protocol at all: a test double behind the
/// seam. If the library works through it, the library depends on
/// `ServerConnection` alone, and a second protocol (kRPC) can stand where
/// REST v1 stands today.
actor ScriptedServer: ServerConnection {
    nonisolated let baseURL = URL(string: "listenup-test://scripted")!
    private var books: [SyncBook]
    private var lapseHandlers: [@Sendable () async -> Void] = []
    private var events: AsyncThrowingStream<ServerSentEvent, any Error>.Continuation?
    private(set) var calls: [String] = []
    private let session: StoredSession

    init(titles: [String]) throws {
        books = try titles.enumerated().map { try Self.book(id: "book-\($0.offset)", title: $0.element) }
        session = StoredSession(serverURL: URL(string: "listenup-test://scripted")!, accessToken: "a", refreshToken: "r",
                                sessionID: "s", userID: "user-1", displayName: "Ada L", email: "ada@example.com",
                                accessExpiresAt: .distantFuture)
    }

    static func book(id: String, title: String) throws -> SyncBook {
        let json = #"{"created_at":"2026-05-01T14:05:12Z","updated_at":"2026-05-01T14:05:12Z","id":"\#(id)","#
            + #""title":"\#(title)","path":"/a","audio_files":[],"total_duration":60000,"total_size":1,"contributors":[]}"#
        return try ListenUpJSON.decoder.decode(SyncBook.self, from: Data(json.utf8))
    }

    var currentSession: StoredSession? { session }

    func onSessionLapsed(_ handler: @escaping @Sendable () async -> Void) { lapseHandlers.append(handler) }

    func setupAdmin(firstName: String, lastName: String, email: String, password: String) async throws(APIClientError) -> StoredSession {
        session
    }

    func login(email: String, password: String) async throws(APIClientError) -> StoredSession { session }

    func logout() async { calls.append("logout") }

    func libraryBookCount() async throws(APIClientError) -> Int {
        calls.append("count")
        return books.count
    }

    /// Two books a page, so the sync walks the cursor.
    func syncBooks(limit: Int, cursor: String?, updatedAfter: Date?) async throws(APIClientError) -> SyncBooksResponse {
        calls.append(updatedAfter == nil ? "page \(cursor ?? "first")" : "delta")
        if updatedAfter != nil { return SyncBooksResponse(nextCursor: nil, books: [], hasMore: false) }
        let start = Int(cursor ?? "0") ?? 0
        let end = min(start + 2, books.count)
        let more = end < books.count
        return SyncBooksResponse(nextCursor: more ? String(end) : nil, books: Array(books[start..<end]), hasMore: more)
    }

    func liveEvents() async throws(APIClientError) -> AsyncThrowingStream<ServerSentEvent, any Error> {
        calls.append("events")
        let (stream, continuation) = AsyncThrowingStream<ServerSentEvent, any Error>.makeStream()
        events = continuation
        return stream
    }

    func cover(bookID: String, maxBytes: Int) async throws(APIClientError) -> Data? { nil }

    private(set) var spans: [ListeningSpan] = []
    /// Read without awaiting, for polling tests.
    nonisolated let spansSeen = LockedValue<[ListeningSpan]>([])
    nonisolated var spansSnapshot: [ListeningSpan] { spansSeen.value }

    func audioAccess(bookID: String, fileIDs: [String], afterRefusal: Bool) async throws(APIClientError) -> AudioAccess {
        calls.append(afterRefusal ? "audio refreshed" : "audio")
        return AudioAccess(urls: Dictionary(uniqueKeysWithValues: fileIDs.map { ($0, baseURL.appendingPathComponent($0)) }), headers: [:])
    }

    /// Listening is refused as unreachable while true.
    private(set) var offline = false
    private var positions: [ListeningPosition] = []

    func setOffline(_ offline: Bool) { self.offline = offline }
    func setPositions(_ positions: [ListeningPosition]) { self.positions = positions }

    func sendListening(_ spans: [ListeningSpan]) async throws(APIClientError) -> ListeningAcknowledgement {
        if offline { throw .transport(.unreachable("scripted outage")) }
        self.spans += spans.filter { span in !self.spans.contains { $0.id == span.id } }
        spansSeen.value = self.spans
        return ListeningAcknowledgement(acknowledged: spans.map(\.id), failed: [])
    }

    func listeningPositions(updatedAfter: Date?) async throws(APIClientError) -> [ListeningPosition] {
        positions.filter { position in updatedAfter.map { position.updatedAt > $0 } ?? true }
    }

    func continueListening(limit: Int) async throws(APIClientError) -> [ContinueListeningItem] { [] }

    func setFinished(_ finished: Bool, bookID: String) async throws(APIClientError) {
        calls.append(finished ? "finished \(bookID)" : "unfinished \(bookID)")
    }

    /// Sends a live `book.created` for a new book.
    func announce(id: String, title: String) throws {
        let book = try Self.book(id: id, title: title)
        let payload = try String(decoding: ListenUpJSON.encoder.encode(book), as: UTF8.self)
        events?.yield(ServerSentEvent(type: "book.created", data: #"{"timestamp":"2026-05-01T14:05:12Z","data":{"book":\#(payload)},"type":"book.created"}"#))
    }

    /// Refuses the session, as a refused refresh does.
    func lapse() async {
        for handler in lapseHandlers { await handler() }
    }
}

@MainActor
@Suite("The library through the server seam alone")
struct ServerSeamTests {
    func settle(_ done: () -> Bool) async {
        for _ in 0..<500 where !done() { try? await Task.sleep(for: .milliseconds(10)) }
    }

    @Test func theLibrarySyncsFollowsEventsAndSignsOutThroughAnyConnection() async throws {
        let server = try ScriptedServer(titles: ["Zebra", "Anathem", "Middlemarch", "Dune", "Emma"])
        let session = Session(try #require(await server.currentSession), connection: server)
        let events = LockedValue<[AuthEvent]>([])
        let model = LibraryModel(dependencies: .test(), session: session, send: { event in events.withLock { $0.append(event) } })
        defer { model.deactivate() }

        await settle { model.isLive && model.books.count == 5 }
        #expect(model.books.map(\.title) == ["Anathem", "Dune", "Emma", "Middlemarch", "Zebra"])
        #expect(model.status == .loaded)
        let calls = await server.calls
        #expect(calls.prefix(4) == ["count", "page first", "page 2", "page 4"], "\(calls)")
        #expect(calls.contains("events"))

        try await server.announce(id: "book-new", title: "Beloved")
        await settle { model.books.count == 6 }
        #expect(model.books.map(\.title).prefix(2) == ["Anathem", "Beloved"])

        await server.lapse()
        await settle { !events.value.isEmpty }
        #expect(events.value == [.sessionRefused])

        model.send(.signOut)
        await settle { events.value.count == 2 }
        #expect(events.value.last == .signedOut)
        #expect(await server.calls.last == "logout")
    }
}
