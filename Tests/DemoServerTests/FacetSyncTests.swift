import DemoServer
import Foundation
import ListenUpAPI
import ListenUpCore
import ListenUpKRPC
import ListenUpLive
import ListenUpTestSupport
import Testing

/// The facets (genre tree, tags, moods, collections) through the real
/// clients against the demo server on loopback, over both protocols: a
/// whole sync into the app's cache, then the changes the test controls
/// make (a collection's books; on kRPC a tag renamed and deleted, and a
/// junction row's tombstone with blanked ids and its resurrection).
@Suite("Facets over both protocols")
struct FacetSyncTests {
    let base = BrowseSyncTests()

    static func sync(_ client: any ServerConnection, _ store: any LibraryStore) async throws {
        _ = try await LibrarySync(server: client, store: store, pageSize: 100).run()
        _ = try await BrowseSync(server: client, store: store, pageSize: 100).run()
    }

    @Test(arguments: [DemoProtocol.rest, .krpc])
    func theFacetsSyncIntoTheCacheAndFollowTheServer(wire: DemoProtocol) async throws {
        let (server, client) = try await base.signedIn(wire, books: 30)
        defer { Task { await server.stop() } }
        #expect(server.genreIDs.count == 40 && server.tagIDs.count == 300 && server.moodIDs.count == 20 && server.collectionIDs.count == 4)
        let store = SQLiteLibraryStore.inMemory()
        try await Self.sync(client, store)

        // The tree: the server's names, parents and depths.
        let genres = try store.browseItems(.genres).sorted(by: .name)
        let fiction = try #require(genres.first { $0.name == "Fiction" })
        #expect(fiction.depth == 0 && genres.contains { $0.name == "Fantasy" && $0.depth == 1 })
        let page = try #require(try store.browsePage(.genre, id: fiction.id))
        #expect(!page.children.isEmpty && page.children.allSatisfy { $0.depth == 1 })

        // Every tag with books, named (REST: the slug made readable), with its books.
        let tagged = server.tagIDs.filter { !server.bookIDs(inFacet: "tag", $0).isEmpty }
        let tags = try store.browseItems(.tags)
        #expect(Set(tags.map(\.id)) == Set(tagged))
        let first = try #require(tagged.first)
        #expect(try store.browsePage(.tag, id: first)?.entries.map(\.bookID).sorted() == server.bookIDs(inFacet: "tag", first).sorted())
        #expect(try store.browseItems(.moods).count == (wire == .krpc ? 20 : 0), "REST v1 has no moods")
        #expect(try store.browseItems(.collections).count == 4)

        // A book out of a collection and back.
        let book = try #require(server.bookIDs(inFacet: "collection", "collection-2").first)
        #expect(server.removeBook(book, fromCollection: "collection-2"))
        try await Self.sync(client, store)
        #expect(try store.browsePage(.collection, id: "collection-2")?.entries.contains { $0.bookID == book } == false)
        #expect(try store.links(ofBook: book).collections.contains { $0.id == "collection-2" } == false)
        #expect(server.addBook(book, toCollection: "collection-2"))
        try await Self.sync(client, store)
        #expect(try store.links(ofBook: book).collections.contains { $0.name == "Book Club" })
    }

    @Test func onKRPCATagsRenameDeletionAndAJunctionsTombstoneAndResurrection() async throws {
        let (server, client) = try await base.signedIn(.krpc, books: 30)
        defer { Task { await server.stop() } }
        let store = InMemoryLibraryStore()
        try await Self.sync(client, store)
        let book = try #require(server.bookIDs(inFacet: "tag", "tag-1").first)
        let cursor = try store.syncState(of: .bookTags).deltaCursor
        guard case .bookTags(let before) = try await client.syncBrowse(.bookTags, limit: 5000, cursor: nil, updatedAfter: nil) else {
            Issue.record("not book_tags"); return
        }
        let row = try #require(before.entities.first { $0.bookID == book && $0.groupID == "tag-1" })

        // Taken off: a tombstone known by the row's id alone.
        #expect(server.setTag("tag-1", onBook: book, false))
        guard case .bookTags(let removed) = try await client.syncBrowse(.bookTags, limit: 100, cursor: cursor, updatedAfter: nil) else {
            Issue.record("not book_tags"); return
        }
        #expect(removed.entities.isEmpty && removed.deletedIDs == [row.id])
        try await Self.sync(client, store)
        #expect(try store.links(ofBook: book).tags.contains { $0.id == "tag-1" } == false)

        // Put back: the same id, live again.
        let again = try store.syncState(of: .bookTags).deltaCursor
        #expect(server.setTag("tag-1", onBook: book, true))
        guard case .bookTags(let back) = try await client.syncBrowse(.bookTags, limit: 100, cursor: again, updatedAfter: nil) else {
            Issue.record("not book_tags"); return
        }
        #expect(back.entities.map(\.id) == [row.id] && back.deletedIDs.isEmpty)
        try await Self.sync(client, store)
        #expect(try store.links(ofBook: book).tags.contains { $0.id == "tag-1" })

        // Renamed, then deleted (with every book's link to it).
        #expect(server.renameTag(id: "tag-1", to: "Renamed Tag"))
        try await Self.sync(client, store)
        #expect(try store.browsePage(.tag, id: "tag-1")?.name == "Renamed Tag")
        #expect(server.deleteTag(id: "tag-1"))
        try await Self.sync(client, store)
        #expect(try store.browsePage(.tag, id: "tag-1") == nil)
        #expect(try store.browseItems(.tags).contains { $0.id == "tag-1" } == false)
    }

    /// The demo's kRPC rows as the server writes them: defaults omitted, a
    /// junction tombstone with its book and tag ids blanked, a re-added
    /// book under the same row id.
    @Test func theDemoWritesJunctionTombstonesWithBlankIds() async throws {
        let (server, port) = try await KRPCTestServer.start(books: 12, logs: base.logs) { $0.payload = .realistic }
        defer { Task { await server.stop() } }
        let (session, _) = try await KRPCTestServer.authed(port: port)
        func pull(_ domain: String, since: Int64) async throws -> SyncPage {
            try await session.value(.pullDomain, KRPCTestSession.arguments(PullDomainArguments(domain: domain, since: since, limit: 5000)),
                                    as: SyncPage.self)
        }
        let genres = try await pull("genres", since: 0)
        #expect(genres.items.count == 40)
        #expect(genres.items.contains { $0.contains(#""name":"Fiction""#) && !$0.contains("parentId") && !$0.contains("depth") },
                "a root: parentId and depth omitted")
        let links = try await pull("book_tags", since: 0)
        let book = try #require(server.bookIDs(inFacet: "tag", "tag-1").first)
        let row = try #require(links.items.first { $0.contains(#""bookId":"\#(book)","tagId":"tag-1""#) })
        let id = try KRPCJSON.decode(MembershipSyncPayload.self, from: row).id
        let since = try #require(links.nextCursor)
        #expect(server.setTag("tag-1", onBook: book, false))
        let tombstone = try #require(try await pull("book_tags", since: since).items.first)
        #expect(tombstone.contains(#""id":"\#(id)","bookId":"","tagId":"""#) && tombstone.contains("deletedAt"), "\(tombstone)")
        #expect(server.setTag("tag-1", onBook: book, true))
        let back = try await pull("book_tags", since: since)
        #expect(back.items.count == 1 && back.items[0].contains(#""id":"\#(id)","bookId":"\#(book)""#) && !back.items[0].contains("deletedAt"))
        await session.socket.close()
    }
}
