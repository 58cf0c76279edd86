import Foundation
import ListenUpCore
import ListenUpKRPC
@testable import ListenUpLive

/// A library a ``ScriptedKRPCServer`` serves as the contract says (§3.4):
/// books under one revision counter, `pullDomain` pages (tombstones
/// included, a full page says `hasMore`), `digest` of the live rows at a
/// cursor, and `observeEvents` streams that stay open. The test's levers: a
/// book added, a book removed for good with no tombstone and no event
/// (drift), a control frame to every stream, and a broken network.
final class ScriptedKRPCLibrary: Sendable {
    private struct State {
        var revision: Int64 = 0
        /// Each book's latest write, tombstones included.
        var rows: [String: BookSyncPayload] = [:]
        var streams: [Exchange] = []
        var broken = false
        var digestSurplus = 0
    }

    private let state = LockedValue(State())

    /// A library of `titles` (`book-1`, `book-2`, …), revisions 1, 2, ….
    init(titles: [String]) {
        for title in titles { add(title) }
    }

    /// While set, the network is broken past the first page: `pullDomain`
    /// after revision 0 and `observeEvents` drop the connection.
    var isBroken: Bool {
        get { state.value.broken }
        set { state.withLock { $0.broken = newValue } }
    }

    /// Books the digest counts that no page ever gives (a server whose
    /// digest counts otherwise than this app expects).
    var digestSurplus: Int {
        get { state.value.digestSurplus }
        set { state.withLock { $0.digestSurplus = newValue } }
    }

    /// Adds a book at the next revision (no event); returns its id.
    @discardableResult
    func add(_ title: String) -> String {
        state.withLock { state in
            state.revision += 1
            let id = "book-\(state.rows.count + 1)"
            state.rows[id] = Canned.book(id, title: title, revision: state.revision)
            return id
        }
    }

    /// Removes a book for good: no tombstone, no event (what a sync only notices by its digest).
    func purge(_ id: String) {
        _ = state.withLock { $0.rows.removeValue(forKey: id) }
    }

    /// Replaces book `id` by a new book titled `title` at the same revision,
    /// with no event and nothing a delta would bring: the count stays, only
    /// the digest's hash tells. Returns the new book's id.
    @discardableResult
    func swap(_ id: String, for title: String) -> String {
        state.withLock { state in
            let revision = state.rows.removeValue(forKey: id)?.revision ?? 0
            let newID = "\(id)-swapped"
            state.rows[newID] = Canned.book(newID, title: title, revision: revision)
            return newID
        }
    }

    /// Sends `SyncControl.<name>` on every open event stream.
    func broadcast(control name: String) async {
        for stream in state.value.streams { try? await stream.control(name) }
    }

    /// Open event streams.
    var streamCount: Int { state.value.streams.count }

    /// Serves one call; calls it does not know are left unanswered.
    func handle(_ exchange: Exchange) async throws {
        switch exchange.method {
        case "pullDomain":
            let since = Int64(exchange.argument("since") ?? "") ?? 0
            let limit = Int(exchange.argument("limit") ?? "") ?? 100
            guard exchange.argument("domain") == "books" else {
                return try await exchange.success(SyncPage(domain: exchange.argument("domain") ?? "", items: [], nextCursor: nil, hasMore: false))
            }
            if isBroken, since > 0 { return await exchange.drop() }
            let rows = state.value.rows.values.filter { $0.revision > since }.sorted { $0.revision < $1.revision }.prefix(limit)
            try await exchange.success(try Canned.page("books", Array(rows), hasMore: rows.count == limit, cursor: rows.last?.revision))
        case "digest":
            let cursor = Int64(exchange.argument("cursor") ?? "") ?? .max
            let live = state.value.rows.values.filter { $0.deletedAt == nil && $0.revision <= cursor }
            let hash = KRPCServerConnection.digestHash(Dictionary(uniqueKeysWithValues: live.map { ($0.id, $0.revision) }))
            try await exchange.success(DomainDigest(cursor: cursor, count: Int64(live.count + digestSurplus), hash: hash))
        case "observeEvents":
            if isBroken { return await exchange.drop() }
            try await exchange.control("Heartbeat")
            state.withLock { $0.streams.append(exchange) }
        case "getRecentlyListened":
            try await exchange.success([PlaybackPositionSyncPayload]())
        default:
            return
        }
    }
}
