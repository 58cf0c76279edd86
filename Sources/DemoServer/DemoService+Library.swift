import Foundation
import ListenUpAPI

/// Changes to the library between syncs (the test hooks of ``DemoServer``),
/// for both protocols: each one updates the books the REST routes serve
/// and records a revision in the sync ledger, which the kRPC mode pages
/// and streams.
extension DemoService {
    /// Renames a book (its `updatedAt` moves to now). Returns false for an unknown id.
    @discardableResult
    func updateBook(id: String, title: String) -> Bool {
        state.withLock { state in
            guard let index = state.books.firstIndex(where: { $0.id == id }) else { return false }
            let now = Date()
            state.books[index].title = title
            state.books[index].updatedAt = now
            state.ledger.record(.books, id: id, row: .book(state.books[index]), at: now)
            return true
        }
    }

    /// Deletes a book: REST delta syncs list it in `deleted_book_ids` (even
    /// an unknown id, as before), kRPC pulls return its tombstone.
    /// - Returns: when it was deleted.
    @discardableResult
    func deleteBook(id: String) -> Date {
        let now = Date()
        state.withLock { state in
            state.deletedBookIDs.append((id, now))
            guard let index = state.books.firstIndex(where: { $0.id == id }) else { return }
            let book = state.books.remove(at: index)
            state.ledger.record(.books, id: id, row: .book(book), deleted: true, at: now)
        }
        return now
    }

    /// Adds a book with no audio files and no cover (and its author's
    /// contributor row, the first time).
    func addBook(title: String) -> SyncBook {
        let id = "book-added-" + UUID().uuidString.prefix(8).lowercased()
        let now = Date()
        let book = SyncBook(createdAt: now, updatedAt: now, id: id, title: title, path: "/audiobooks/\(title)", audioFiles: [],
                            totalDuration: 60_000, totalSize: 1000,
                            contributors: [BookContributor(contributorID: "contributor-added", name: "New Author", roles: ["author"])])
        state.withLock { state in
            state.books.append(book)
            state.ledger.record(.books, id: id, row: .book(book), at: now)
            for credit in book.contributors { state.addContributor(credit, at: now) }
        }
        return book
    }
}
