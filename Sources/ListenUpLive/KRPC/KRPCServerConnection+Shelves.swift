import Foundation
import ListenUpCore
import ListenUpKRPC

/// Shelves over kRPC (addendum §2.1, §3.6): the `shelves` and `shelf_books`
/// domains are pulled like contributors and series
/// (`KRPCServerConnection+Library.swift`); changes go through `ShelfService`
/// (upstream `contract/.../api/ShelfService.kt`,
/// `server/.../api/ShelfServiceImpl.kt`), every parameter sent.
extension KRPCServerConnection {
    /// True: today's server keeps a private flag on each shelf.
    public nonisolated var shelvesHavePrivacy: Bool { true }

    /// True: the `activities` and `public_profiles` domains (KRPCMapping+Social.swift).
    public nonisolated var hasActivityFeed: Bool { true }

    /// `ShelfService` trims the name and takes 1…200 characters.
    public nonisolated var shelfNameLimit: Int { 200 }

    public func createShelf(name: String, description: String, isPrivate: Bool) async throws(ServerError) -> Shelf {
        let dto = try await call(.createShelf, CreateShelfArguments(name: name, description: description, isPrivate: isPrivate),
                                 returning: ShelfDTO.self)
        return KRPCMapping.shelf(dto)
    }

    public func updateShelf(id: String, name: String, description: String, isPrivate: Bool) async throws(ServerError) -> Shelf {
        let dto = try await call(.updateShelf, UpdateShelfArguments(shelfId: id, name: name, description: description,
                                                                    isPrivate: isPrivate),
                                 returning: ShelfDTO.self)
        return KRPCMapping.shelf(dto)
    }

    public func deleteShelf(id: String) async throws(ServerError) {
        _ = try await call(.deleteShelf, ShelfIDArguments(shelfId: id), returning: KotlinUnit.self)
    }

    public func addBook(_ bookID: String, toShelf shelfID: String) async throws(ServerError) {
        _ = try await call(.addBookToShelf, ShelfBookArguments(shelfId: shelfID, bookId: bookID), returning: KotlinUnit.self)
    }

    public func removeBook(_ bookID: String, fromShelf shelfID: String) async throws(ServerError) {
        _ = try await call(.removeBookFromShelf, ShelfBookArguments(shelfId: shelfID, bookId: bookID), returning: KotlinUnit.self)
    }

    /// `discoverShelves(50)`, then `getShelf` of each for its books (the
    /// list carries counts only). A shelf that went meanwhile is left out.
    public func discoverShelves() async throws(ServerError) -> [Shelf] {
        let found = try await call(.discoverShelves, DiscoverShelvesArguments(limit: 50), returning: [DiscoveredShelfDTO].self)
        var shelves: [Shelf] = []
        for entry in found {
            do throws(ServerError) {
                let detail = try await call(.getShelf, ShelfIDArguments(shelfId: entry.shelf.id), returning: ShelfDetailDTO.self)
                shelves.append(KRPCMapping.shelf(entry, books: detail.books.map(\.bookId)))
            } catch .server(404, _) {
                continue
            }
        }
        return shelves
    }
}

extension KRPCMapping {
    /// A `ShelfService` shelf (one of the caller's) as the seam's; its books come with `shelf_books`.
    static func shelf(_ dto: ShelfDTO) -> Shelf {
        Shelf(id: dto.id, name: dto.name, description: dto.description, isPrivate: dto.isPrivate, updatedAt: date(dto.updatedAt))
    }

    /// Another user's shelf with its (visible) books in order.
    static func shelf(_ entry: DiscoveredShelfDTO, books: [String]) -> Shelf {
        Shelf(id: entry.shelf.id, name: entry.shelf.name, description: entry.shelf.description, isPrivate: entry.shelf.isPrivate,
              bookIDs: books, updatedAt: date(entry.shelf.updatedAt),
              owner: ShelfOwner(id: entry.ownerId, name: entry.ownerDisplayName))
    }

    /// A `shelves` row.
    static func shelf(_ payload: ShelfSyncPayload) -> Shelf {
        Shelf(id: payload.id, name: payload.name, description: payload.description, isPrivate: payload.isPrivate,
              updatedAt: date(payload.updatedAt))
    }

    /// A `shelf_books` row.
    static func shelfBook(_ payload: ShelfBookSyncPayload) -> ShelfBook {
        ShelfBook(id: payload.id, shelfID: payload.shelfId, bookID: payload.bookId, sortOrder: payload.sortOrder,
                  updatedAt: date(payload.updatedAt))
    }

    /// A `pullDomain("shelves")` page, with `booksPage`'s rules.
    static func shelvesPage(_ page: SyncPage, since: Int64) throws(KRPCDecodingError) -> EntityPage<Shelf> {
        let payloads = try page.decodeItems(as: ShelfSyncPayload.self)
        return entityPage(page, since: since, rows: payloads.map { ($0.id, $0.revision, $0.isDeleted) },
                          live: payloads.filter { !$0.isDeleted }.map(shelf))
    }

    /// A `pullDomain("shelf_books")` page: a tombstone (its pair blanked)
    /// deletes the row by id; a row back to life comes as a live row.
    static func shelfBooksPage(_ page: SyncPage, since: Int64) throws(KRPCDecodingError) -> EntityPage<ShelfBook> {
        let payloads = try page.decodeItems(as: ShelfBookSyncPayload.self)
        return entityPage(page, since: since, rows: payloads.map { ($0.id, $0.revision, $0.isDeleted) },
                          live: payloads.filter { !$0.isDeleted }.map(shelfBook))
    }
}

extension KRPCServerConnection {
    /// `SocialService.currentlyListening()` (upstream `api/SocialService.kt`,
    /// `server/.../api/SocialServiceImpl.kt`), in the server's order.
    public func currentlyListening() async throws(ServerError) -> [ListeningNow] {
        let rows = try await call(.currentlyListening, NoArguments(), returning: [CurrentlyListeningSessionDTO].self)
        return rows.map {
            ListeningNow(userID: $0.userId, displayName: $0.displayName, bookID: $0.bookId,
                         lastActiveAt: Date(timeIntervalSince1970: Double($0.lastActiveAtMs) / 1000), isLive: $0.isLive)
        }
    }
}
