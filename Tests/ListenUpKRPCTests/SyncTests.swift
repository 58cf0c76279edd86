import Foundation
import Testing
@testable import ListenUpKRPC

/// Sync pages, frames and events (§3.4), layer by layer.
@Suite("Sync")
struct SyncTests {
    static func streamData(_ name: String) throws -> String {
        guard case .streamMessage(let element) = try Fixture.message(name) else {
            Issue.record("\(name) is not a StreamMessage")
            throw KRPCDecodingError.unknownType(name)
        }
        return element.data
    }

    @Test func heartbeatHello() throws {
        guard case .data(let frame) = try RpcEvent<SyncFrame>.decode(from: try Self.streamData("stream_message_heartbeat.json")) else {
            Issue.record("not data"); return
        }
        #expect(frame.domain == "control" && frame.isControl)
        #expect(frame.revision == nil)
        #expect(try frame.control() == .heartbeat)
    }

    @Test func playbackPositionUpdateThroughThreeLayers() throws {
        guard case .data(let frame) = try RpcEvent<SyncFrame>.decode(from: try Self.streamData("stream_message_playback_position.json")) else {
            Issue.record("not data"); return
        }
        #expect(frame.domain == SyncDomain.playbackPositions.rawValue && !frame.isControl)
        #expect(frame.revision == 4712)
        let event = try frame.event(as: PlaybackPositionSyncPayload.self)
        #expect(event.id == "<position-id>" && event.revision == 4712 && event.occurredAt == 1_787_401_000_123)
        #expect(event.clientOpId == "op-77")
        guard case .updated(let position) = event.change else { Issue.record("not an update"); return }
        #expect(event.payload == position)
        #expect(position == PlaybackPositionSyncPayload(
            id: "<position-id>", bookId: "<book-id>", positionMs: 1_234_567, lastPlayedAt: 1_787_401_000_000, finished: false,
            playbackSpeed: 1.25, currentChapterId: "<chapter-id>", volumeBoostDb: 0, measuredGainDb: nil, revision: 4712,
            updatedAt: 1_787_401_000_123, createdAt: 1_787_300_000_000, deletedAt: nil))
    }

    @Test func createdDeletedAndUnknownEvents() throws {
        let created = try KRPCJSON.decode(SyncEvent<SeriesSyncPayload>.self, from: #"{"type":"SyncEvent.Created","id":"s1","revision":5,"occurredAt":9,"payload":{"id":"s1","name":"The Expanse","sortName":null,"revision":5,"updatedAt":9,"createdAt":9,"deletedAt":null}}"#)
        #expect(created.clientOpId == nil)
        #expect(created.change == .created(SeriesSyncPayload(id: "s1", name: "The Expanse", revision: 5, updatedAt: 9, createdAt: 9)))

        let deleted = try KRPCJSON.decode(SyncEvent<SeriesSyncPayload>.self, from: #"{"type":"SyncEvent.Deleted","id":"s1","revision":6,"occurredAt":10,"clientOpId":"op"}"#)
        #expect(deleted.change == .deleted && deleted.payload == nil && deleted.clientOpId == "op")

        let future = try KRPCJSON.decode(SyncEvent<SeriesSyncPayload>.self, from: #"{"type":"SyncEvent.Moved","id":"s1","revision":7,"occurredAt":11}"#)
        #expect(future.change == .unknown(type: "SyncEvent.Moved"))

        #expect(throws: KRPCDecodingError.missingKey(path: "payload")) {
            try KRPCJSON.decode(SyncEvent<SeriesSyncPayload>.self, from: #"{"type":"SyncEvent.Updated","id":"s1","revision":7,"occurredAt":11}"#)
        }
    }

    @Test func pullDomainPageOfBooks() throws {
        let page = try AppResult<SyncPage>.decode(from: try AppResultTests.successData("call_success_pull_domain.json")).get()
        #expect(page.domain == "books" && page.nextCursor == 120 && !page.hasMore)
        let books = try page.decodeItems(as: BookSyncPayload.self)
        #expect(books.count == 1)
        #expect(books.first?.title == "Leviathan Wakes")
    }

    @Test func aBadItemNamesItsIndex() {
        let page = SyncPage(domain: "series", items: [
            #"{"id":"s1","name":"A","revision":1,"updatedAt":1,"createdAt":1}"#,
            #"{"id":"s2","revision":1,"updatedAt":1,"createdAt":1}"#,
        ], nextCursor: 1, hasMore: false)
        #expect(throws: KRPCDecodingError.missingKey(path: "items[1].name")) { try page.decodeItems(as: SeriesSyncPayload.self) }
        let garbage = SyncPage(domain: "series", items: ["{"], nextCursor: nil, hasMore: false)
        #expect(throws: KRPCDecodingError.invalidValue(path: "items[0]", reason: "not JSON")) {
            try garbage.decodeItems(as: SeriesSyncPayload.self)
        }
    }

    @Test func emptyPageAndDigest() throws {
        let page = try KRPCJSON.decode(SyncPage.self, from: #"{"domain":"books","items":[],"nextCursor":null,"hasMore":false}"#)
        #expect(try page.decodeItems(as: BookSyncPayload.self).isEmpty)
        let digest = try KRPCJSON.decode(DomainDigest.self, from: #"{"cursor":120,"count":1,"hash":"sha256:ab"}"#)
        #expect(digest == DomainDigest(cursor: 120, count: 1, hash: "sha256:ab"))
    }

    @Test func domains() {
        #expect(SyncDomain.all.count == 21)
        #expect(SyncDomain.all.contains(.books) && SyncDomain.all.contains(.playbackPositions))
        #expect(!SyncDomain.all.contains(.control))
    }
}
