import Foundation
import ListenUpAPI
import ListenUpCore

/// The browse domains over REST v1: `/api/v1/sync/contributors` and
/// `/api/v1/sync/series`, paged exactly as `/sync/books` (the index
/// cursor, absent on the last page; `updated_after` for a delta, whose
/// first page names the ids deleted since).
extension APIClient {
    public func syncBrowse(_ domain: BrowseDomain, limit: Int, cursor: String?, updatedAfter: Date?) async throws(ServerError) -> BrowseRows {
        switch domain {
        case .contributors:
            let page = try await authorized(.syncContributors(limit: limit, cursor: cursor, updatedAfter: updatedAfter))
            return .contributors(RESTBrowseMapping.page(page))
        case .series:
            let page = try await authorized(.syncSeries(limit: limit, cursor: cursor, updatedAfter: updatedAfter))
            return .series(RESTBrowseMapping.page(page))
        case .shelves:
            return try await syncShelves()
        case .shelfBooks:
            // Listed with the shelves (APIClient+Shelves.swift).
            return .shelfBooks(EntityPage(entities: []))
        case .publicProfiles, .activities:
            // No sync feed for them on REST v1 (addendum §7): the feed's newest (APIClient+Social.swift).
            return try await syncSocial(domain)
        default:
            return try await syncFacets(domain)
        }
    }
}

/// REST v1's browse rows (`ListenUpAPI` DTOs) as the seam's own types.
/// Pure functions; any thread.
enum RESTBrowseMapping {
    /// A contributor: `biography` is the description; empty strings (the
    /// Go server omits them, but an older one may not) are nil. The photo's
    /// `image_url` is the same for every photo a person ever has, so the
    /// row's update time is added to it (`…/image#<seconds>`): a new photo
    /// updates the row, and the path then names another version
    /// (``BrowseImageLoader``).
    static func contributor(_ row: SyncContributor) -> Contributor {
        let imagePath = nonEmpty(row.imageURL).map { "\($0)#\(Int64(row.updatedAt.timeIntervalSince1970))" }
        return Contributor(id: row.id, name: row.name, sortName: nonEmpty(row.sortName), description: nonEmpty(row.biography),
                           imagePath: imagePath, updatedAt: row.updatedAt)
    }

    /// A series. REST v1 has no sort name for a series, and serves no
    /// series cover (contract v0.9 §7: stored, never served), so both are nil.
    static func series(_ row: SyncSeriesItem) -> Series {
        Series(id: row.id, name: row.name, description: nonEmpty(row.description), updatedAt: row.updatedAt)
    }

    static func page(_ page: SyncContributorsResponse) -> EntityPage<Contributor> {
        EntityPage(entities: page.contributors.map(contributor), deletedIDs: page.deletedContributorIDs ?? [],
                   nextCursor: page.nextCursor, hasMore: page.hasMore)
    }

    static func page(_ page: SyncSeriesResponse) -> EntityPage<Series> {
        EntityPage(entities: page.series.map(series), deletedIDs: page.deletedSeriesIDs ?? [], nextCursor: page.nextCursor,
                   hasMore: page.hasMore)
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
