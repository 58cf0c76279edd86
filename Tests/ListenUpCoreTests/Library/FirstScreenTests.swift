import Foundation
import GRDB
import Logging
@testable import ListenUpCore
@testable import ListenUpLive
import Testing

/// A large library's first screen (``LibraryReadAhead/FirstScreen``): the
/// cache's first books of an order, read on their own, are exactly the
/// books the whole read puts first, and the window shows them, with the
/// library's count, until the whole read replaces them.
@Suite("The first screen of a large library")
struct FirstScreenTests {
    static let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Books with the cases an order has to settle: equal titles (the id
    /// decides), no author (last by author), equal dates and durations,
    /// accents and case (folded keys), titles that are prefixes of others.
    static func books(_ count: Int) -> [ServerBook] {
        var random = SystemRandomNumberGenerator()
        let words = ["Émile", "emile", "Zebra", "Atlas", "atlas ", "Ångström", "Orchard", "The", "the Orchard", "Ørsted", ""]
        let names = ["Ada Lovelace", "ada lovelace", "Zoë Quinn", "Åsa Larsson", "", "Émile Zola"]
        return (0..<count).map { number in
            let title = (0..<Int.random(in: 1...3, using: &random)).map { _ in words.randomElement(using: &random) ?? "" }
                .joined(separator: " ")
            let author = names.randomElement(using: &random) ?? ""
            let added = Date(timeIntervalSince1970: 1_700_000_000 + Double(Int.random(in: 0...5, using: &random)) * 3_600)
            return ServerBook(id: "book-\(Int.random(in: 0...999_999, using: &random))-\(number)", title: title,
                              createdAt: added, updatedAt: added,
                              contributors: author.isEmpty ? [] : [.init(id: "person-\(author.count)", name: author, roles: ["author"])],
                              totalDuration: Int64(Int.random(in: 1...4, using: &random)) * 60_000, revision: Int64(number))
        }
    }

    @Test(arguments: LibrarySort.allCases)
    func theFirstBooksAreTheWholeReadsFirst(sort: LibrarySort) throws {
        let books = Self.books(400)
        for store in [SQLiteLibraryStore.inMemory(), InMemoryLibraryStore()] as [any LibraryStore] {
            try store.upsert(books)
            let whole = LibraryIndex(try store.listedBooks())
            let expected = whole.order(by: sort).map { whole.entries[$0].book.id }
            for count in [1, 7, 50, 400, 500] {
                let first = try #require(try store.firstListedBooks(count, by: sort), "\(type(of: store)) reads a first screen")
                #expect(first.map(\.id) == Array(expected.prefix(count)), "\(type(of: store)), \(sort), first \(count)")
                #expect(first.allSatisfy { $0.details.isEmpty && $0.revision == nil }, "as the list reads them")
            }
        }
    }

    /// Read through the sort's index: a few pages, not every row (at
    /// 50,000 books a pass over the table was a third of the whole read).
    @Test(arguments: LibrarySort.allCases)
    func theFirstBooksAreReadThroughTheSortsIndex(sort: LibrarySort) throws {
        let store = SQLiteLibraryStore.inMemory()
        try store.upsert(Self.books(50))
        _ = try store.firstListedBooks(3, by: sort)
        let plans = try store.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT \(SQLiteLibraryStore.listedColumns) FROM book "
                + "ORDER BY \(SQLiteLibraryStore.orderingTerms(sort)) LIMIT 3").map { row -> String in row["detail"] }
        }
        #expect(plans.contains { $0.contains("USING INDEX bookBy") }, "\(plans)")
        #expect(!plans.contains { $0.contains("TEMP B-TREE") }, "no sort of every row: \(plans)")
    }

    @Test func theListedBooksCarryNeitherDetailsNorRevision() throws {
        let store = SQLiteLibraryStore.inMemory()
        try store.upsert(Self.books(20))
        #expect(try store.listedBooks().allSatisfy { $0.details.isEmpty && $0.revision == nil })
        #expect(try store.books().allSatisfy { !$0.details.isEmpty && $0.revision != nil }, "the whole rows keep them")
        #expect(try store.bookRevisions().count == 20)
    }

    @Test func aLargeLibrarysFirstScreenIsReadBeforeTheWhole() async throws {
        let store = InMemoryLibraryStore()
        try store.upsert(Self.books(60))
        let readAhead = LibraryReadAhead()
        readAhead.start(for: Session.offline(serverURL: URL(string: "http://10.0.0.2:8080")!), sort: .author,
                        firstScreen: .init(books: 5, above: 50), logger: Self.quiet) { _, _ in store }
        let read = try #require(readAhead.take(for: Session.offline(serverURL: URL(string: "http://10.0.0.2:8080")!)))
        let first = try #require(await read.firstScreen?.value)
        let whole = await read.contents.value
        #expect(first.libraryCount == 60)
        #expect(whole.libraryCount == 60)
        #expect(first.order.map { first.index.entries[$0].book.id }
            == Array(whole.order.prefix(5).map { whole.index.entries[$0].book.id }))
    }

    @Test func aSmallLibraryIsReadWholeAtOnce() async throws {
        let store = InMemoryLibraryStore()
        try store.upsert(Self.books(50))
        let readAhead = LibraryReadAhead()
        let session = Session.offline(serverURL: URL(string: "http://10.0.0.2:8080")!)
        readAhead.start(for: session, sort: .title, firstScreen: .init(books: 5, above: 50), logger: Self.quiet) { _, _ in store }
        let read = try #require(readAhead.take(for: session))
        #expect(await read.firstScreen?.value == nil, "50 books are not more than 50")
        #expect(await read.contents.value.index.count == 50)
    }
}

