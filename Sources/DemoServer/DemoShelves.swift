import Foundation
import ListenUpAPI

/// A shelf as the demo server keeps it, for both protocols: kRPC's
/// `ShelfSyncPayload` (user-scoped `shelves` domain) and `ShelfService`
/// DTOs, REST v1's `ShelfResponse`.
struct DemoShelf: Sendable, Equatable {
    var id: String
    var ownerID: String
    var ownerName: String
    var name: String
    var description: String
    var isPrivate: Bool
    var createdAt: Date
    var updatedAt: Date
}

/// One book on a shelf (`shelf_books`): its row id is kept when the book
/// leaves (a soft delete) and comes back (the same id, as the real
/// server's `ShelfBookRepository` does: "the existing row's id wins").
struct DemoShelfBook: Sendable, Equatable {
    var id: String
    var shelfID: String
    var bookID: String
    var sortOrder: Int
    var createdAt: Date
    var updatedAt: Date
    var isDeleted = false
}

/// Why a shelf change is refused (`ShelfError.*` on kRPC, 4xx on REST v1).
enum DemoShelfFailure: Error, Equatable {
    case notFound, forbidden, invalidName
}

/// The other reader of the demo library, whose public shelf is what
/// `discoverShelves` finds (not an account one can sign in to).
enum DemoShelfNeighbour {
    static let userID = "user-neighbour-mara"
    static let name = "Mara Lindqvist"
    static let shelfID = "shelf-neighbour-favourites"
    static let shelfName = "Mara's Favourites"
}

extension DemoService.State {
    /// The starter shelf the real server gives every new user: a public
    /// "To Read" (`ShelfRepository.createStarterShelf`, addendum §3.6).
    /// `seed`: the user exists at start (nothing to replay).
    mutating func createStarterShelf(for user: DemoService.User, at date: Date, seed: Bool = false) {
        let shelf = DemoShelf(id: "shelf-" + UUID().uuidString.lowercased(), ownerID: user.id, ownerName: user.shownName, name: "To Read",
                              description: "", isPrivate: false, createdAt: date, updatedAt: date)
        shelves.append(shelf)
        if seed {
            ledger.seed(.shelves, id: shelf.id, ownerID: user.id, row: .shelf(shelf), at: date)
        } else {
            ledger.record(.shelves, id: shelf.id, ownerID: user.id, row: .shelf(shelf), at: date)
        }
        for number in stride(from: 2, through: shelvesPerUser, by: 1) {
            fillBenchShelf(number, for: user, at: date, seed: seed)
        }
    }

    /// Shelf `number` of a user who starts with ``shelvesPerUser`` (benches):
    /// 20 of the library's books, spread over it, in order.
    private mutating func fillBenchShelf(_ number: Int, for user: DemoService.User, at date: Date, seed: Bool) {
        let shelf = DemoShelf(id: "shelf-\(user.id)-\(number)", ownerID: user.id, ownerName: user.shownName, name: "Shelf \(number)",
                              description: "", isPrivate: false, createdAt: date, updatedAt: date)
        shelves.append(shelf)
        var rows: [(DemoSyncDomain, String, DemoSyncRow)] = []
        rows.append((.shelves, shelf.id, .shelf(shelf)))
        if !books.isEmpty {
            let bookIDs = (0..<min(20, books.count)).map { books[(number * 37 + $0 * 101) % books.count].id }
            for (order, bookID) in Set(bookIDs).sorted().enumerated() {
                let row = DemoShelfBook(id: "\(shelf.id)-\(order)", shelfID: shelf.id, bookID: bookID, sortOrder: order, createdAt: date,
                                        updatedAt: date)
                shelfBooks.append(row)
                rows.append((.shelfBooks, row.id, .shelfBook(row)))
            }
        }
        for (domain, id, row) in rows {
            if seed {
                ledger.seed(domain, id: id, ownerID: user.id, row: row, at: date)
            } else {
                ledger.record(domain, id: id, ownerID: user.id, row: row, at: date)
            }
        }
    }

