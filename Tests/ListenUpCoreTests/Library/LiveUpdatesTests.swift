import Foundation
import ListenUpAPI
import ListenUpLive
import ListenUpTestSupport
import Logging
import ServerSentEvents
import Testing
@testable import ListenUpCore

extension LibraryLiveUpdates {
    /// A REST v1 live event read at the protocol's edge (``RESTLiveEvents``)
    /// and applied: what the live events of a REST server do to the cache.
    func apply(_ event: ServerSentEvent) -> Change? {
        RESTLiveEvents.event(event).flatMap { apply($0) }
    }
}

@Suite("Live updates applied to the cache")
struct LiveUpdatesTests {
    static let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    static func live(_ store: LibraryStore) -> LibraryLiveUpdates {
        let client = OfflineServerConnection(baseURL: URL(string: "http://127.0.0.1:9")!, session: nil, sessions: .inMemory())
        return LibraryLiveUpdates(server: client, store: store, logger: quiet)
    }

    static let created = #"{"timestamp":"2026-05-01T14:05:12.488301533Z","data":{"book":{"created_at":"2026-05-01T14:05:12Z","updated_at":"2026-05-01T14:05:12Z","id":"book-new","title":"Fresh Arrival","path":"/a","audio_files":[],"total_duration":60000,"total_size":1,"abridged":false,"contributors":[{"contributor_id":"c1","name":"New Author","roles":["author"]}]}},"type":"book.created"}"#

    @Test func createdDeletedAndProgressEventsReachTheCache() throws {
        let store = InMemoryLibraryStore()
        let live = Self.live(store)
        #expect(live.apply(ServerSentEvent(type: "book.created", data: Self.created)) == .booksChanged(upserted: ["book-new"], deleted: []))
        #expect(try store.book(id: "book-new")?.authors == "New Author")

        let progress = #"{"timestamp":"2026-05-01T14:05:12.488301533Z","data":{"book_id":"book-new","current_position_ms":1,"progress":0.25,"total_listen_time_ms":1,"is_finished":false,"last_played_at":"2026-05-01T14:05:12.301Z"},"type":"listening.progress_updated"}"#
        let played = try #require(RFC3339.date(from: "2026-05-01T14:05:12.301Z"))
        #expect(live.apply(ServerSentEvent(type: "listening.progress_updated", data: progress))
            == .progressChanged(ListeningPosition(bookID: "book-new", position: 1, updatedAt: played)),
            "the position reaches the player as the book's resume point")
        #expect(try store.progress()["book-new"] == BookProgress(fraction: 0.25, finished: false))

        let deleted = #"{"timestamp":"2026-05-01T14:05:12Z","data":{"deleted_at":"2026-05-01T14:05:12Z","book_id":"book-new"},"type":"book.deleted"}"#
        #expect(live.apply(ServerSentEvent(type: "book.deleted", data: deleted)) == .booksChanged(upserted: [], deleted: ["book-new"]))
        #expect(try store.book(id: "book-new") == nil)
        #expect(try store.progress().isEmpty)
    }

    @Test func theContractFramesAndScansAreUnderstood() throws {
        let live = Self.live(InMemoryLibraryStore())
        let fixture = try String(contentsOfFile: fixturePath("sse_frames.txt"), encoding: .utf8)
        var parser = ServerSentEventParser()
        let changes = parser.feed(Array(fixture.utf8)).map { live.apply($0) }
        #expect(changes.count == 3 && changes[0] == nil && changes[2] == nil, "connected and heartbeat change nothing")
        guard case .progressChanged(let position)? = changes[1] else {
            Issue.record("the progress frame is understood")
            return
        }
        #expect(position?.bookID != nil)
        let scan = #"{"timestamp":"2026-05-01T14:05:12Z","data":{"library_id":"l","phase":"complete","current":1,"total":1,"added":1,"updated":0,"removed":0},"type":"library.scan_progress"}"#
        #expect(live.apply(ServerSentEvent(type: "library.scan_progress", data: scan)) == .needsDeltaSync)
        #expect(live.apply(ServerSentEvent(type: "library.scan_progress", data: scan.replacingOccurrences(of: "complete", with: "walking"))) == nil)
        #expect(live.apply(ServerSentEvent(type: "user.deleted", data: "{}")) == .userDeleted(reason: nil), "signed out without a payload too")
        #expect(live.apply(ServerSentEvent(type: "shelf.book_added", data: "{}")) == .browseChanged([.shelves, .shelfBooks]))
        #expect(live.apply(ServerSentEvent(type: "tag.created", data: "{}")) == .needsDeltaSync)
        let deleted = #"{"timestamp":"2026-05-01T14:05:12Z","data":{"user_id":"u1","reason":"Account deleted by administrator"},"type":"user.deleted"}"#
        #expect(live.apply(ServerSentEvent(type: "user.deleted", data: deleted)) == .userDeleted(reason: "Account deleted by administrator"))
    }

    @Test func brokenEventsChangeNothing() throws {
        let store = InMemoryLibraryStore()
        let live = Self.live(store)
        for data in ["", "not json", #"{"data":{"book":{}}}"#, String(repeating: "[", count: 10_000)] {
            #expect(live.apply(ServerSentEvent(type: "book.created", data: data)) == nil)
        }
        #expect(try store.count() == 0)
    }

    @Test func backoffGrowsToItsCapWithJitter() {
        let backoff = LibraryLiveUpdates.Backoff(initial: .seconds(1), maximum: .seconds(60))
        let first = backoff.delay(afterFailures: 0)
        #expect(first >= .milliseconds(800) && first <= .milliseconds(1_200))
        let fourth = backoff.delay(afterFailures: 3)
        #expect(fourth >= .milliseconds(6_400) && fourth <= .milliseconds(9_600))
        let late = backoff.delay(afterFailures: 500)
        #expect(late >= .seconds(48) && late <= .seconds(72))
    }

    func fixturePath(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ListenUpAPITests/Fixtures/\(name)").path
    }
}
