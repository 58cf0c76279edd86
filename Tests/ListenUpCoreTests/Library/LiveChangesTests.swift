import Foundation
import ListenUpAPI
import ListenUpTestSupport
import Logging
import Testing
@testable import ListenUpCore

/// A live change reads only the books it names: the result must be what a
/// read of the whole cache gives.
@Suite("Live changes read alone")
struct LiveChangesTests {
    static let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    static func book(_ number: Int, title: String? = nil, author: String = "Author") -> ServerBook {
        let date = Date(timeIntervalSince1970: 1_000_000 + Double(number % 17) * 60)
        return ServerBook(id: "book-\(number)", title: title ?? "Title \(number % 23)", createdAt: date, updatedAt: date,
                          contributors: [ServerBook.Contributor(id: "c\(number)", name: "\(author) \(number % 7)", roles: ["author"])],
                          totalDuration: Int64(number % 5) * 1_000, totalSize: 1)
    }

    static func ids(_ contents: LibraryReadAhead.Contents) -> [String] {
        contents.order.map { contents.index.entries[$0].book }.map { "\($0.id)|\($0.title)|\($0.authors)" }
    }

    /// `contents` with `changes` put in place (the books they name read
    /// alone), as the library model does it.
    static func changing(_ contents: LibraryReadAhead.Contents, with changes: LibraryCacheChanges,
                         from store: any LibraryStore) throws -> LibraryReadAhead.Contents {
        var (index, order) = (contents.index, contents.order)
        let steps = index.change(removing: changes.upserted.union(changes.deleted),
                                 inserting: try store.listedBooks(ids: changes.upserted), order: &order, sort: contents.sort)
        #expect(steps != nil, "the order stays in step with the entries")
        return LibraryReadAhead.Contents(index: index, sort: contents.sort, order: order, progress: contents.progress,
                                         libraryCount: index.count)
    }

    @Test(arguments: LibrarySort.allCases)
    func aChangeReadAloneGivesWhatAWholeReadGives(sort: LibrarySort) throws {
        let store = InMemoryLibraryStore()
        try store.apply((0..<300).map { Self.book($0) }, deleting: [], state: LibrarySyncState(fullSyncDone: true))
        let before = LibraryReadAhead.Contents.read(from: store, sort: sort, logger: Self.quiet)

        // Added, renamed, deleted.
        var changes = LibraryCacheChanges()
        try store.upsert([Self.book(1_000, title: "Brand New"), Self.book(7, title: "Renamed", author: "Someone Else")])
        changes.record(upserted: ["book-1000", "book-7"], deleted: [])
        try store.delete(["book-3", "book-9"])
        changes.record(upserted: [], deleted: ["book-3", "book-9"])
        let alone = try Self.changing(before, with: changes, from: store)
        let whole = LibraryReadAhead.Contents.read(from: store, sort: sort, logger: Self.quiet)
        #expect(Self.ids(alone) == Self.ids(whole))
        #expect(alone.index.count == 299)
        #expect(Set(alone.order) == Set(alone.index.entries.indices), "the order holds every entry once")
    }

    @Test func theLatestWordOnABookWins() {
        var changes = LibraryCacheChanges()
        changes.record(upserted: ["a", "b"], deleted: [])
        changes.record(upserted: [], deleted: ["a", "c"])
        changes.record(upserted: ["c"], deleted: [])
        #expect(changes.upserted == ["b", "c"])
        #expect(changes.deleted == ["a"])
        #expect(changes.bookCount == 3)
        #expect(!changes.progress)
    }

    @Test func storesFindBooksByID() throws {
        let store = InMemoryLibraryStore()
        try store.apply((0..<5).map { Self.book($0) }, deleting: [], state: LibrarySyncState())
        let found = try store.listedBooks(ids: ["book-1", "book-4", "book-99"])
        #expect(Set(found.map(\.id)) == ["book-1", "book-4"])
        #expect(found.allSatisfy { $0.details.isEmpty })
        #expect(try store.listedBooks(ids: []).isEmpty)
    }
}
