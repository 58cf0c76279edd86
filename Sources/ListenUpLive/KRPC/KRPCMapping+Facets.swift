import Foundation
import ListenUpCore
import ListenUpKRPC

/// The facet domains' pages (`genres`, `tags`, `book_tags`, `moods`,
/// `book_moods`, `collections`, `collection_books`) as the seam's types,
/// with ``KRPCMapping/booksPage(_:since:)``'s cursor rules. Tombstones are
/// deleted ids: a junction tombstone's book and group ids are blank
/// (addendum §2.1), so it is known by its own id only. Pure; any thread.
extension KRPCMapping {
    static func genre(_ payload: GenreSyncPayload) -> ListenUpCore.Genre {
        ListenUpCore.Genre(id: payload.id, name: payload.name, slug: payload.slug, path: payload.path, parentID: payload.parentId,
                           depth: payload.depth, sortOrder: payload.sortOrder, updatedAt: date(payload.updatedAt))
    }

    static func label(_ payload: LabelSyncPayload) -> ListenUpCore.Tag {
        ListenUpCore.Tag(id: payload.id, name: payload.name, slug: payload.slug, updatedAt: date(payload.updatedAt))
    }

    static func collection(_ payload: CollectionSyncPayload) -> LibraryCollection {
        LibraryCollection(id: payload.id, name: payload.name, isSystem: payload.isSystem || payload.isInbox,
                          updatedAt: date(payload.updatedAt))
    }

    static func membership(_ payload: MembershipSyncPayload) -> BookMembership {
        BookMembership(id: payload.id, bookID: payload.bookId, groupID: payload.groupId, updatedAt: date(payload.createdAt))
    }

    /// A page of one of the facet domains.
    static func facetPage(_ domain: BrowseDomain, _ page: SyncPage, since: Int64) throws(KRPCDecodingError) -> BrowseRows? {
        switch domain {
        case .genres:
            let rows = try page.decodeItems(as: GenreSyncPayload.self)
            return .genres(entityPage(page, since: since, rows: rows.map { ($0.id, $0.revision, $0.isDeleted) },
                                      live: rows.filter { !$0.isDeleted }.map(genre)))
        case .tags, .moods:
            let rows = try page.decodeItems(as: LabelSyncPayload.self)
            let entities = entityPage(page, since: since, rows: rows.map { ($0.id, $0.revision, $0.isDeleted) },
                                      live: rows.filter { !$0.isDeleted }.map(label))
            return domain == .tags ? BrowseRows.tags(entities) : BrowseRows.moods(entities)
        case .collections:
            let rows = try page.decodeItems(as: CollectionSyncPayload.self)
            return .collections(entityPage(page, since: since, rows: rows.map { ($0.id, $0.revision, $0.isDeleted) },
                                           live: rows.filter { !$0.isDeleted }.map(collection)))
        case .bookTags, .bookMoods, .collectionBooks:
            let rows = try page.decodeItems(as: MembershipSyncPayload.self)
            // A live row with a blank id on either side is no link at all.
            let entities = entityPage(page, since: since, rows: rows.map { ($0.id, $0.revision, $0.isDeleted) },
                                      live: rows.filter { !$0.isDeleted && !$0.bookId.isEmpty && !$0.groupId.isEmpty }.map(membership))
            switch domain {
            case .bookTags: return BrowseRows.bookTags(entities)
            case .bookMoods: return BrowseRows.bookMoods(entities)
            default: return BrowseRows.collectionBooks(entities)
            }
        case .contributors, .series, .shelves, .shelfBooks, .publicProfiles, .activities:
            return nil
        }
    }

    /// The sync domain a browse domain is pulled from.
    static func syncDomain(_ domain: BrowseDomain) -> SyncDomain {
        switch domain {
        case .contributors: .contributors
        case .series: .series
        case .genres: .genres
        case .tags: .tags
        case .bookTags: .bookTags
        case .moods: .moods
        case .bookMoods: .bookMoods
        case .collections: .collections
        case .collectionBooks: .collectionBooks
        case .shelves: .shelves
        case .shelfBooks: .shelfBooks
        case .publicProfiles: .publicProfiles
        case .activities: .activities
        }
    }
}
