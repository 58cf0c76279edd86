import Foundation
import Logging

/// Brings the browse domains of the cache up to date, as ``LibrarySync``
/// does the books (the same ``SyncPager``): each domain a full sync the
/// first time (resumable page by page), then deltas, with its own
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

    /// Syncs every browse domain, side by side (each its own page loop;
    /// the cache writes them one at a time). Cancellation stops between
    /// pages. The first failure is thrown once every domain has stopped;
    /// what the others stored stays.
    /// - Returns: how many rows it stored or deleted.
    @discardableResult
    public func run() async throws(ServerError) -> Int {
        let started = ContinuousClock.now
        let results = await withTaskGroup(of: Result<Int, ServerError>.self) { group in
            for domain in BrowseDomain.allCases {
                group.addTask {
                    do throws(ServerError) { return .success(try await run(domain)) } catch { return .failure(error) }
                }
            }
            var results: [Result<Int, ServerError>] = []
            for await result in group { results.append(result) }
            return results
        }
        var changed = 0
        for result in results { changed += try result.get() }
        // `bench/sync` (part 3) ends the browse domains' first sync here.
        logger?.debug("Browse domains synced", metadata: [
            "domains": "\(BrowseDomain.allCases.count)", "changed": "\(changed)",
            "ms": "\(Int((ContinuousClock.now - started).milliseconds))",
        ])
        return changed
    }

    /// Syncs one domain; its next page is fetched while one is written.
    @discardableResult
    public func run(_ domain: BrowseDomain) async throws(ServerError) -> Int {
        var state: LibrarySyncState
        do { state = try store.syncState(of: domain) } catch { state = LibrarySyncState() }
        let server = server, pageSize = pageSize, store = store, logger = logger
        var pager = SyncPager<BrowseRows>(
            fetch: { cursor, since throws(ServerError) in
                try await server.syncBrowse(domain, limit: pageSize, cursor: cursor, updatedAfter: since)
            },
            apply: { rows, state in try store.apply(rows, state: state) })
        pager.stored = { rows, _, writing in
            logger?.debug("Browse page stored", metadata: [
                "domain": "\(domain.rawValue)", "rows": "\(rows.count)", "storeMs": "\(Int(writing.milliseconds))",
            ])
        }
        return try await pager.run(from: state)
    }
}

extension BrowseRows: PagedSyncRows {}
