import Foundation
import Logging

/// Brings the cache up to date through the server's book pages
/// (`/api/v1/sync/books` on REST v1): a full sync the
/// first time (resumable page by page: each page and the cursor after it are
/// stored together), then deltas with `updated_after` and `deleted_book_ids`
/// (and, for a server whose last page names a cursor, from that cursor:
/// ``LibrarySyncState/deltaCursor``).
public struct LibrarySync: Sendable {
    /// Books per page (the server allows up to 500).
    public var pageSize = 500
    let server: any ServerConnection
    let store: any LibraryStore
    let logger: Logger?

    public init(server: any ServerConnection, store: any LibraryStore, pageSize: Int = 500, logger: Logger? = nil) {
        self.server = server
        self.store = store
        self.pageSize = pageSize
        self.logger = logger
    }

    /// Runs one sync. `progress` gets the books stored so far in this run.
    /// Cancellation stops between pages; everything stored stays.
    ///
    /// The next page is fetched while the current one is written, so the
    /// server, the decoding and the cache write overlap.
    /// - Returns: how many books it stored or deleted; 0 when the cache
    ///   already matched the server.
    @discardableResult
    public func run(progress: @escaping @Sendable (Int) async -> Void = { _ in }) async throws(ServerError) -> Int {
        var state: LibrarySyncState
        do { state = try store.syncState() } catch { state = LibrarySyncState() }
        let server = server, pageSize = pageSize, store = store, logger = logger
        var stored = 0
        var pager = SyncPager<ServerBooksPage>(
            fetch: { cursor, since throws(ServerError) in try await server.syncBooks(limit: pageSize, cursor: cursor, updatedAfter: since) },
            apply: { page, state in try store.apply(page.books, deleting: page.deletedBookIDs, state: state) })
        pager.stored = { page, waited, writing in
            stored += page.books.count
            logger?.debug("Sync page stored", metadata: [
                "books": "\(page.books.count)", "waitedMs": "\(Int(waited.milliseconds))", "storeMs": "\(Int(writing.milliseconds))",
            ])
            await progress(stored)
        }
        return try await pager.run(from: state)
    }
}

extension ServerBooksPage: PagedSyncRows {
    var newestUpdate: Date? { books.map(\.updatedAt).max() }
}
