import Foundation
import ListenUpAPI
import Logging
import Testing
@testable import ListenUpCore

@Suite("The library read ahead at start-up")
struct LibraryReadAheadTests {
    static let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
    static let server = URL(string: "http://10.0.0.2:8080")!
    static let session = Session.offline(serverURL: server)

    /// A store holding `titles`, as a sync would have left it.
    static func store(_ titles: [String]) throws -> any LibraryStore {
        let added = Date(timeIntervalSince1970: 1_777_644_312)
        let books = titles.enumerated().map { number, title in
            ServerBook(id: "book-\(number)", title: title, createdAt: added, updatedAt: added, totalDuration: 60_000, totalSize: 1)
        }
        let store = InMemoryLibraryStore()
        try store.upsert(books)
        return store
    }

    @Test func theReadIsHandedOverOnceWithItsStoreAndBooksInOrder() async throws {
        let store = try Self.store(["Zebra", "Anathem", "Middlemarch"])
        let readAhead = LibraryReadAhead()
        readAhead.start(for: Self.session, sort: .title, logger: Self.quiet) { _, _ in store }
        // Generous: tests running beside this one can hold the thread pool.
        for _ in 0..<6_000 where !readAhead.isFinished { try await Task.sleep(for: .milliseconds(5)) }

        let read = try #require(readAhead.take(for: Self.session))
        #expect(read.store === store)
        let contents = try #require(read.finished, "done before it was taken")
        #expect(contents.sort == .title)
        #expect(contents.order.map { contents.index.entries[$0].book.title } == ["Anathem", "Middlemarch", "Zebra"])
        #expect(contents.index.entries.allSatisfy { $0.book.details.isEmpty }, "the list leaves details in the store")
        #expect(await read.contents.value.order == contents.order)
        #expect(readAhead.take(for: Self.session) == nil, "handed over once")
    }

    @Test func aReadForAnotherAccountIsDropped() throws {
        let store = try Self.store(["Anathem"])
        let readAhead = LibraryReadAhead()
        readAhead.start(for: Self.session, sort: .title, logger: Self.quiet) { _, _ in store }
        let someoneElse = Session.offline(serverURL: Self.server, userID: "user-2", displayName: "Charles B")
        #expect(readAhead.take(for: someoneElse) == nil)
        #expect(readAhead.take(for: Self.session) == nil, "dropped, not kept for later")
    }

    /// The point of it: at launch GTK holds the main thread while it builds
    /// the window. The saved session and its library must be read in the
    /// meantime, and the library shown with its books the moment the main
    /// actor is free, the store opened once.
    @MainActor
    @Test func theSavedLibraryIsReadWhileTheMainThreadIsBusy() async throws {
        let stored = StoredSession(serverURL: Self.server, accessToken: "a", refreshToken: "r", sessionID: "session-1",
                                   userID: "user-1", displayName: "Ada L", email: "ada@example.com", accessExpiresAt: .distantFuture)
        let store = try Self.store(["Zebra", "Anathem", "Middlemarch"])
        let opened = LockedValue(0)
        var dependencies = Dependencies.test(settings: AppSettings(serverURL: Self.server.absoluteString, librarySort: "title"),
                                             sessions: .inMemory([stored]))
        dependencies.openLibrary = { _, _ in
            opened.withLock { $0 += 1 }
            return store
        }
        // The library as it is made, before anything else runs.
        let booksAtCreation = LockedValue<[String]?>(nil)
        let library = RouteNode(.library, serves: RouteNode.library.serves, model: { context in
            let model = RouteNode.library.makeModel(context) as! LibraryModel
            booksAtCreation.value = model.books.map(\.title)
            return model
        }, previews: [])
        let registry = RouteRegistry(RouteRegistry.standard.nodes.map { $0.route == .library ? library : $0 })
        let navigator = AppNavigator(registry: registry, dependencies: dependencies)
        navigator.start()

        // Hold the main thread the way GTK does while it builds the window
        // (for a generous while: tests running beside this one can hold the
        // thread pool the read runs on).
        let deadline = ContinuousClock.now + .seconds(30)
        while !dependencies.libraryReadAhead.isFinished, ContinuousClock.now < deadline { usleep(2_000) }
        #expect(dependencies.libraryReadAhead.isFinished, "the read ran while the main thread was held")

        for _ in 0..<2_000 where navigator.activeRoute != .library { try await Task.sleep(for: .milliseconds(5)) }
        let model = try #require(navigator.activeModel as? LibraryModel)
        defer { model.deactivate() }
        #expect(booksAtCreation.value == ["Anathem", "Middlemarch", "Zebra"], "the books are there as the library is made")
        #expect(model.hasLoadedCache)
        #expect(opened.value == 1)
    }
}
