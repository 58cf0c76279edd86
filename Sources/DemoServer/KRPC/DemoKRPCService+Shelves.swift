import Foundation
import ListenUpKRPC

/// `ShelfService` (addendum §3.6), as today's server runs it
/// (`server/.../api/ShelfServiceImpl.kt`): the caller's own shelves, others'
/// public ones to discover; every change recorded in the ledger, so the
/// caller's `shelves`/`shelf_books` pulls and streams carry it (user-scoped).
/// Blank ids are a `CallException` (`require(value.isNotBlank())`, §0).
extension DemoKRPCService {
    func createShelf(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let name = try call.present(call.decode("name", as: String.self), "name")
        let description = try call.present(call.decode("description", as: String.self), "description")
        let isPrivate = try call.present(call.decode("isPrivate", as: Bool.self), "isPrivate")
        let userID = try call.userID
        let result = service.state.withLock { state -> Result<ShelfDTO, DemoShelfFailure> in
            guard let owner = state.users.first(where: { $0.id == userID }) else { return .failure(.forbidden) }
            return state.createShelf(owner: owner, name: name, description: description, isPrivate: isPrivate, at: Date())
                .map { state.shelfDTO($0) }
        }
        return try Self.answer(result)
    }

    func updateShelf(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let id = try shelfID(call)
        let name = try call.present(call.decode("name", as: String.self), "name")
        let description = try call.present(call.decode("description", as: String.self), "description")
        let isPrivate = try call.present(call.decode("isPrivate", as: Bool.self), "isPrivate")
        let userID = try call.userID
        let result = service.state.withLock { state in
            state.updateShelf(id, by: userID, name: name, description: description, isPrivate: isPrivate, at: Date()).map { state.shelfDTO($0) }
        }
        return try Self.answer(result)
    }

    func deleteShelf(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let id = try shelfID(call)
        let userID = try call.userID
        return try Self.answer(service.state.withLock { $0.deleteShelf(id, by: userID, at: Date()) }.map { _ in KotlinUnit() })
    }

    func addBookToShelf(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let (id, book) = (try shelfID(call), try bookID(call))
        let userID = try call.userID
        return try Self.answer(service.state.withLock { $0.addBook(book, toShelf: id, by: userID, at: Date()) }.map { _ in KotlinUnit() })
    }

    func removeBookFromShelf(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let (id, book) = (try shelfID(call), try bookID(call))
        let userID = try call.userID
        return try Self.answer(service.state.withLock { $0.removeBook(book, fromShelf: id, by: userID, at: Date()) }.map { _ in KotlinUnit() })
    }

    /// `listMyShelves()`: `updatedAt` desc.
    func listMyShelves(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let userID = try call.userID
        let shelves = service.state.withLock { state in
            state.shelves.filter { $0.ownerID == userID }.sorted { $0.updatedAt > $1.updatedAt }.map { state.shelfDTO($0) }
        }
        return try Self.answer(Result<[ShelfDTO], DemoShelfFailure>.success(shelves))
    }

    /// `getShelf(shelfId)`: books in order; `NotFound` for a private one of someone else.
    func getShelf(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let id = try shelfID(call)
        let userID = try call.userID
        let result = service.state.withLock { state -> Result<ShelfDetailDTO, DemoShelfFailure> in
            guard let shelf = state.readableShelf(id, by: userID) else { return .failure(.notFound) }
            let detail = state.shelfDetail(shelf)
            return .success(ShelfDetailDTO(id: shelf.id, name: shelf.name, description: shelf.description, isPrivate: shelf.isPrivate,
                                           isOwner: shelf.ownerID == userID,
                                           books: detail.books.map { ShelfBookView(bookId: $0.id, title: $0.title, authors: $0.authorNames) },
                                           bookCount: detail.books.count, totalDurationMs: detail.totalDuration * 1000))
        }
        return try Self.answer(result)
    }

    /// `discoverShelves(limit)`: others' public shelves with a book; the limit clamped to 1…200.
    func discoverShelves(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let limit = min(max(try call.present(call.decode("limit", as: Int.self), "limit"), 1), 200)
        let userID = try call.userID
        let found = service.state.withLock { state in
            state.discoverableShelves(for: userID).prefix(limit).map {
                DiscoveredShelfDTO(shelf: state.shelfDTO($0), ownerId: $0.ownerID, ownerDisplayName: $0.ownerName)
            }
        }
        return try Self.answer(Result<[DiscoveredShelfDTO], DemoShelfFailure>.success(Array(found)))
    }

    private func shelfID(_ call: DemoKRPCCall) throws -> String {
        let id = try call.present(call.decode("shelfId", as: String.self), "shelfId")
        try call.requireNotBlank(id)
        return id
    }

    private func bookID(_ call: DemoKRPCCall) throws -> String {
        let id = try call.present(call.decode("bookId", as: String.self), "bookId")
        try call.requireNotBlank(id)
        return id
    }

    private static func answer<Body: Encodable>(_ result: Result<Body, DemoShelfFailure>) throws -> DemoKRPCOutcome {
        switch result {
        case .success(let body):
            do { return .result(DemoKRPCWrap.success(try KRPCJSON.encode(body))) } catch {
                throw DemoKRPCCallFailure(className: "kotlin.IllegalStateException", message: "\(error)", echoesServiceID: true)
            }
        case .failure(.notFound): return .result(DemoKRPCWrap.failure(DemoAppFailure(type: "ShelfError.NotFound")))
        case .failure(.forbidden): return .result(DemoKRPCWrap.failure(DemoAppFailure(type: "ShelfError.Forbidden")))
        case .failure(.invalidName): return .result(DemoKRPCWrap.failure(DemoAppFailure(type: "ShelfError.InvalidName")))
        }
    }
}

extension DemoService.State {
    /// `ShelfService`'s `Shelf` DTO.
    func shelfDTO(_ shelf: DemoShelf) -> ShelfDTO {
        ShelfDTO(id: shelf.id, name: shelf.name, description: shelf.description, isPrivate: shelf.isPrivate,
                 bookCount: shelfBookIDs(shelf.id).count, updatedAt: DemoKRPCMapping.milliseconds(shelf.updatedAt))
    }
}

extension DemoKRPCMapping {
    /// A shelf as a `ShelfSyncPayload`; a tombstone when `deletedAt` is set (the full row).
    static func shelf(_ shelf: DemoShelf, revision: Int64, deletedAt: Date?) -> ShelfSyncPayload {
        ShelfSyncPayload(id: shelf.id, name: shelf.name, description: shelf.description, isPrivate: shelf.isPrivate, revision: revision,
                         updatedAt: milliseconds(shelf.updatedAt), createdAt: milliseconds(shelf.createdAt),
                         deletedAt: deletedAt.map(milliseconds))
    }

    /// A shelf's book as a `ShelfBookSyncPayload`; a tombstone blanks `shelfId` and `bookId` (addendum §2.1).
    static func shelfBook(_ row: DemoShelfBook, revision: Int64, deletedAt: Date?) -> ShelfBookSyncPayload {
        ShelfBookSyncPayload(id: row.id, shelfId: deletedAt == nil ? row.shelfID : "", bookId: deletedAt == nil ? row.bookID : "",
                             sortOrder: row.sortOrder, revision: revision, updatedAt: milliseconds(row.updatedAt),
                             createdAt: milliseconds(row.createdAt), deletedAt: deletedAt.map(milliseconds))
    }

    /// Encodes a shelf payload as a page item or event payload.
    static func json(_ payload: some Encodable) -> String {
        (try? KRPCJSON.encode(payload)) ?? "{}"
    }
}
