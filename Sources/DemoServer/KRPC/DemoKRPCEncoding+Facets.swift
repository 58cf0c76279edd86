import Foundation
import JSONToolkit

/// The facet domains' payloads as the Kotlin server writes them (contract
/// v0.9 addendum §2.2; `encodeDefaults = false`, so defaults are omitted).
/// A tombstone of a junction row has its book and group ids blanked, a
/// collection's its library, owner and name (§2.1).
extension DemoKRPCMapping {
    static func facetJSON(_ change: DemoSyncChange) -> String? {
        let deletedAt = change.kind == .deleted ? milliseconds(change.occurredAt) : nil
        var object = JSONWriter.object()
        switch change.row {
        case .genre(let genre):
            // GenreSyncPayload: id, name, slug, path, parentId?, depth, sortOrder, color?, description?, revision, …
            object.string("id", genre.id)
            object.string("name", genre.name)
            object.string("slug", genre.slug)
            object.string("path", genre.path)
            object.stringIfPresent("parentId", genre.parentID)
            if genre.depth != 0 { object.integer("depth", Int64(genre.depth)) }
            if genre.sortOrder != 0 { object.integer("sortOrder", Int64(genre.sortOrder)) }
            object.integer("revision", change.revision)
            object.integer("updatedAt", milliseconds(genre.updatedAt))
            object.integer("createdAt", milliseconds(genre.createdAt))
            object.integerIfPresent("deletedAt", deletedAt)
        case .label(let label):
            // Tag / Mood: id, name, slug, revision, updatedAt, deletedAt (no createdAt).
            object.string("id", label.id)
            object.string("name", label.name)
            object.string("slug", label.slug)
            object.integer("revision", change.revision)
            object.integer("updatedAt", milliseconds(label.updatedAt))
            object.integerIfPresent("deletedAt", deletedAt)
        case .collection(let collection):
            let deleted = deletedAt != nil
            object.string("id", collection.id)
            object.string("libraryId", deleted ? "" : collection.libraryID)
            object.string("ownerId", deleted ? "" : collection.ownerID)
            object.string("name", deleted ? "" : collection.name)
            object.integer("revision", change.revision)
            object.integer("updatedAt", milliseconds(collection.updatedAt))
            object.integerIfPresent("deletedAt", deletedAt)
        case .membership(let row, let kind):
            let deleted = deletedAt != nil
            object.string("id", row.id)
            if kind == .collection {
                object.string("collectionId", deleted ? "" : row.groupID)
                object.string("bookId", deleted ? "" : row.bookID)
            } else {
                object.string("bookId", deleted ? "" : row.bookID)
                object.string(kind.groupKey, deleted ? "" : row.groupID)
            }
            object.integer("createdAt", milliseconds(row.createdAt))
            object.integer("revision", change.revision)
            object.integerIfPresent("deletedAt", deletedAt)
        default:
            return nil
        }
        return object.finished()
    }
}
