import Foundation
import ListenUpAPI
import ListenUpTestSupport
import Testing
@testable import ListenUpCore

/// Live changes are put in place (LibraryIndex+Changes.swift,
/// LibraryModel+LiveChanges.swift): for random books added, changed and
/// removed, under every sort, with a search and filters on, the result must
/// be what reading the whole cache gives.
@MainActor
@Suite("Live changes put in place")
struct LiveChangesInPlaceTests {
    /// Few titles, authors, dates and durations, so the sorts meet many
    /// ties (decided by the title, then the id); some books have no author.
    static func randomBook(_ id: String, using random: inout SeededRandom) -> ServerBook {
        let words = ["Dune", "dune", "Anathem", "Éowyn", "zebra", "Zebra", "猫", "A", "the end", ""]
        let title = (0..<Int.random(in: 1...2, using: &random)).map { _ in words.randomElement(using: &random) ?? "" }
            .joined(separator: " ")
        let date = Date(timeIntervalSince1970: 1_000_000 + Double(Int.random(in: 0..<4, using: &random)) * 60)
        let authors = ["Le Guin", "le guin", "Tolkien", "Ōe"]
        let contributors = Bool.random(using: &random) ? [] : [
            ServerBook.Contributor(id: "c-\(id)", name: authors.randomElement(using: &random) ?? "", roles: ["author"]),
        ]
        return ServerBook(id: id, title: title, createdAt: date, updatedAt: date, contributors: contributors,
                          totalDuration: Int64(Int.random(in: 0..<3, using: &random)) * 1_000, totalSize: 1)
    }

    /// A library of `count` random books, its ids with them.
    static func library(_ count: Int, using random: inout SeededRandom) throws -> (InMemoryLibraryStore, [String]) {
        let store = InMemoryLibraryStore()
        let ids = (0..<count).map { "book-\($0)" }
        try store.apply(ids.map { randomBook($0, using: &random) }, deleting: [], state: LibrarySyncState(fullSyncDone: true))
        return (store, ids)
    }

