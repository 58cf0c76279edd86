import Foundation
import KRPCSession
import ListenUpAPI
import ListenUpCore
import ListenUpKRPC

/// The library over kRPC: `SyncStreamService` pages and digests (§3.4).
/// Covers are in `KRPCServerConnection+Covers.swift`.
extension KRPCServerConnection {
    /// The number of books: the `books` digest's count of live rows.
    public func libraryBookCount() async throws(ServerError) -> Int {
        let digest = try await call(.digest, DigestArguments(domain: SyncDomain.books.rawValue, cursor: Int64.max),
                                    returning: DomainDigest.self)
        return Int(clamping: digest.count)
    }

    /// A page of books from `pullDomain("books")`. `cursor` is one this
    /// connection gave (`rev:<revision>`, every page and the last one
    /// included); nil starts at revision 0: a whole library, whether or not
    /// `updatedAfter` is given (revisions, not times, say what changed).
    public func syncBooks(limit: Int, cursor: String?, updatedAfter: Date?) async throws(ServerError) -> ServerBooksPage {
        let since = KRPCCursor.revision(cursor) ?? 0
        let page = try await call(.pullDomain, PullDomainArguments(domain: SyncDomain.books.rawValue, since: since,
                                                                   limit: min(max(limit, 1), 5000)),
                                  returning: SyncPage.self)
        let response: ServerBooksPage
        do {
            response = try KRPCMapping.booksPage(page, since: since)
        } catch {
            throw .protocolMismatch("a books page did not decode: \(error)")
        }
        learn(books: response.books, deleted: response.deletedBookIDs, through: KRPCCursor.revision(response.nextCursor))
        return response
    }

    /// A page of contributors, series or a facet (KRPCMapping+Facets.swift)
    /// from `pullDomain` of its domain, with ``syncBooks(limit:cursor:updatedAfter:)``'s
    /// cursor rules (`rev:<revision>`; `updatedAfter` unused). The books'
    /// highest revision, where live events start, is left alone: a browse
    /// page may be newer than a book change the books sync has not read yet.
    public func syncBrowse(_ domain: BrowseDomain, limit: Int, cursor: String?, updatedAfter: Date?) async throws(ServerError) -> BrowseRows {
        let since = KRPCCursor.revision(cursor) ?? 0
        let name = KRPCMapping.syncDomain(domain)
        let page = try await call(.pullDomain, PullDomainArguments(domain: name.rawValue, since: since, limit: min(max(limit, 1), 5000)),
                                  returning: SyncPage.self)
        do {
            switch domain {
            case .contributors: return .contributors(try KRPCMapping.contributorsPage(page, since: since))
            case .series: return .series(try KRPCMapping.seriesPage(page, since: since))
            case .shelves: return .shelves(try KRPCMapping.shelvesPage(page, since: since))
            case .shelfBooks: return .shelfBooks(try KRPCMapping.shelfBooksPage(page, since: since))
            case .publicProfiles: return .publicProfiles(try KRPCMapping.publicProfilesPage(page, since: since))
            case .activities: return .activities(try KRPCMapping.activitiesPage(page, since: since))
            default: return try KRPCMapping.facetPage(domain, page, since: since) ?? .empty(domain)
            }
        } catch {
            throw .protocolMismatch("a \(name) page did not decode: \(error)")
        }
    }

    /// Remembers what a page or an event showed: the highest revision (live
    /// events start after it) and each book's summary (for listings).
    func learn(books: [ServerBook], deleted: [String] = [], through revision: Int64?) {
        for book in books { summaries[book.id] = KRPCMapping.summary(book) }
        for id in deleted { summaries[id] = nil }
        if let revision { highestRevision = max(highestRevision ?? revision, revision) }
    }
}
