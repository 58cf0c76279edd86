import Crypto
import Foundation
import JSONToolkit
import ListenUpKRPC

/// `SyncStreamService` (§3.4) over the sync ledger: `books`, `contributors`,
/// `series`, `playback_positions` and `listening_events` hold rows; every other
/// domain the real server lists exists and is empty.
extension DemoKRPCService {
    /// Page sizes `pullDomain` clamps `limit` to.
    static let pageLimits: ClosedRange<Int> = 1...5000
    /// The most ids `pullByIds` takes.
    static let maxTargetedIDs = 100

    /// `listDomains()`: every domain of the v0.9 server.
    static func listDomains() -> String {
        DemoKRPCWrap.success(JSONWriter.strings(SyncDomain.all.map(\.rawValue)))
    }

    /// `pullDomain(domain, since, limit)`: rows with `revision > since` in
    /// revision order, tombstones included. `hasMore` is true whenever the
    /// page is full, so a full last page is followed by an empty one (§6.5).
    func pullDomain(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let domain = try call.decode("domain", as: String.self)
        let since = try call.decode("since", as: Int64.self)
        let limit = try call.decode("limit", as: Int.self)
        let name = try call.present(domain, "domain")
        let after = try call.present(since, "since")
        let size = min(max(try call.present(limit, "limit"), Self.pageLimits.lowerBound), Self.pageLimits.upperBound)
        guard SyncDomain.all.contains(SyncDomain(rawValue: name)) else { return .result(DemoKRPCWrap.failure(.unknownDomain(name))) }
        let userID = try call.userID
        let page = DemoSyncDomain(rawValue: name).map { known in
            service.state.withLock { state -> [DemoSyncChange] in
                // The real server heals a stale row on pull (addendum §4.3):
                // the rolling windows and the streak as of now.
                if known == .userStats { state.healUserStats(userID: userID, now: Date()) }
                // Every account has its profile (made as the real server's
                // `PublicProfileMaintainer` keeps them, DemoSocial.swift).
                if known == .publicProfiles { state.refreshPublicProfiles(now: Date()) }
                return state.ledger.rows(known, visibleTo: userID, after: after, limit: size)
            }
        } ?? []
        let result = SyncPage(domain: name, items: page.map { DemoKRPCMapping.payloadJSON($0, libraryID: libraryID) },
                              nextCursor: page.last?.revision, hasMore: page.count == size)
        return .result(DemoKRPCWrap.success(result.kotlinJSON))
    }

    /// `pullByIds(domain, match, ids)`: at most 100 ids, newest revision first.
    func pullByIds(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let domain = try call.decode("domain", as: String.self)
        let match = try call.decode("match", as: String.self)
        let ids = try call.decode("ids", as: [String].self)
        let name = try call.present(domain, "domain")
        let column = try call.present(match, "match")
        guard ["id", "collection_id", "book_id"].contains(column) else {
            throw DemoKRPCCallFailure.undecodable("Unknown TargetedMatch '\(column)'")
        }
        let wanted = try call.present(ids, "ids")
        guard wanted.count <= Self.maxTargetedIDs else {
            return .result(DemoKRPCWrap.failure(.tooManyIds(requested: wanted.count, maxIds: Self.maxTargetedIDs)))
        }
        let byBook = [DemoSyncDomain.playbackPositions, .listeningEvents, .activities].map(\.rawValue).contains(name)
        guard column == "id" || (column == "book_id" && byBook) else {
            return .result(DemoKRPCWrap.failure(.unsupportedMatch(domain: name, match: column.uppercased())))
        }
        guard SyncDomain.all.contains(SyncDomain(rawValue: name)) else { return .result(DemoKRPCWrap.failure(.unknownDomain(name))) }
        let keys = Set(wanted.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        let found = rows(name, userID: try call.userID).filter { keys.contains(column == "id" ? $0.id : Self.bookID(of: $0)) }
            .sorted { $0.revision > $1.revision }
        let result = SyncPage(domain: name, items: found.map { DemoKRPCMapping.payloadJSON($0, libraryID: libraryID) },
                              nextCursor: found.map(\.revision).max(), hasMore: false)
        return .result(DemoKRPCWrap.success(result.kotlinJSON))
    }

    /// `digest(domain, cursor)`: the rows at or below `cursor` that are not
    /// deleted: their count and `"sha256:" + hex(SHA-256(sorted "<id>|<revision>\n"))`,
    /// `""` when there are none.
    func digest(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let domain = try call.decode("domain", as: String.self)
        let cursor = try call.decode("cursor", as: Int64.self)
        let name = try call.present(domain, "domain")
        let at = try call.present(cursor, "cursor")
        guard SyncDomain.all.contains(SyncDomain(rawValue: name)) else { return .result(DemoKRPCWrap.failure(.unknownDomain(name))) }
        let live = rows(name, userID: try call.userID).filter { $0.kind != .deleted && $0.revision <= at }
        let lines = live.map { "\($0.id)|\($0.revision)\n" }.sorted()
        let hash = lines.isEmpty ? "" : "sha256:" + SHA256.hash(data: Data(lines.joined().utf8)).map { String(format: "%02x", $0) }.joined()
        return .result(DemoKRPCWrap.success(DomainDigest(cursor: at, count: Int64(live.count), hash: hash).kotlinJSON))
    }

    /// `observeEvents(sinceRevision)`: a Flow (see ``DemoKRPCEventStream``).
    func observeEvents(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        .eventStream(sinceRevision: try call.decodeNullable("sinceRevision", as: Int64.self))
    }

    /// The latest write of every row of a domain the caller may see; empty
    /// for the domains the demo does not fill.
    private func rows(_ domain: String, userID: String) -> [DemoSyncChange] {
        guard let known = DemoSyncDomain(rawValue: domain) else { return [] }
        return service.state.withLock { $0.ledger.rows(known, visibleTo: userID) }
    }

    private static func bookID(of change: DemoSyncChange) -> String {
        switch change.row {
        case .book(let book): return book.id
        case .contributor, .series, .userStats, .genre, .label, .collection, .shelf, .shelfBook, .publicProfile: return ""
        case .activity(let row): return row.bookId ?? ""
        case .membership(let row, _): return row.bookID
        case .position(let bookID, _): return bookID
        case .listeningEvent(let event, _): return event.bookID
        }
    }
}
