import Foundation
import ListenUpAPI

/// Shelves on REST v1, as the Go server routes them
/// (`internal/api/shelf_handlers.go` @ 121397e): `GET`/`POST /api/v1/shelves`,
/// `GET /api/v1/shelves/discover`, `GET`/`PATCH`/`DELETE /api/v1/shelves/{id}`,
/// `POST /api/v1/shelves/{id}/books`, `DELETE /api/v1/shelves/{id}/books/{bookId}`.
/// Every change is broadcast as the Go server's `shelf.*` event
/// (`internal/sse/events.go`) and recorded in the ledger (kRPC streams it).
extension DemoService {
    func shelvesRoute(_ request: DemoRequest, user: User) -> DemoResponse {
        let parts = Array(request.path.split(separator: "/").map(String.init).dropFirst(3))
        let id = parts.first ?? ""
        let now = Date()
        switch (request.method, parts.count) {
        case ("GET", 0):
            let shelves = state.withLock { state in state.shelves.filter { $0.ownerID == user.id }.map { state.shelfResponse($0) } }
            return .envelope(ListShelvesResponse(shelves: shelves.sorted { $0.updatedAt > $1.updatedAt }))
        case ("GET", 1) where id == "discover":
            let groups = state.withLock { state -> [DiscoverShelvesResponse.UserShelves] in
                let found = state.discoverableShelves(for: user.id)
                return Dictionary(grouping: found, by: \.ownerID).values.compactMap { shelves in
                    guard let first = shelves.first else { return nil }
                    return .init(user: DemoShelf.owner(first), shelves: shelves.map { state.shelfResponse($0) })
                }
            }
            return .envelope(DiscoverShelvesResponse(users: groups))
        case ("POST", 0):
            switch decode(request, as: ShelfRequest.self, required: ["name", "description"], optional: []) {
            case .failure(let response): return response
            case .success(let body):
                return respond(state.withLock { state in
                    state.createShelf(owner: user, name: body.name, description: body.description, isPrivate: false, at: now)
                        .map { state.shelfResponse($0) }
                }, event: "shelf.created")
            }
        case ("GET", 1):
            let detail = state.withLock { state in state.readableShelf(id, by: user.id).map { state.shelfDetail($0) } }
            return detail.map { .envelope($0) } ?? .failure(404, "shelf not found")
        case ("PATCH", 1):
            switch decode(request, as: ShelfRequest.self, required: ["name", "description"], optional: []) {
            case .failure(let response): return response
            case .success(let body):
                return respond(state.withLock { state in
                    state.updateShelf(id, by: user.id, name: body.name, description: body.description, isPrivate: nil, at: now)
                        .map { state.shelfResponse($0) }
                }, event: "shelf.updated")
            }
        case ("DELETE", 1):
            let result = state.withLock { $0.deleteShelf(id, by: user.id, at: now) }
            if case .success = result {
                events.broadcast("shelf.deleted", ShelfDeletedEvent(id: id, ownerID: user.id, deletedAt: now))
            }
            return respond(result.map { _ in MessageResponse(message: "Shelf deleted") }, event: nil)
        case ("POST", 2) where parts[1] == "books":
            switch decode(request, as: AddBooksToShelfRequest.self, required: ["book_ids"], optional: []) {
            case .failure(let response): return response
            case .success(let body):
                var result: Result<Void, DemoShelfFailure> = .success(())
                for book in body.bookIDs {
                    result = state.withLock { $0.addBook(book, toShelf: id, by: user.id, at: now) }
                    guard case .success = result else { break }
                    bookEvent("shelf.book_added", shelf: id, owner: user.id, book: book, at: now)
                }
                return respond(result.map { _ in MessageResponse(message: "Books added to shelf") }, event: nil)
            }
        case ("DELETE", 3) where parts[1] == "books":
            let book = parts[2]
            let result = state.withLock { $0.removeBook(book, fromShelf: id, by: user.id, at: now) }
            if case .success = result { bookEvent("shelf.book_removed", shelf: id, owner: user.id, book: book, at: now) }
            return respond(result.map { _ in MessageResponse(message: "Book removed from shelf") }, event: nil)
        default:
            return .text(404, "404 page not found")
        }
    }

