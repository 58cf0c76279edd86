import Foundation
import ListenUpAPI
import ListenUpKRPC
import ListenUpTestSupport
import Logging
import ServerSentEvents
import Testing
@testable import ListenUpCore
@testable import ListenUpLive

/// A deleted playback position (a `playback_positions` tombstone) takes the
/// book's resume point back to the start at once: from the live events
/// (whose `SyncEvent.Deleted` names the position, not the book) and from
/// `pullDomain`.
@Suite("kRPC deleted playback positions")
struct KRPCDeletedPositionTests {
    let logs = LogCapture()
    static let device = ListenUpAPI.DeviceInfo(deviceType: "desktop", platform: "Linux", clientName: "ListenUp for Linux", clientVersion: "0.1.0")
    static let deletedAt: Int64 = 1_787_401_000_000
    static let deletedAtDate = Date(timeIntervalSince1970: 1_787_401_000)

    static func position(_ id: String, book: String, at positionMs: Int64, revision: Int64, deleted: Bool = false) -> PlaybackPositionSyncPayload {
        var payload = PlaybackPositionSyncPayload(id: id, bookId: book, positionMs: positionMs, lastPlayedAt: 1_787_400_000_000, finished: false,
                                                  playbackSpeed: 1, currentChapterId: nil, revision: revision,
                                                  updatedAt: 1_787_400_000_000, createdAt: 1_787_300_000_000)
        if deleted { payload.deletedAt = deletedAt }
        return payload
    }

    static func event(_ type: String, _ payload: PlaybackPositionSyncPayload?, id: String, revision: Int64) throws -> String {
        let body = try payload.map { #","payload":\#(try KRPCJSON.encode($0))"# } ?? ""
        return #"{"type":"SyncEvent.\#(type)","id":"\#(id)","revision":\#(revision),"occurredAt":\#(deletedAt)\#(body)}"#
    }

    @Test func aDeletionFromTheLiveEventsResetsTheResumePointAtOnce() async throws {
        let server = try await ScriptedKRPCServer.start { exchange in
            switch exchange.method {
            case "observeEvents":
                try await exchange.control("Heartbeat")
                let seen = Self.position("pos-1", book: "book-1", at: 5_000, revision: 10)
                try await exchange.frame(domain: "playback_positions", revision: 10, json: try Self.event("Created", seen, id: "pos-1", revision: 10))
                try await exchange.frame(domain: "playback_positions", revision: 11, json: try Self.event("Deleted", nil, id: "pos-1", revision: 11))
                // A position this connection never saw: looked up by id.
                try await exchange.frame(domain: "playback_positions", revision: 12, json: try Self.event("Deleted", nil, id: "pos-2", revision: 12))
                try await exchange.control("Heartbeat")
            case "pullByIds":
                try await exchange.success(try Canned.page("playback_positions", [Self.position("pos-2", book: "book-2", at: 9_000, revision: 12,
                                                                                                   deleted: true)], hasMore: false, cursor: 12))
            default:
                return
            }
        }
        defer { Task { await server.stop() } }
        let client = KRPCServerConnection(baseURL: server.baseURL, session: Canned.storedSession(server.baseURL), transport: .live,
                                          sessions: .inMemory(), deviceInfo: Self.device, logger: logs.logger)
        let events = try await withDeadline { () -> [LibraryEvent] in
            var seen: [LibraryEvent] = []
            for try await event in try await client.liveEvents() where event.kind.hasPrefix("progress") {
                seen.append(event)
                if seen.count == 3 { break }
            }
            return seen
        }
        #expect(events.map(\.kind) == ["progressChanged", "progressDeleted", "progressDeleted"])
        let lookups = server.calls.filter { $0.method == "pullByIds" }.map(\.data.data)
        #expect(lookups.count == 1 && lookups.allSatisfy { $0.contains(#""ids":["pos-2"]"#) && $0.contains(#""match":"id""#) }, "\(lookups)")

        // The library applies them: the progress goes, and the player's resume point goes back to the start.
        let store = InMemoryLibraryStore()
        try store.setProgress(BookProgress(fraction: 0.5, finished: false), for: "book-1")
        let live = LibraryLiveUpdates(server: client, store: store, logger: logs.logger)
        let changes = events.map { live.apply($0) }
        #expect(changes[1] == .progressChanged(ListeningPosition(bookID: "book-1", position: 0, updatedAt: Self.deletedAtDate)))
        #expect(changes[2] == .progressChanged(ListeningPosition(bookID: "book-2", position: 0, updatedAt: Self.deletedAtDate)))
        #expect(try store.progress()["book-1"] == nil)
    }

    @Test func aTombstoneFromPullDomainWinsOverAnOlderLocalResumePoint() async throws {
        let server = try await ScriptedKRPCServer.start { exchange in
            guard exchange.method == "pullDomain", exchange.argument("domain") == "playback_positions" else { return }
            let rows = [
                Self.position("pos-1", book: "book-1", at: 5_000, revision: 3),
                Self.position("pos-2", book: "book-2", at: 7_000, revision: 4),
                Self.position("pos-1", book: "book-1", at: 5_000, revision: 6, deleted: true),
            ]
            try await exchange.success(try Canned.page("playback_positions", rows, hasMore: false, cursor: 6))
        }
        defer { Task { await server.stop() } }
        let client = KRPCServerConnection(baseURL: server.baseURL, session: Canned.storedSession(server.baseURL), transport: .live,
                                          sessions: .inMemory(), deviceInfo: Self.device, logger: logs.logger)
        let positions = try await withDeadline { try await client.listeningPositions(updatedAfter: nil) }
        #expect(positions.map(\.bookID) == ["book-1", "book-2"])
        let deleted = try #require(positions.first)
        #expect(deleted == ListeningPosition(bookID: "book-1", position: 0, updatedAt: Self.deletedAtDate))
        // The player's rule: the newer of this device's and the server's.
        let local = ListeningPosition(bookID: "book-1", position: 5_000, updatedAt: Self.deletedAtDate.addingTimeInterval(-3_600))
        #expect(ListeningRules.resumePoint(local: local, server: deleted, duration: 60_000)?.position == 0)
        // Asked for what changed since a time between book-2's last listen and the deletion: the deletion.
        let between = Date(timeIntervalSince1970: 1_787_400_500)
        #expect(try await client.listeningPositions(updatedAfter: between).map(\.bookID) == ["book-1"])
    }
}