/// The library as a window starts it: the first screen shown, with the
/// library's count, while the whole read is held; then the whole library.
@Suite("The first screen in the library's model")
struct FirstScreenModelTests {
    @MainActor
    @Test func theFirstScreenIsShownWithTheLibrarysCountThenTheWholeLibrary() async throws {
        let server = URL(string: "http://10.0.0.2:8080")!
        let stored = StoredSession(serverURL: server, accessToken: "a", refreshToken: "r", sessionID: "session-1",
                                   userID: "user-1", displayName: "Ada L", email: "ada@example.com", accessExpiresAt: .distantFuture)
        let store = InstrumentedLibraryStore(holdingWholeReads: true)
        defer { store.openWholeReads() }
        try store.upsert(FirstScreenTests.books(60))
        var dependencies = Dependencies.test(settings: AppSettings(serverURL: server.absoluteString, librarySort: "title"),
                                             sessions: .inMemory([stored]))
        dependencies.openLibrary = { _, _ in store }
        dependencies.libraryFirstScreen = .init(books: 5, above: 50)
        let navigator = AppNavigator(registry: .standard, dependencies: dependencies)
        navigator.start()
        for _ in 0..<2_000 where navigator.activeRoute != .library { try await Task.sleep(for: .milliseconds(5)) }
        let model = try #require(navigator.activeModel as? LibraryModel)
        defer { model.deactivate() }

        for _ in 0..<2_000 where !model.isShowingFirstScreen { try await Task.sleep(for: .milliseconds(5)) }
        let whole = LibraryIndex(try store.base.listedBooks())
        let firstFive = whole.order(by: .title).prefix(5).map { whole.entries[$0].book.id }
        #expect(model.isShowingFirstScreen)
        #expect(model.books.map(\.id) == firstFive)
        #expect(model.bookCount == 60, "the library's count, not the first screen's")
        #expect(!model.hasLoadedCache, "the whole read is still held")
        #expect(model.status == .loaded)

        store.openWholeReads()
        for _ in 0..<2_000 where !model.hasLoadedCache { try await Task.sleep(for: .milliseconds(5)) }
        #expect(model.hasLoadedCache)
        #expect(!model.isShowingFirstScreen)
        #expect(model.books.count == 60)
        #expect(Array(model.books.prefix(5).map(\.id)) == firstFive)
    }
}
