import Foundation
import Logging

/// Brings the contributors and series of the cache up to date, as
/// ``LibrarySync`` does the books: each domain a full sync the first time
/// (resumable page by page), then deltas, with its own
/// ``LibrarySyncState``. The library's sync runs it after the books.
public struct BrowseSync: Sendable {
    /// Rows per page.
    public var pageSize = 500
    let server: any ServerConnection
    let store: any BrowseStore
    let logger: Logger?

    public init(server: any ServerConnection, store: any BrowseStore, pageSize: Int = 500, logger: Logger? = nil) {
        self.server = server
        self.store = store
        self.pageSize = pageSize
        self.logger = logger
    }

    /// Syncs every browse domain. Cancellation stops between pages.
    /// - Returns: how many rows it stored or deleted.
    @discardableResult
    public func run() async throws(ServerError) -> Int {
        var changed = 0
        for domain in BrowseDomain.allCases {
            changed += try await run(domain)
        }
        return changed
    }

    /// Syncs one domain.
    @discardableResult
    public func run(_ domain: BrowseDomain) async throws(ServerError) -> Int {
        var state: LibrarySyncState
        do { state = try store.syncState(of: domain) } catch { state = LibrarySyncState() }
        let delta = state.fullSyncDone
        let since = delta ? state.newestUpdate : nil
        var cursor = delta ? state.deltaCursor : state.resumeCursor
        var changed = 0
        while true {
            let rows = try await server.syncBrowse(domain, limit: pageSize, cursor: cursor, updatedAfter: since)
            let next = rows.hasMore ? rows.nextCursor : nil
            if let newest = rows.newestUpdate { state.newestUpdate = max(newest, state.newestUpdate ?? newest) }
            if !delta { state.resumeCursor = next }
            if next == nil {
                state.fullSyncDone = true
                if let position = rows.nextCursor { state.deltaCursor = position }
            }
            do {
                changed += try store.apply(rows, state: state)
            } catch {
                throw .protocolMismatch("the library cache could not be written: \(error)")
            }
            logger?.debug("Browse page stored", metadata: ["domain": "\(domain.rawValue)", "rows": "\(rows.count)"])
            guard let next, !Task.isCancelled else { return changed }
            cursor = next
        }
    }
}