    /// The neighbour's public shelf with the first three books (at start).
    mutating func seedNeighbourShelf(at date: Date) {
        let shelf = DemoShelf(id: DemoShelfNeighbour.shelfID, ownerID: DemoShelfNeighbour.userID, ownerName: DemoShelfNeighbour.name,
                              name: DemoShelfNeighbour.shelfName, description: "Books I keep lending out.", isPrivate: false,
                              createdAt: date, updatedAt: date)
        shelves.append(shelf)
        ledger.seed(.shelves, id: shelf.id, ownerID: shelf.ownerID, row: .shelf(shelf), at: date)
        for (order, book) in books.prefix(3).enumerated() {
            let row = DemoShelfBook(id: "sb-neighbour-\(order)", shelfID: shelf.id, bookID: book.id, sortOrder: order, createdAt: date,
                                    updatedAt: date)
            shelfBooks.append(row)
            ledger.seed(.shelfBooks, id: row.id, ownerID: shelf.ownerID, row: .shelfBook(row), at: date)
        }
    }

    /// The live shelf `id`, if `userID` may change it (its owner).
    private func ownedShelf(_ id: String, by userID: String) -> Result<Int, DemoShelfFailure> {
        guard let index = shelves.firstIndex(where: { $0.id == id }) else { return .failure(.notFound) }
        guard shelves[index].ownerID == userID else {
            // A private shelf of someone else is "not found" (it must not leak).
            return .failure(shelves[index].isPrivate ? .notFound : .forbidden)
        }
        return .success(index)
    }

    /// The name as kept: trimmed, 1…200 characters.
    static func shelfName(_ name: String) -> String? {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        return (1...200).contains(trimmed.count) ? trimmed : nil
    }

    mutating func createShelf(owner: DemoService.User, name: String, description: String, isPrivate: Bool,
                              at date: Date) -> Result<DemoShelf, DemoShelfFailure> {
        guard let name = Self.shelfName(name) else { return .failure(.invalidName) }
        let shelf = DemoShelf(id: "shelf-" + UUID().uuidString.lowercased(), ownerID: owner.id, ownerName: owner.shownName, name: name,
                              description: description, isPrivate: isPrivate, createdAt: date, updatedAt: date)
        shelves.append(shelf)
        ledger.record(.shelves, id: shelf.id, ownerID: owner.id, row: .shelf(shelf), at: date)
        return .success(shelf)
    }

    /// Renames or redescribes; `isPrivate` nil keeps the flag (REST v1 has none).
    mutating func updateShelf(_ id: String, by userID: String, name: String, description: String, isPrivate: Bool?,
                              at date: Date) -> Result<DemoShelf, DemoShelfFailure> {
        let index: Int
        switch ownedShelf(id, by: userID) {
        case .success(let found): index = found
        case .failure(let failure): return .failure(failure)
        }
        guard let name = Self.shelfName(name) else { return .failure(.invalidName) }
        shelves[index].name = name
        shelves[index].description = description
        if let isPrivate { shelves[index].isPrivate = isPrivate }
        shelves[index].updatedAt = date
        ledger.record(.shelves, id: id, ownerID: userID, row: .shelf(shelves[index]), at: date)
        return .success(shelves[index])
    }

    /// Soft-deletes the shelf and every book on it (tombstones on kRPC).
    mutating func deleteShelf(_ id: String, by userID: String, at date: Date) -> Result<Void, DemoShelfFailure> {
        let index: Int
        switch ownedShelf(id, by: userID) {
        case .success(let found): index = found
        case .failure(let failure): return .failure(failure)
        }
        let shelf = shelves.remove(at: index)
        for row in shelfBooks.indices where shelfBooks[row].shelfID == id && !shelfBooks[row].isDeleted {
            shelfBooks[row].isDeleted = true
            shelfBooks[row].updatedAt = date
            ledger.record(.shelfBooks, id: shelfBooks[row].id, ownerID: userID, row: .shelfBook(shelfBooks[row]), deleted: true, at: date)
        }
        ledger.record(.shelves, id: id, ownerID: userID, row: .shelf(shelf), deleted: true, at: date)
        return .success(())
    }

