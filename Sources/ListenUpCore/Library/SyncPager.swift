import Foundation

/// What the page loop needs to know of a page of any synced domain.
protocol PagedSyncRows: Sendable {
    /// Where the next page starts (on the last page, kRPC's: where the next delta starts).
    var nextCursor: String? { get }
    var hasMore: Bool { get }
    /// The newest change on the page (server clock).
    var newestUpdate: Date? { get }
}

/// One synced domain's page loop, the books' (``LibrarySync``) and each
/// browse domain's (``BrowseSync``): a full sync the first time, resumable
/// page by page (each page and the cursor after it are stored together),
/// then deltas (from ``LibrarySyncState/newestUpdate``, or the cursor the
/// last page named: ``LibrarySyncState/deltaCursor``).
///
/// The next page is fetched while the current one is written, so the
/// server, the decoding and the cache write overlap. Cancellation stops
/// between pages; everything stored stays.
struct SyncPager<Page: PagedSyncRows> {
    /// Fetches the page at a cursor (nil: the first), after a date for a delta.
    let fetch: @Sendable (_ cursor: String?, _ updatedAfter: Date?) async throws(ServerError) -> Page
    /// Writes a page and the state after it; how many rows it changed.
    let apply: (Page, LibrarySyncState) throws -> Int
    /// Told of each page stored, with the time waited for it and the time
    /// its write took.
    var stored: (Page, _ waited: Duration, _ writing: Duration) async -> Void = { _, _, _ in }

    /// Syncs from `state` (the domain's kept one).
    /// - Returns: how many rows it changed.
    func run(from state: LibrarySyncState) async throws(ServerError) -> Int {
        var state = state
        let delta = state.fullSyncDone
        let since = delta ? state.newestUpdate : nil
        let fetch = fetch
        @Sendable func fetchResult(_ cursor: String?) async -> Result<Page, ServerError> {
            do throws(ServerError) {
                return .success(try await fetch(cursor, since))
            } catch {
                return .failure(error)
            }
        }
        let clock = ContinuousClock()
        var started = clock.now
        var page = try await fetchResult(delta ? state.deltaCursor : state.resumeCursor).get()
        var changed = 0
        while true {
            let fetched = clock.now
            let cursor = page.hasMore ? page.nextCursor : nil
            let next = cursor.map { cursor in Task { await fetchResult(cursor) } }
            if let newest = page.newestUpdate { state.newestUpdate = max(newest, state.newestUpdate ?? newest) }
            if !delta { state.resumeCursor = cursor }
            if cursor == nil {
                state.fullSyncDone = true
                // The last page's cursor, when it has one (kRPC), is where the next delta starts.
                if let position = page.nextCursor { state.deltaCursor = position }
            }
            do {
                changed += try apply(page, state)
            } catch {
                next?.cancel()
                throw .protocolMismatch("the library cache could not be written: \(error)")
            }
            await stored(page, fetched - started, clock.now - fetched)
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
