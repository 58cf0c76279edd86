import Foundation
import KRPCSession
import ListenUpAPI
import ListenUpCore
import ListenUpKRPC

/// Listening over kRPC (§3.6, §3.7): signed audio URLs from `prepare`,
/// spans as listening events plus the position, positions from
/// `playback_positions`, *Continue listening* from `getRecentlyListened`.
extension KRPCServerConnection {
    /// Absolute signed URLs from `PlaybackService.prepare` (direct play:
    /// `capabilities` null). No headers: the signature is the
    /// authorisation. After a refusal (403: the signature ran out) the URLs
    /// are simply prepared again.
    public func audioAccess(bookID: String, fileIDs: [String], afterRefusal: Bool) async throws(ServerError) -> AudioAccess {
        let prepared = try await call(.prepare, PrepareArguments(bookId: bookID, capabilities: nil, forceTranscode: false),
                                      returning: PreparedPlayback.self)
        var urls: [String: URL] = [:]
        for file in prepared.audioFiles {
            if let url = KRPCEndpoints.absolute(file.url, base: baseURL) { urls[file.fileId] = url }
        }
        let missing = fileIDs.filter { urls[$0] == nil }
        if !missing.isEmpty {
            logger.warning("prepare named no URL for some files", metadata: ["book": "\(bookID)", "missing": "\(missing.count)"])
        }
        return AudioAccess(urls: urls, headers: [:])
    }

    /// `recordListeningEvent` for each span (in order), then
    /// `recordPosition` with the last span of each book. A span the server
    /// refuses for good (validation, an unknown book) is reported failed;
    /// a network failure throws, and the spans are sent again later.
    public func sendListening(_ spans: [ListeningSpan]) async throws(ServerError) -> ListeningAcknowledgement {
        var acknowledged: [String] = []
        var failed: [String] = []
        var last: [String: ListeningSpan] = [:]
        let tz = TimeZone.current.identifier
        for span in spans {
            do {
                _ = try await call(.recordListeningEvent, RequestArguments(KRPCMapping.listeningEvent(span, tz: tz, deviceLabel: krpcDeviceLabel)),
                                   returning: ListeningEventSyncPayload.self)
                acknowledged.append(span.id)
                last[span.bookID] = span
            } catch .server(let status, _) where (400..<500).contains(status) {
                failed.append(span.id)
            }
        }
        for span in last.values.sorted(by: { $0.endedAt < $1.endedAt }) {
            let request = KRPCMapping.positionRequest(span)
            do {
                learn(positions: [try await call(.recordPosition, RequestArguments(request), returning: PlaybackPositionSyncPayload.self)])
            } catch .server(let status, _) where (400..<500).contains(status) {
                logger.debug("The server refused a position", metadata: ["status": "\(status)"])
            }
        }
        return ListeningAcknowledgement(acknowledged: acknowledged, failed: failed)
    }

    /// Every position of the user (`pullDomain("playback_positions")`, all
    /// pages), those changed since `updatedAfter` when given. A deleted
    /// position (a tombstone) is position 0 as of its deletion, so it wins
    /// over an older resume point kept on this device.
    public func listeningPositions(updatedAfter: Date?) async throws(ServerError) -> [ListeningPosition] {
        var since: Int64 = 0
        var positions: [String: PlaybackPositionSyncPayload] = [:]
        while true {
            let page = try await call(.pullDomain, PullDomainArguments(domain: SyncDomain.playbackPositions.rawValue, since: since, limit: 500),
                                      returning: SyncPage.self)
            let rows: [PlaybackPositionSyncPayload]
            do { rows = try page.decodeItems(as: PlaybackPositionSyncPayload.self) } catch {
                throw .protocolMismatch("a positions page did not decode: \(error)")
            }
            learn(positions: rows)
            // Revision order: a book's latest row wins, tombstone or not.
            for row in rows { positions[row.bookId] = row }
            guard page.hasMore, let next = page.nextCursor, !rows.isEmpty, next > since else { break }
            since = next
        }
        let cutoff = updatedAfter.map(KRPCMapping.milliseconds) ?? Int64.min
        return positions.values.compactMap { row -> ListeningPosition? in
            if let deletedAt = row.deletedAt {
                return deletedAt > cutoff ? ListeningPosition(bookID: row.bookId, position: 0, updatedAt: KRPCMapping.date(deletedAt)) : nil
            }
            return max(row.updatedAt, row.lastPlayedAt) > cutoff ? KRPCMapping.position(row) : nil
        }
        .sorted { $0.bookID < $1.bookID }
    }

    /// Remembers the book of each position (a deleted position's event names the position only).
    func learn(positions: [PlaybackPositionSyncPayload]) {
        for position in positions { positionBooks[position.id] = position.bookId }
    }

    /// Finds the book of a position this connection never saw, for its
    /// deletion event: `pullByIds` by id (tombstones included).
    func lookUpPosition(_ id: String) async {
        do throws(ServerError) {
            let page = try await call(.pullByIds, PullByIdsArguments(domain: SyncDomain.playbackPositions.rawValue, match: .id, ids: [id]),
                                      returning: SyncPage.self)
            learn(positions: (try? page.decodeItems(as: PlaybackPositionSyncPayload.self)) ?? [])
        } catch {
            logger.debug("A deleted position's book could not be looked up", metadata: ["code": "\(error.code)"])
        }
    }

    /// `PlaybackProgressService.getRecentlyListened(limit)`, with each book's
    /// title, authors and length (from the books pulled, else `getBook`).
    public func continueListening(limit: Int) async throws(ServerError) -> [ContinueListeningItem] {
        let positions = try await call(.getRecentlyListened, LimitArguments(limit: min(max(limit, 1), 100)),
                                       returning: [PlaybackPositionSyncPayload].self)
        learn(positions: positions)
        var items: [ContinueListeningItem] = []
        for position in positions {
            var summary = summaries[position.bookId]
            if summary == nil, let book = try? await call(.getBook, GetBookArguments(id: position.bookId), returning: BookSyncPayload.self) {
                let mapped = KRPCMapping.serverBook(book)
                learn(books: [mapped], through: nil)
                summary = KRPCMapping.summary(mapped)
            }
            items.append(KRPCMapping.continueItem(position, book: summary))
        }
        return items
    }

    /// `recordPosition` with `finished` and the rest of the book's row
    /// (speed, boost, gain, chapter) as this device knows it, as ListenUp's
    /// own clients send *Mark as finished* and *Mark as not started*
    /// (`PlaybackPositionRepositoryImpl.requestFor`, addendum §1.3).
    /// Sent at most once (``KRPCDelivery/atMostOnce``): after a timeout or a
    /// socket lost under it the user is told, and decides whether to ask again.
    public func setFinished(_ finished: Bool, row: ListeningPosition) async throws(ServerError) {
        let request = KRPCMapping.positionRequest(row)
        learn(positions: [try await call(.recordPosition, RequestArguments(request), returning: PlaybackPositionSyncPayload.self,
                                         delivery: .atMostOnce)])
    }
}
