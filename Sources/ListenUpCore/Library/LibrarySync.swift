import Foundation
import ListenUpAPI

/// Brings the cache up to date through `/api/v1/sync/books`: a full sync the
/// first time (resumable page by page: each page and the cursor after it are
/// stored together), then deltas with `updated_after` and `deleted_book_ids`.
public struct LibrarySync: Sendable {
    /// Books per page (the server allows up to 500).
    public var pageSize = 500
    let client: APIClient
    let store: LibraryStore

    public init(client: APIClient, store: LibraryStore, pageSize: Int = 500) {
        self.client = client
        self.store = store
        self.pageSize = pageSize
    }

    /// Runs one sync. `progress` gets the books stored so far in this run.
    /// Cancellation stops between pages; everything stored stays.
    public func run(progress: @escaping @Sendable (Int) async -> Void = { _ in }) async throws(APIClientError) {
        var state: LibrarySyncState
        do { state = try store.syncState() } catch { state = LibrarySyncState() }
        let delta = state.fullSyncDone
        let since = delta ? state.newestUpdate : nil
        var cursor = delta ? nil : state.resumeCursor
        var stored = 0
        repeat {
            if Task.isCancelled { return }
            let page = try await client.authorized(.syncBooks(limit: pageSize, cursor: cursor, updatedAfter: since))
            cursor = page.hasMore ? page.nextCursor : nil
            if let newest = page.books.map(\.updatedAt).max() {
                state.newestUpdate = max(newest, state.newestUpdate ?? newest)
            }
            if !delta { state.resumeCursor = cursor }
            if cursor == nil { state.fullSyncDone = true }
            do {
                try store.apply(page.books, deleting: page.deletedBookIDs ?? [], state: state)
            } catch {
                throw .protocolMismatch("the library cache could not be written: \(error)")
            }
            stored += page.books.count
            await progress(stored)
        } while cursor != nil
    }
}