    /// Appends the book (idempotent); a book that was on the shelf before
    /// comes back under its old row id.
    mutating func addBook(_ bookID: String, toShelf id: String, by userID: String, at date: Date) -> Result<Void, DemoShelfFailure> {
        switch ownedShelf(id, by: userID) {
        case .success: break
        case .failure(let failure): return .failure(failure)
        }
        guard books.contains(where: { $0.id == bookID }) else { return .failure(.notFound) }
        let next = (shelfBooks.filter { $0.shelfID == id && !$0.isDeleted }.map(\.sortOrder).max() ?? -1) + 1
        if let row = shelfBooks.firstIndex(where: { $0.shelfID == id && $0.bookID == bookID }) {
            guard shelfBooks[row].isDeleted else { return .success(()) }
            shelfBooks[row].isDeleted = false
            shelfBooks[row].sortOrder = next
            shelfBooks[row].updatedAt = date
            ledger.record(.shelfBooks, id: shelfBooks[row].id, ownerID: userID, row: .shelfBook(shelfBooks[row]), at: date)
        } else {
            let row = DemoShelfBook(id: "sb-" + UUID().uuidString.lowercased(), shelfID: id, bookID: bookID, sortOrder: next,
                                    createdAt: date, updatedAt: date)
            shelfBooks.append(row)
            ledger.record(.shelfBooks, id: row.id, ownerID: userID, row: .shelfBook(row), at: date)
        }
        touchShelf(id, at: date)
        return .success(())
    }

    /// Takes the book off (idempotent): its row becomes a tombstone.
    mutating func removeBook(_ bookID: String, fromShelf id: String, by userID: String, at date: Date) -> Result<Void, DemoShelfFailure> {
        switch ownedShelf(id, by: userID) {
        case .success: break
        case .failure(let failure): return .failure(failure)
        }
        guard let row = shelfBooks.firstIndex(where: { $0.shelfID == id && $0.bookID == bookID && !$0.isDeleted }) else {
            return .success(())
        }
        shelfBooks[row].isDeleted = true
        shelfBooks[row].updatedAt = date
        ledger.record(.shelfBooks, id: shelfBooks[row].id, ownerID: userID, row: .shelfBook(shelfBooks[row]), deleted: true, at: date)
        touchShelf(id, at: date)
        return .success(())
    }

    private mutating func touchShelf(_ id: String, at date: Date) {
        guard let index = shelves.firstIndex(where: { $0.id == id }) else { return }
        shelves[index].updatedAt = date
        ledger.record(.shelves, id: id, ownerID: shelves[index].ownerID, row: .shelf(shelves[index]), at: date)
    }

    /// The live books of a shelf, in order.
    func shelfBookIDs(_ id: String) -> [String] {
        shelfBooks.filter { $0.shelfID == id && !$0.isDeleted }.sorted { ($0.sortOrder, $0.id) < ($1.sortOrder, $1.id) }.map(\.bookID)
    }

    /// A shelf `viewer` may read: theirs, or someone else's public one.
    func readableShelf(_ id: String, by viewer: String) -> DemoShelf? {
        shelves.first { $0.id == id && ($0.ownerID == viewer || !$0.isPrivate) }
    }

    /// Others' public shelves with at least one book.
    func discoverableShelves(for viewer: String) -> [DemoShelf] {
        shelves.filter { $0.ownerID != viewer && !$0.isPrivate && !shelfBookIDs($0.id).isEmpty }
    }
}
