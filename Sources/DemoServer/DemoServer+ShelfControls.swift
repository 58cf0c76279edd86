import Foundation
import ListenUpAPI

/// Test controls of shelves, for both protocols: a change made "on another
/// device" of the same user. Each goes through the same rules as the
/// protocols' calls; REST event streams get the Go server's `shelf.*`
/// events, kRPC streams the `shelves`/`shelf_books` domain events.
extension DemoServer {
    /// A shelf as the tests see it.
    public struct ShelfSnapshot: Sendable, Equatable {
        public var id: String
        public var name: String
        public var description: String
        public var isPrivate: Bool
        /// Its live books, in order.
        public var bookIDs: [String]
    }

    /// The ids of the library's books, in the order `/sync/books` pages them.
    public var libraryBookIDs: [String] {
        service.state.withLock { $0.books.map(\.id) }
    }

    /// How many shelf rows and shelf-book rows the server keeps, tombstones
    /// included (at start: the starter shelves and the neighbour's, each a
    /// revision of the ledger).
    public var shelfRowCount: Int {
        service.state.withLock { $0.shelves.count + $0.shelfBooks.count }
    }

    /// The shelves of the user signed in as `email`, by name.
    public func shelves(ofUser email: String) -> [ShelfSnapshot] {
        service.state.withLock { state in
            guard let user = state.users.first(where: { $0.email == email }) else { return [] }
            return state.shelves.filter { $0.ownerID == user.id }.sorted { $0.name < $1.name }.map {
                ShelfSnapshot(id: $0.id, name: $0.name, description: $0.description, isPrivate: $0.isPrivate,
                              bookIDs: state.shelfBookIDs($0.id))
            }
        }
    }

    /// The id of the row that holds `bookID` on shelf `shelfID`, live or a tombstone.
    public func shelfBookRowID(shelfID: String, bookID: String) -> String? {
        service.state.withLock { state in state.shelfBooks.first { $0.shelfID == shelfID && $0.bookID == bookID }?.id }
    }

    /// Makes a shelf for the user `email`.
    /// - Returns: its id; nil for an unknown user or a refused name.
    @discardableResult
    public func createShelf(forUser email: String, name: String, description: String = "") -> String? {
        let now = Date()
        let made = service.state.withLock { state -> ShelfResponse? in
            guard let user = state.users.first(where: { $0.email == email }),
                  case .success(let shelf) = state.createShelf(owner: user, name: name, description: description, isPrivate: false, at: now)
            else { return nil }
            return state.shelfResponse(shelf)
        }
        if let made { service.events.broadcast("shelf.created", ShelfEvent(made)) }
        return made?.id
    }

    /// Renames a shelf as its owner would.
    /// - Returns: false for an unknown shelf or a refused name.
    @discardableResult
    public func renameShelf(id: String, to name: String) -> Bool {
        let renamed = service.state.withLock { state -> ShelfResponse? in
            guard let shelf = state.shelves.first(where: { $0.id == id }),
                  case .success(let updated) = state.updateShelf(id, by: shelf.ownerID, name: name, description: shelf.description,
                                                                 isPrivate: nil, at: Date())
            else { return nil }
            return state.shelfResponse(updated)
        }
        if let renamed { service.events.broadcast("shelf.updated", ShelfEvent(renamed)) }
        return renamed != nil
    }

    /// Deletes a shelf as its owner would.
    /// - Returns: false for an unknown shelf.
    @discardableResult
    public func deleteShelf(id: String) -> Bool {
        let now = Date()
        let owner = service.state.withLock { state -> String? in
            guard let owner = state.shelves.first(where: { $0.id == id })?.ownerID,
                  case .success = state.deleteShelf(id, by: owner, at: now) else { return nil }
            return owner
        }
        guard let owner else { return false }
        service.events.broadcast("shelf.deleted", ShelfDeletedEvent(id: id, ownerID: owner, deletedAt: now))
        return true
    }

    /// Puts a book on a shelf as its owner would (the same row id when it was there before).
    /// - Returns: false for an unknown shelf or book.
    @discardableResult
    public func addBookToShelf(shelfID: String, bookID: String) -> Bool {
        changeShelfBook(shelfID: shelfID, bookID: bookID, event: "shelf.book_added") { state, owner, now in
            state.addBook(bookID, toShelf: shelfID, by: owner, at: now)
        }
    }

    /// Takes a book off a shelf as its owner would (its row becomes a tombstone).
    /// - Returns: false for an unknown shelf.
    @discardableResult
    public func removeBookFromShelf(shelfID: String, bookID: String) -> Bool {
        changeShelfBook(shelfID: shelfID, bookID: bookID, event: "shelf.book_removed") { state, owner, now in
            state.removeBook(bookID, fromShelf: shelfID, by: owner, at: now)
        }
    }

    private func changeShelfBook(shelfID: String, bookID: String, event: String,
                                 _ change: (inout DemoService.State, String, Date) -> Result<Void, DemoShelfFailure>) -> Bool {
        let now = Date()
        let owner = service.state.withLock { state -> String? in
            guard let owner = state.shelves.first(where: { $0.id == shelfID })?.ownerID, case .success = change(&state, owner, now)
            else { return nil }
            return owner
        }
        guard let owner else { return false }
        service.bookEvent(event, shelf: shelfID, owner: owner, book: bookID, at: now)
        return true
    }
}
