import Foundation
import ListenUpAPI

/// A ``LibraryStore`` in memory: previews and tests. It keeps the same
/// promises as the app's SQLite store (a book stored again as it was is no
/// change; a page and its sync state land together), so code written
/// against one behaves the same on the other.
public final class InMemoryLibraryStore: LibraryStore {
    private struct Contents {
        var books: [String: CachedBook] = [:]
        var progress: [String: BookProgress] = [:]
        var state = LibrarySyncState()
    }

    private let contents = LockedValue(Contents())

    public init() {}

    public func books() throws -> [CachedBook] {
        Array(contents.value.books.values)
    }

    public func listedBooks() throws -> [CachedBook] {
        contents.value.books.values.map { book in
            var listed = book
            listed.details = Data()
            return listed
        }
    }

    public func listedBooks(ids: Set<String>) throws -> [CachedBook] {
        let books = contents.value.books
        return ids.compactMap { id in
            books[id].map { book in
                var listed = book
                listed.details = Data()
                return listed
            }
        }
    }

    public func book(id: String) throws -> CachedBook? {
        contents.value.books[id]
    }

    public func count() throws -> Int {
        contents.value.books.count
    }

    @discardableResult
    public func apply(_ books: [SyncBook], deleting deleted: [String], state: LibrarySyncState) throws -> Int {
        contents.withLock { contents in
            var changed = Self.store(books, in: &contents)
            for id in deleted where contents.books.removeValue(forKey: id) != nil { changed += 1 }
            contents.state = state
            return changed
        }
    }

    public func upsert(_ books: [SyncBook]) throws {
        contents.withLock { _ = Self.store(books, in: &$0) }
    }

    public func delete(_ ids: [String]) throws {
        contents.withLock { contents in
            for id in ids {
                contents.books[id] = nil
                contents.progress[id] = nil
            }
        }
    }

    public func progress() throws -> [String: BookProgress] {
        contents.value.progress
    }

    public func setProgress(_ progress: BookProgress?, for bookID: String) throws {
        contents.withLock { $0.progress[bookID] = progress }
    }

    public func syncState() throws -> LibrarySyncState {
        contents.value.state
    }

    /// Stores `books`; returns how many were added or changed.
    private static func store(_ books: [SyncBook], in contents: inout Contents) -> Int {
        let encoder = JSONEncoder()
        // The same details give the same bytes, so an unchanged book compares equal.
        encoder.outputFormatting = .sortedKeys
        var changed = 0
        for book in books {
            let cached = CachedBook(book, encoder: encoder)
            if contents.books[cached.id] != cached {
                contents.books[cached.id] = cached
                changed += 1
            }
        }
        return changed
    }
}
