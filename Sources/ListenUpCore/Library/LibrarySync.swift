import Foundation
import ListenUpAPI
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
        let delta = state.fullSyncDone
        let since = delta ? state.newestUpdate : nil
        let server = server
        let pageSize = pageSize
        @Sendable func fetch(_ cursor: String?) async -> Result<SyncBooksResponse, ServerError> {
            do throws(ServerError) {
                return .success(try await server.syncBooks(limit: pageSize, cursor: cursor, updatedAfter: since))
            } catch {
                return .failure(error)
            }
        }
        let clock = ContinuousClock()
        var started = clock.now
        var page = try await fetch(delta ? state.deltaCursor : state.resumeCursor).get()
        var stored = 0, changed = 0
        while true {
            let fetched = clock.now
            let cursor = page.hasMore ? page.nextCursor : nil
            let next = cursor.map { cursor in Task { await fetch(cursor) } }
            if let newest = page.books.map(\.updatedAt).max() {
                state.newestUpdate = max(newest, state.newestUpdate ?? newest)
            }
            if !delta { state.resumeCursor = cursor }
            if cursor == nil {
                state.fullSyncDone = true
                // The last page's cursor, when it has one (kRPC), is where the next delta starts.
                if let position = page.nextCursor { state.deltaCursor = position }
            }
            do {
                changed += try store.apply(page.books, deleting: page.deletedBookIDs ?? [], state: state)
            } catch {
                next?.cancel()
                throw .protocolMismatch("the library cache could not be written: \(error)")
            }
            stored += page.books.count
            logger?.debug("Sync page stored", metadata: [
                "books": "\(page.books.count)", "waitedMs": "\(Int((fetched - started).milliseconds))",
                "storeMs": "\(Int((clock.now - fetched).milliseconds))",
            ])
            await progress(stored)
            guard let next else { return changed }
            if Task.isCancelled {
                next.cancel()
                return changed
            }
            started = clock.now
            page = try await withTaskCancellationHandler { await next.value } onCancel: { next.cancel() }.get()
        }
    }
}
