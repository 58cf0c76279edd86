import Foundation
import ListenUpAPI

/// Test controls of the facets (genres, tags, moods, collections), for both
/// protocols. kRPC event streams get the `tags`/`book_tags`/`collection_books`
/// domain events; REST event streams get `tag.updated`, `tag.deleted`,
/// `book.tag_added`/`book.tag_removed` and `collection.book_added`/
/// `collection.book_removed` (the Go server's `tag.*`, `book.tag_*` and
/// `collection.*` families), and the REST books name their tags.
extension DemoServer {
    /// The ids of every genre of the tree (`genre-1`…`genre-40`).
    public var genreIDs: [String] {
        service.state.withLock { $0.facets.genres.map(\.id) }
    }

    /// The ids of every tag, mood and collection.
    public var tagIDs: [String] { service.state.withLock { $0.facets.tags.map(\.id) } }
    public var moodIDs: [String] { service.state.withLock { $0.facets.moods.map(\.id) } }
    public var collectionIDs: [String] { service.state.withLock { $0.facets.collections.map(\.id) } }

    /// The books of a tag, mood or collection (`kind`: `tag`, `mood`, `collection`), by id.
    public func bookIDs(inFacet kind: String, _ id: String) -> [String] {
        guard let kind = DemoMembership.Kind(rawValue: kind) else { return [] }
        return service.state.withLock { $0.facets.books(kind, in: id).map(\.bookID) }
    }

    /// Renames tag `id` (the slug stays). REST v1 has no tag names, so only
    /// kRPC clients see the new one. Returns false for an unknown id.
    @discardableResult
    public func renameTag(id: String, to name: String) -> Bool {
        guard service.renameTag(id: id, to: name) else { return false }
        service.events.broadcast("tag.updated", ["id": id])
        return true
    }

    /// Deletes tag `id` and every book's link to it. Returns false for an unknown id.
    @discardableResult
    public func deleteTag(id: String) -> Bool {
        guard service.deleteTag(id: id) else { return false }
        service.events.broadcast("tag.deleted", ["id": id])
        return true
    }

    /// Tags book `bookID` with tag `tagID` (again: the same junction row id), or takes the tag off.
    @discardableResult
    public func setTag(_ tagID: String, onBook bookID: String, _ tagged: Bool) -> Bool {
        guard service.setMembership(.tag, book: bookID, group: tagID, member: tagged) else { return false }
        service.events.broadcast(tagged ? "book.tag_added" : "book.tag_removed", ["book_id": bookID, "tag_id": tagID])
        return true
    }

    /// Adds book `bookID` to collection `collectionID` (again: the same junction row id).
    @discardableResult
    public func addBook(_ bookID: String, toCollection collectionID: String) -> Bool {
        guard service.setMembership(.collection, book: bookID, group: collectionID, member: true) else { return false }
        service.events.broadcast("collection.book_added", ["collection_id": collectionID, "book_id": bookID])
        return true
    }

    /// Takes book `bookID` out of collection `collectionID`.
    @discardableResult
    public func removeBook(_ bookID: String, fromCollection collectionID: String) -> Bool {
        guard service.setMembership(.collection, book: bookID, group: collectionID, member: false) else { return false }
        service.events.broadcast("collection.book_removed", ["collection_id": collectionID, "book_id": bookID])
        return true
    }
}