    /// The Go server's answers to a shelf service error.
    private func respond<Body: Encodable>(_ result: Result<Body, DemoShelfFailure>, event: String?) -> DemoResponse {
        switch result {
        case .success(let body):
            if let event, let shelf = body as? ShelfResponse { events.broadcast(event, ShelfEvent(shelf)) }
            return .envelope(body)
        case .failure(.notFound): return .failure(404, "shelf not found")
        case .failure(.forbidden): return .failure(403, "you do not own this shelf")
        case .failure(.invalidName): return .failure(400, "shelf name is required")
        }
    }

    /// `shelf.book_added` / `shelf.book_removed` (`ShelfBookEventData`).
    func bookEvent(_ type: String, shelf: String, owner: String, book: String, at date: Date) {
        let count = state.withLock { $0.shelfBookIDs(shelf).count }
        events.broadcast(type, ShelfBookEvent(shelfID: shelf, ownerID: owner, bookID: book, bookCount: count, timestamp: date))
    }
}

extension DemoShelf {
    /// The Go server's owner block (the demo has no avatar colours).
    static func owner(_ shelf: DemoShelf) -> ShelfOwnerResponse {
        ShelfOwnerResponse(id: shelf.ownerID, displayName: shelf.ownerName, avatarColor: "#6a5acd")
    }
}

extension DemoService.State {
    /// `ShelfResponse` (counts and the books' total seconds).
    func shelfResponse(_ shelf: DemoShelf) -> ShelfResponse {
        let ids = shelfBookIDs(shelf.id)
        let seconds = books.filter { ids.contains($0.id) }.reduce(Int64(0)) { $0 + $1.totalDuration / 1000 }
        return ShelfResponse(id: shelf.id, name: shelf.name, description: shelf.description, owner: DemoShelf.owner(shelf),
                             bookCount: ids.count, totalDuration: seconds, createdAt: shelf.createdAt, updatedAt: shelf.updatedAt)
    }

    /// `ShelfDetailResponse`: the books in the shelf's order.
    func shelfDetail(_ shelf: DemoShelf) -> ShelfDetailResponse {
        let byID = Dictionary(books.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let shelfBooks = shelfBookIDs(shelf.id).compactMap { byID[$0] }.map { book in
            ShelfBookResponse(id: book.id, title: book.title, authorNames: book.names(withRole: "author"),
                              durationSeconds: book.totalDuration / 1000)
        }
        return ShelfDetailResponse(id: shelf.id, name: shelf.name, description: shelf.description, owner: DemoShelf.owner(shelf),
                                   bookCount: shelfBooks.count, totalDuration: shelfBooks.reduce(0) { $0 + $1.durationSeconds },
                                   books: shelfBooks, createdAt: shelf.createdAt, updatedAt: shelf.updatedAt)
    }
}

/// `shelf.created` / `shelf.updated` data (`ShelfEventData`).
struct ShelfEvent: Encodable {
    var id, ownerID, name, description: String
    var bookCount: Int
    var ownerDisplayName, ownerAvatarColor: String
    var createdAt, updatedAt: Date

    init(_ shelf: ShelfResponse) {
        id = shelf.id
        ownerID = shelf.owner.id
        name = shelf.name
        description = shelf.description
        bookCount = shelf.bookCount
        ownerDisplayName = shelf.owner.displayName
        ownerAvatarColor = shelf.owner.avatarColor
        createdAt = shelf.createdAt
        updatedAt = shelf.updatedAt
    }

    enum CodingKeys: String, CodingKey {
        case id, name, description
        case ownerID = "owner_id"
        case bookCount = "book_count"
        case ownerDisplayName = "owner_display_name"
        case ownerAvatarColor = "owner_avatar_color"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }
}

/// `shelf.deleted` data (`ShelfDeletedEventData`).
struct ShelfDeletedEvent: Encodable {
    var id, ownerID: String
    var deletedAt: Date

    enum CodingKeys: String, CodingKey {
        case id
        case ownerID = "owner_id"
        case deletedAt = "deleted_at"
    }
}

/// `shelf.book_added` / `shelf.book_removed` data (`ShelfBookEventData`).
struct ShelfBookEvent: Encodable {
    var shelfID, ownerID, bookID: String
    var bookCount: Int
    var timestamp: Date

    enum CodingKeys: String, CodingKey {
        case shelfID = "shelf_id"
        case ownerID = "owner_id"
        case bookID = "book_id"
        case bookCount = "book_count"
        case timestamp
    }
}