    /// One random batch of live changes written to `store`: books added,
    /// changed and removed, and (sometimes) progress set or cleared.
    static func randomChanges(to store: InMemoryLibraryStore, ids: inout [String], next: inout Int,
                              using random: inout SeededRandom) throws -> LibraryCacheChanges {
        var changes = LibraryCacheChanges()
        for _ in 0..<Int.random(in: 1...12, using: &random) {
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                let id = "book-\(next)"
                next += 1
                try store.upsert([randomBook(id, using: &random)])
                ids.append(id)
                changes.record(upserted: [id], deleted: [])
            case 1:
                guard let id = ids.randomElement(using: &random) else { continue }
                try store.upsert([randomBook(id, using: &random)])
                changes.record(upserted: [id], deleted: [])
            case 2:
                guard !ids.isEmpty else { continue }
                let id = ids.remove(at: Int.random(in: 0..<ids.count, using: &random))
                try store.delete([id])
                changes.record(upserted: [], deleted: [id])
            default:
                guard let id = ids.randomElement(using: &random) else { continue }
                let finished = Bool.random(using: &random)
                try store.setProgress(Bool.random(using: &random) ? BookProgress(fraction: finished ? 1 : 0.5, finished: finished) : nil,
                                      for: id)
                changes.progress = true
            }
        }
        return changes
    }

    static func line(_ index: LibraryIndex, _ position: Int) -> String {
        let book = index.entries[position].book
        return "\(book.id)|\(book.title)|\(book.authors)|\(book.duration)|\(book.createdAt.timeIntervalSince1970)"
    }

    @Test(arguments: LibrarySort.allCases)
    func theIndexAndItsStepsMatchAWholeRead(sort: LibrarySort) throws {
        var random = SeededRandom(seed: 7 &+ UInt64(LibrarySort.allCases.firstIndex(of: sort) ?? 0))
        var (store, ids) = try Self.library(150, using: &random)
        var next = 150
        var index = LibraryIndex(try store.listedBooks())
        var order = index.order(by: sort)
        var shown = order.map { Self.line(index, $0) }
        for round in 0..<60 {
            let changes = try Self.randomChanges(to: store, ids: &ids, next: &next, using: &random)
            let steps = index.change(removing: changes.upserted.union(changes.deleted),
                                     inserting: try store.listedBooks(ids: changes.upserted), order: &order, sort: sort)
            let whole = LibraryIndex(try store.listedBooks())
            let expected = whole.order(by: sort).map { Self.line(whole, $0) }
            #expect(order.map { Self.line(index, $0) } == expected, "round \(round)")
            #expect(order.sorted() == Array(index.entries.indices), "round \(round): every entry once")
            guard let steps else {
                Issue.record("round \(round): the order fell out of step")
                return
            }
            // The steps turn the list shown before into the list now.
            for step in steps {
                switch step {
                case .remove(let place): shown.remove(at: place)
                case .insert(let book, let place):
                    shown.insert("\(book.id)|\(book.title)|\(book.authors)|\(book.duration)|\(book.createdAt.timeIntervalSince1970)",
                                 at: place)
                }
            }
            #expect(shown == expected, "round \(round)")
            // A search over the changed index finds what it finds over a whole read.
            #expect(index.filter(order, query: "dune").map { Self.line(index, $0) }
                    == whole.filter(whole.order(by: sort), query: "dune").map { Self.line(whole, $0) })
        }
    }

    @Test(arguments: LibrarySort.allCases)
    func theFirstBooksAreTheOrdersFirst(sort: LibrarySort) throws {
        var random = SeededRandom(seed: 42)
        let (store, _) = try Self.library(300, using: &random)
        let index = LibraryIndex(try store.listedBooks())
        for count in [0, 1, 12, 299, 300, 400] {
            #expect(index.first(count, by: sort) == Array(index.order(by: sort).prefix(count)), "\(count)")
        }
    }

    /// A model reading `store` whole, with this sort, search and filter.
    static func model(reading store: InMemoryLibraryStore, sort: LibrarySort, query: String,
                      finished: Bool?) async -> LibraryModel {
        let model = LibraryModel(dependencies: .test(), session: nil, load: false, send: { _ in })
        model.send(.sort(sort))
        model.store = store
        await model.loadCache()
        model.send(.search(query))
        model.send(.finished(finished))
        return model
    }

    @Test(arguments: LibrarySort.allCases)
    func theModelShowsWhatAWholeReadShows(sort: LibrarySort) async throws {
        let views: [(query: String, finished: Bool?)] = [("", nil), ("dune", nil), ("", true), ("e", false)]
        for (number, view) in views.enumerated() {
            var random = SeededRandom(seed: 1_000 &+ UInt64(number) &* 31 &+ UInt64(LibrarySort.allCases.firstIndex(of: sort) ?? 0))
            var (store, ids) = try Self.library(120, using: &random)
            var next = 120
            let model = await Self.model(reading: store, sort: sort, query: view.query, finished: view.finished)
            for round in 0..<25 {
                let changes = try Self.randomChanges(to: store, ids: &ids, next: &next, using: &random)
                await model.applyLiveChanges(changes)
                let whole = await Self.model(reading: store, sort: sort, query: view.query, finished: view.finished)
                #expect(model.books == whole.books, "\(view) round \(round)")
                #expect(model.visible == whole.visible, "\(view) round \(round)")
                #expect(model.progress == whole.progress, "\(view) round \(round)")
                #expect(model.books.count == ids.count)
            }
        }
    }

    @Test func manyChangesAtOnceAreRebuiltAndStillMatch() async throws {
        var random = SeededRandom(seed: 99)
        var (store, ids) = try Self.library(200, using: &random)
        var next = 200
        let model = await Self.model(reading: store, sort: .author, query: "", finished: nil)
        var changes = LibraryCacheChanges()
        // More steps than are made in place (each book put in is one),
        // fewer books than a whole read takes.
        while changes.upserted.count <= LibraryModel.stepsInPlace {
            let batch = try Self.randomChanges(to: store, ids: &ids, next: &next, using: &random)
            changes.record(upserted: Array(batch.upserted), deleted: Array(batch.deleted))
            changes.progress = changes.progress || batch.progress
        }
        #expect(changes.bookCount <= LibraryModel.liveChangeLimit)
        await model.applyLiveChanges(changes)
        let whole = await Self.model(reading: store, sort: .author, query: "", finished: nil)
        #expect(model.books == whole.books)
        #expect(model.visible == whole.visible)
    }
}
