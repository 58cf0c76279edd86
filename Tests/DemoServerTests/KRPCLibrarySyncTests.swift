import DemoServer
import Foundation
import ListenUpAPI
import ListenUpCore
import ListenUpLive
import ListenUpTestSupport
import Testing
@testable import ListenUpCore

/// The library cache kept in step with the demo server speaking kRPC,
/// through ``KRPCServerConnection``: the same ``LibrarySync`` as REST v1.
@Suite("Library cache and sync over kRPC")
struct KRPCLibrarySyncTests {
    let logs = LogCapture()

    func signedIn(books: Int) async throws -> (DemoServer, KRPCServerConnection) {
        var configuration = DemoServer.Configuration()
        configuration.bookCount = books
        configuration.protocol = .krpc
        configuration.admin = .init(email: "ada@example.com", password: "analytical-engine")
        let server = DemoServer(configuration: configuration, logger: logs.logger)
        try await server.start()
        let url = try #require(server.baseURL)
        let connection = KRPCServerConnection(baseURL: url, session: nil, transport: .live, sessions: .inMemory(),
                                              deviceInfo: DeviceInfo(deviceType: "desktop", platform: "Linux"), logger: logs.logger)
        _ = try await connection.login(email: "ada@example.com", password: "analytical-engine")
        return (server, connection)
    }

    @Test func aFullSyncThenADeltaFromTheRevisionAppliesCreatesUpdatesAndDeletes() async throws {
        let (server, connection) = try await signedIn(books: 250)
        defer { Task { await server.stop() } }
        #expect(try await connection.libraryBookCount() == 250)
        let store = SQLiteLibraryStore.inMemory()
        try await LibrarySync(server: connection, store: store, pageSize: 100).run()
        #expect(try store.count() == 250)
        let state = try store.syncState()
        #expect(state.fullSyncDone)
        #expect(state.deltaCursor?.hasPrefix("rev:") == true, "the revision the next delta starts at: \(state)")
        let pulls = server.requestCount("SyncStreamService.pullDomain")
        #expect(pulls == 3, "100 + 100 + 50 (not a full page: the last)")

        let books = try store.books()
        let renamed = books[0].id, removed = books[1].id
        server.updateBook(id: renamed, title: "Zz Renamed Édition 夜明け")
        server.deleteBook(id: removed)
        let added = server.addBook(title: "A Brand New Book")
        let changed = try await LibrarySync(server: connection, store: store, pageSize: 100).run()
        #expect(server.requestCount("SyncStreamService.pullDomain") == pulls + 1, "one delta page, from the revision")
        #expect(changed == 3, "one renamed, one added, one deleted")
        let after = try store.books()
        #expect(after.count == 250)
        #expect(after.first { $0.id == renamed }?.title == "Zz Renamed Édition 夜明け")
        #expect(!after.contains { $0.id == removed })
        #expect(after.first { $0.id == added }?.title == "A Brand New Book")
        #expect(try await LibrarySync(server: connection, store: store, pageSize: 100).run() == 0, "nothing new")
        await connection.logout()
    }

    @Test func aFullLastPageIsFollowedByOneEmptyPage() async throws {
        let (server, connection) = try await signedIn(books: 200)
        defer { Task { await server.stop() } }
        let store = SQLiteLibraryStore.inMemory()
        try await LibrarySync(server: connection, store: store, pageSize: 100).run()
        #expect(try store.count() == 200)
        #expect(server.requestCount("SyncStreamService.pullDomain") == 3, "two full pages say hasMore; the empty third ends it (§6.5)")
        await connection.logout()
    }

    @Test func coversComeWithTheBearerTokenAndAMissingOneIsNil() async throws {
        let (server, connection) = try await signedIn(books: 3)
        defer { Task { await server.stop() } }
        let store = SQLiteLibraryStore.inMemory()
        try await LibrarySync(server: connection, store: store).run()
        let book = try #require(try store.books().first { $0.hasCover })
        let bytes = try #require(try await connection.cover(bookID: book.id, maxBytes: 1 << 20))
        #expect(ImageFormat.sniff(bytes) != nil)
        #expect(try await connection.cover(bookID: "book-nope", maxBytes: 1 << 20) == nil)
        server.expireAccessTokens()
        #expect(try await connection.cover(bookID: book.id, maxBytes: 1 << 20) != nil, "refreshed once after the 401")
        #expect(server.requestCount("AuthServicePublic.refreshSession") == 1)
        await connection.logout()
    }
}
