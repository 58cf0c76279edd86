import Foundation
import ListenUpAPI
import ListenUpKRPC
import ListenUpTestSupport
import ServerSentEvents
import Testing
@testable import ListenUpCore
@testable import ListenUpLive

/// The facet domains on the wire: kRPC pages (defaults omitted, tombstones
/// with blanked ids, rows missing a required key), their domain events as
/// live events, and REST v1's lists with missing optional keys.
@Suite("Facet domains on the wire")
struct FacetWireTests {
    static func page(_ domain: String, _ items: [String], cursor: Int64? = 30, hasMore: Bool = false) -> SyncPage {
        SyncPage(domain: domain, items: items, nextCursor: cursor, hasMore: hasMore)
    }

    @Test func aGenresPageFillsTheKotlinDefaults() throws {
        let rows = try #require(try KRPCMapping.facetPage(.genres, Self.page("genres", [
            #"{"id":"g1","name":"Fiction","slug":"fiction","path":"/fiction","revision":3,"updatedAt":1000}"#,
            #"{"id":"g2","name":"Fantasy","slug":"fantasy","path":"/fiction/fantasy","parentId":"g1","depth":1,"sortOrder":4,"revision":30}"#,
            #"{"id":"g3","name":"Gone","slug":"gone","path":"/gone","revision":12,"deletedAt":5}"#,
        ]), since: 0))
        guard case .genres(let page) = rows else { Issue.record("\(rows)"); return }
        #expect(page.entities.map(\.id) == ["g1", "g2"] && page.deletedIDs == ["g3"] && page.nextCursor == "rev:30")
        #expect(page.entities[0].parentID == nil && page.entities[0].depth == 0 && page.entities[0].sortOrder == 0)
        #expect(page.entities[1].parentID == "g1" && page.entities[1].depth == 1 && page.entities[1].sortOrder == 4)
    }

    @Test func junctionTombstonesArriveWithBlankIdsAndAreKnownByTheirOwn() throws {
        let rows = try #require(try KRPCMapping.facetPage(.bookTags, Self.page("book_tags", [
            #"{"id":"bt1","bookId":"b1","tagId":"t1","createdAt":1000,"revision":7}"#,
            #"{"id":"bt2","bookId":"","tagId":"","createdAt":1000,"revision":8,"deletedAt":2000}"#,
        ]), since: 0))
        #expect(rows == .bookTags(EntityPage(entities: [BookMembership(id: "bt1", bookID: "b1", groupID: "t1", updatedAt: KRPCMapping.date(1000))],
                                             deletedIDs: ["bt2"], nextCursor: "rev:30")))
        let moods = try #require(try KRPCMapping.facetPage(.bookMoods, Self.page("book_moods", [
            #"{"id":"bm1","bookId":"b1","moodId":"m1","createdAt":1,"revision":2}"#,
        ]), since: 0))
        guard case .bookMoods(let mood) = moods else { Issue.record("\(moods)"); return }
        #expect(mood.entities.map(\.groupID) == ["m1"])
        let books = try #require(try KRPCMapping.facetPage(.collectionBooks, Self.page("collection_books", [
            #"{"id":"c1:b1","collectionId":"c1","bookId":"b1","createdAt":1,"revision":2}"#,
            #"{"id":"c1:b2","collectionId":"","bookId":"","createdAt":1,"revision":3,"deletedAt":4}"#,
        ]), since: 0))
        guard case .collectionBooks(let members) = books else { Issue.record("\(books)"); return }
        #expect(members.entities.map(\.groupID) == ["c1"] && members.deletedIDs == ["c1:b2"])
    }

    @Test func tagsMoodsAndCollectionsMap() throws {
        let tags = try #require(try KRPCMapping.facetPage(.tags, Self.page("tags", [
            #"{"id":"t1","name":"Slow burn","slug":"slow-burn","revision":4,"updatedAt":1000}"#,
        ]), since: 0))
        #expect(tags == .tags(EntityPage(entities: [ListenUpCore.Tag(id: "t1", name: "Slow burn", slug: "slow-burn",
                                                                     updatedAt: KRPCMapping.date(1000))], nextCursor: "rev:30")))
        let collections = try #require(try KRPCMapping.facetPage(.collections, Self.page("collections", [
            #"{"id":"c1","libraryId":"l","ownerId":"u","name":"Club","revision":4,"updatedAt":1000}"#,
            #"{"id":"c2","libraryId":"l","ownerId":"u","name":"All","isSystem":true,"revision":5,"updatedAt":1000}"#,
            #"{"id":"c3","libraryId":"","ownerId":"","name":"","revision":6,"updatedAt":1000,"deletedAt":1}"#,
        ]), since: 0))
        guard case .collections(let page) = collections else { Issue.record("\(collections)"); return }
        #expect(page.entities.map(\.isSystem) == [false, true] && page.deletedIDs == ["c3"])
    }

    @Test(arguments: [
        ("genres", #"{"id":"g1","name":"Fiction","path":"/f","revision":1}"#),
        ("tags", #"{"id":"t1","name":"A","slug":"a","updatedAt":1}"#),
        ("book_tags", #"{"id":"bt1","bookId":"b1","createdAt":1,"revision":1}"#),
        ("collections", #"{"id":"c1","libraryId":"l","name":"N","revision":1,"updatedAt":1}"#),
        ("collection_books", #"{"id":"x","collectionId":"c","bookId":7,"createdAt":1,"revision":1}"#),
    ])
    func aRowMissingARequiredKeyIsADecodingErrorNotACrash(domain: String, json: String) {
        let browse = BrowseDomain(rawValue: domain) ?? .genres
        #expect(throws: KRPCDecodingError.self) { try KRPCMapping.facetPage(browse, Self.page(domain, [json]), since: 0) }
    }

    @Test func facetEventsBecomeBrowseEvents() {
        let cases: [(String, String, String)] = [
            ("tags", #"{"type":"SyncEvent.Updated","id":"t1","revision":12,"occurredAt":1,"payload":{"id":"t1","name":"N","slug":"n","revision":12,"updatedAt":1}}"#,
             "tag.updated"),
            ("moods", #"{"type":"SyncEvent.Deleted","id":"m1","revision":12,"occurredAt":1}"#, "mood.deleted"),
            ("book_tags", #"{"type":"SyncEvent.Updated","id":"bt1","revision":12,"occurredAt":1,"payload":{"id":"bt1","bookId":"","tagId":"","createdAt":1,"revision":12,"deletedAt":3}}"#,
             "book_tag.deleted"),
            ("collection_books", #"{"type":"SyncEvent.Created","id":"c:b","revision":12,"occurredAt":1,"payload":{"id":"c:b","collectionId":"c","bookId":"b","createdAt":1,"revision":12}}"#,
             "collection_book.updated"),
            ("genres", #"{"type":"SyncEvent.Deleted","id":"g1","revision":12,"occurredAt":1}"#, "genre.deleted"),
        ]
        for (domain, json, type) in cases {
            guard case .emit(let events) = KRPCLiveEvents.translate(SyncFrame(domain: domain, revision: 12, json: json), duration: { _ in nil })
            else { Issue.record("not emitted: \(domain)"); continue }
            #expect(events == [.needsDeltaSync], "\(domain): \(type), a delta")
        }
    }

    @Test func restListsDecodeWithOptionalKeysMissing() throws {
        let genres = try ListenUpJSON.decoder.decode(GenresResponse.self, from: Data(#"""
            {"genres":[{"id":"g1","name":"Fiction","slug":"fiction","path":"/fiction","depth":0,"sort_order":0,
              "created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"},
             {"id":"g2","name":"Fantasy","slug":"fantasy","parent_id":"g1","path":"/fiction/fantasy","depth":1,"sort_order":2,
              "description":"d","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}]}
            """#.utf8))
        #expect(genres.genres.map(\.parentID) == [nil, "g1"])
        let tags = try ListenUpJSON.decoder.decode(TagsResponse.self, from: Data(#"""
            {"tags":[{"id":"t1","slug":"found-family","book_count":3,"created_at":"2026-01-01T00:00:00Z"}]}
            """#.utf8))
        #expect(tags.tags.map { RESTBrowseMapping.tag($0, now: Date()).name } == ["Found family"], "no name on REST: the slug made readable")
        let collections = try ListenUpJSON.decoder.decode(CollectionsResponse.self, from: Data(#"""
            {"collections":[{"id":"c1","library_id":"l","owner_id":"u","name":"Inbox","book_count":2,"is_inbox":true,
              "is_global_access":false,"created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"},
             {"id":"c2","name":"Club"}]}
            """#.utf8))
        #expect(collections.collections.map(\.isInbox) == [true, false])
        #expect(throws: (any Error).self) { try ListenUpJSON.decoder.decode(CollectionsResponse.self, from: Data(#"{"collections":[{"id":"c"}]}"#.utf8)) }
    }
}

/// REST v1's facet lists through the real client: what it asks, and a list
/// the server lacks or refuses leaving the cache as it was.
@Suite("Facet lists over REST v1")
struct FacetRESTTests {
    let logs = LogCapture()

    @Test func listsAreReadWholeAndARefusedOrMissingOneReplacesNothing() async throws {
        @Sendable func envelope(_ data: String) -> Data { Data(#"{"v":1,"success":true,"data":\#(data)}"#.utf8) }
        let server = try await HostileServer.start { request in
            switch request.path {
            case "/api/v1/tags":
                return .respond(status: 200, contentType: "application/json",
                                body: envelope(#"{"tags":[{"id":"t1","slug":"slow-burn","book_count":2,"created_at":"2026-01-01T00:00:00Z"}]}"#))
            case "/api/v1/library/status":
                return .respond(status: 200, contentType: "application/json", body: envelope(
                    #"{"exists":true,"library":{"id":"lib1","name":"L","owner_id":"u","scan_paths":[],"skip_inbox":true,"access_mode":"open","#
                        + #""created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"},"needs_setup":false,"book_count":1,"is_scanning":false}"#))
            case "/api/v1/libraries/lib1/collections":
                return .respond(status: 403, contentType: "application/json", body: Data(#"{"v":1,"success":false,"error":"forbidden"}"#.utf8))
            default:
                return .respond(status: 404, contentType: "text/plain", body: Data("404 page not found\n".utf8))
            }
        }
        defer { Task { await server.stop() } }
        let client = APIClient(baseURL: server.baseURL, session: Canned.storedSession(server.baseURL), transport: .live,
                               sessions: .inMemory(), deviceInfo: BrowseWireTests.device, logger: logs.logger)
        let tags = try await client.syncBrowse(.tags, limit: 500, cursor: nil, updatedAfter: nil)
        #expect(tags == .tags(EntityPage(entities: [ListenUpCore.Tag(id: "t1", name: "Slow burn", slug: "slow-burn",
                                                                     updatedAt: Date(timeIntervalSince1970: 0))], replacesAll: true)))
        #expect(try await client.syncBrowse(.genres, limit: 500, cursor: nil, updatedAfter: nil) == .empty(.genres), "404: no such list")
        #expect(try await client.syncBrowse(.collections, limit: 500, cursor: nil, updatedAfter: nil) == .empty(.collections), "403")
        #expect(try await client.syncBrowse(.moods, limit: 500, cursor: nil, updatedAfter: nil) == .empty(.moods), "the Go server has none")
        #expect(server.requests.contains { $0.path == "/api/v1/libraries/lib1/collections" })
        // The library's id is asked for once, then remembered: the book
        // count of the next sync names it too.
        _ = try await client.syncBrowse(.collectionBooks, limit: 500, cursor: nil, updatedAfter: nil)
        _ = try await client.libraryBookCount()
        _ = try await client.syncBrowse(.collections, limit: 500, cursor: nil, updatedAfter: nil)
        #expect(server.requests.filter { $0.path == "/api/v1/library/status" }.count == 2, "\(server.requests.map(\.path))")
    }
}
