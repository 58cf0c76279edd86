import Foundation
import ListenUpAPI
import ListenUpCore

/// The facets over REST v1, which has no sync feed for them (contract v0.9
/// addendum §7): every library sync reads the lists whole and hands them on
/// as one page that replaces what was kept (``EntityPage/replacesAll``).
///
/// - genres: `GET /api/v1/genres`;
/// - tags: `GET /api/v1/tags` (no name: the slug made readable); which
///   books have a tag comes with each book (its `tags`), so `book_tags`
///   has nothing of its own here;
/// - collections: `GET /api/v1/libraries/{libraryId}/collections` (the
///   library of `/api/v1/library/status`), and their books from
///   `GET /api/v1/collections/{id}/books`, one row per book and collection
///   (id `<collectionId>:<bookId>`);
/// - moods: the Go server has none; their pages are empty (and replace
///   nothing), so the app shows none.
///
/// A list the server refuses (403) or lacks (404) is an empty page that
/// replaces nothing: the cache keeps what it had, and the other lists sync.
extension APIClient {
    func syncFacets(_ domain: BrowseDomain) async throws(ServerError) -> BrowseRows {
        // Rows with no time of their own get a fixed one, so a list read
        // again unchanged changes nothing in the cache.
        let now = Date(timeIntervalSince1970: 0)
        // A list this server does not offer (404: an older server) or does
        // not let this user read (403) leaves what the cache has as it is.
        do throws(ServerError) {
            switch domain {
            case .genres:
                let list = try await authorized(.genres)
                return .genres(EntityPage(entities: list.genres.map { RESTBrowseMapping.genre($0, now: now) }, replacesAll: true))
            case .tags:
                let list = try await authorized(.tags)
                return .tags(EntityPage(entities: list.tags.map { RESTBrowseMapping.tag($0, now: now) }, replacesAll: true))
            case .collections:
                let collections = try await libraryCollections()
                return .collections(EntityPage(entities: collections.map { RESTBrowseMapping.collection($0, now: now) },
                                               replacesAll: true))
            case .collectionBooks:
                var rows: [BookMembership] = []
                for collection in try await libraryCollections() {
                    let books = try await authorized(.collectionBooks(collectionID: collection.id))
                    rows += books.books.map {
                        BookMembership(id: "\(collection.id):\($0.id)", bookID: $0.id, groupID: collection.id, updatedAt: now)
                    }
                }
                return .collectionBooks(EntityPage(entities: rows, replacesAll: true))
            case .bookTags, .moods, .bookMoods:
                return .empty(domain)
            case .contributors, .series, .shelves, .shelfBooks, .publicProfiles, .activities:
                throw ServerError.protocolMismatch("\(domain.rawValue) is not a facet")
            }
        } catch .server(status: 403, _), .server(status: 404, _) {
            return .empty(domain)
        } catch {
            throw error
        }
    }

    /// The collections of the server's library (none while it has no
    /// library). The library's id is the one the sync's book count just
    /// read, else it is asked for.
    private func libraryCollections() async throws(ServerError) -> [RESTCollection] {
        if libraryID == nil { libraryID = try await authorized(.libraryStatus).library?.id }
        guard let libraryID else { return [] }
        return try await authorized(.collections(libraryID: libraryID)).collections
    }
}

extension RESTBrowseMapping {
    static func genre(_ row: RESTGenre, now: Date) -> ListenUpCore.Genre {
        ListenUpCore.Genre(id: row.id, name: row.name, slug: row.slug, path: row.path, parentID: row.parentID, depth: row.depth,
                           sortOrder: row.sortOrder, updatedAt: row.updatedAt ?? now)
    }

    /// A tag: REST v1 has no name, the slug made readable stands for it.
    static func tag(_ row: ListenUpAPI.Tag, now: Date) -> ListenUpCore.Tag {
        ListenUpCore.Tag(id: row.id, name: ListenUpCore.Tag.readableName(slug: row.slug), slug: row.slug, updatedAt: now)
    }

    static func collection(_ row: RESTCollection, now: Date) -> LibraryCollection {
        LibraryCollection(id: row.id, name: row.name, isSystem: row.isInbox, updatedAt: row.updatedAt ?? now)
    }
}
