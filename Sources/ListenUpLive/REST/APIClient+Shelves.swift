import Foundation
import ListenUpAPI
import ListenUpCore

/// Shelves over REST v1 (contract addendum §7, the Go server's
/// `internal/api/shelf_handlers.go`): there is no sync feed, so each
/// library sync reads the whole list (`GET /api/v1/shelves`) and each
/// shelf's books (`GET /api/v1/shelves/{id}`), handed to the cache as
/// ``BrowseRows/allShelves(_:)``; the `shelf_books` domain has nothing of
/// its own here. No private flag. The server's `shelf.*` events ask the
/// library for a sync (`LibraryLiveUpdates`).
extension APIClient {
    /// False: the Go server has no private flag.
    public nonisolated var shelvesHavePrivacy: Bool { false }

    /// The Go server's documented limit (`validate:"max=100"`, not enforced).
    public nonisolated var shelfNameLimit: Int { 100 }

    /// Every shelf of the user with its books, as one snapshot.
    func syncShelves() async throws(ServerError) -> BrowseRows {
        let list = try await authorized(.shelves)
        var shelves: [Shelf] = []
        for item in list.shelves {
            do throws(ServerError) {
                let detail = try await authorized(.shelf(id: item.id))
                shelves.append(RESTShelfMapping.shelf(detail, mine: true))
            } catch .server(404, _) {
                // Deleted between the two calls: gone.
                continue
            }
        }
        return .allShelves(shelves)
    }

    public func createShelf(name: String, description: String, isPrivate: Bool) async throws(ServerError) -> Shelf {
        RESTShelfMapping.shelf(try await authorized(.createShelf(ShelfRequest(name: name, description: description))))
    }

    public func updateShelf(id: String, name: String, description: String, isPrivate: Bool) async throws(ServerError) -> Shelf {
        RESTShelfMapping.shelf(try await authorized(.updateShelf(id: id, ShelfRequest(name: name, description: description))))
    }

    public func deleteShelf(id: String) async throws(ServerError) {
        _ = try await authorized(.deleteShelf(id: id))
    }

    public func addBook(_ bookID: String, toShelf shelfID: String) async throws(ServerError) {
        _ = try await authorized(.addBooks([bookID], toShelf: shelfID))
    }

    public func removeBook(_ bookID: String, fromShelf shelfID: String) async throws(ServerError) {
        _ = try await authorized(.removeBook(bookID, fromShelf: shelfID))
    }

    /// `GET /api/v1/shelves/discover`, then each shelf's books.
    public func discoverShelves() async throws(ServerError) -> [Shelf] {
        let found = try await authorized(.discoverShelves)
        var shelves: [Shelf] = []
        for group in found.users {
            for item in group.shelves {
                do throws(ServerError) {
                    shelves.append(RESTShelfMapping.shelf(try await authorized(.shelf(id: item.id)), mine: false))
                } catch .server(404, _) {
                    continue
                }
            }
        }
        return shelves
    }
}

/// REST v1's shelves as the seam's. Pure; any thread.
enum RESTShelfMapping {
    /// A shelf as created or updated: its books come with the next sync.
    static func shelf(_ response: ShelfResponse) -> Shelf {
        Shelf(id: response.id, name: response.name, description: response.description, updatedAt: response.updatedAt)
    }

    /// A shelf with its books; someone else's carries its owner.
    static func shelf(_ detail: ShelfDetailResponse, mine: Bool) -> Shelf {
        Shelf(id: detail.id, name: detail.name, description: detail.description, bookIDs: detail.books.map(\.id),
              updatedAt: detail.updatedAt, owner: mine ? nil : ShelfOwner(id: detail.owner.id, name: detail.owner.displayName))
    }
}
