import Foundation
import ListenUpKRPC
import Testing

/// The social payloads as today's server writes them: `ActivitySyncPayload`
/// with every key (nulls included), `PublicProfileSyncPayload` with its
/// windowed counts omitted at 0, the tombstones of both, and hostile rows.
@Suite("Social payloads")
struct SocialPayloadTests {
    static let activity = """
        {"id":"a1","userId":"u2","type":"finished_book","bookId":"b1","isReread":false,"durationMs":0,"milestoneValue":0,
         "milestoneUnit":null,"shelfId":null,"shelfName":null,"occurredAt":1700000000000,"revision":41,"createdAt":1700000000000,
         "updatedAt":1700000000000,"deletedAt":null}
        """

    @Test func anActivityDecodesAndEncodesEveryKey() throws {
        let row = try KRPCJSON.decode(ActivitySyncPayload.self, from: Self.activity)
        #expect(row.id == "a1" && row.userId == "u2" && row.type == ActivityKind.finishedBook.rawValue && row.bookId == "b1")
        #expect(row.revision == 41 && !row.isDeleted && row.milestoneUnit == nil)
        let text = try KRPCJSON.encode(row)
        for key in ["\"milestoneUnit\":null", "\"shelfId\":null", "\"shelfName\":null", "\"deletedAt\":null", "\"isReread\":false"] {
            #expect(text.contains(key), "every key is written, as the server does: \(text)")
        }
        #expect(try KRPCJSON.decode(ActivitySyncPayload.self, from: text) == row)
    }

    @Test func anActivityTombstoneIsBlankedButKeepsItsID() throws {
        let tombstone = try KRPCJSON.decode(ActivitySyncPayload.self, from: """
            {"id":"a1","userId":"","type":"","bookId":null,"isReread":false,"durationMs":0,"milestoneValue":0,"milestoneUnit":null,
             "shelfId":null,"shelfName":null,"occurredAt":0,"revision":50,"createdAt":0,"updatedAt":9,"deletedAt":9}
            """)
        #expect(tombstone.isDeleted && tombstone.id == "a1" && tombstone.userId.isEmpty && tombstone.type.isEmpty)
    }

    @Test func aProfileOmitsItsWindowsAtZeroAndDecodesThemAbsent() throws {
        let row = try KRPCJSON.decode(PublicProfileSyncPayload.self, from: """
            {"id":"u2","displayName":"Grace Hopper","avatarType":"auto","tagline":null,"totalSecondsAllTime":3600,
             "totalSecondsLast7Days":60,"totalSecondsLast30Days":600,"totalSecondsLast365Days":3600,"booksFinished":2,
             "currentStreakDays":1,"longestStreakDays":4,"revision":7,"updatedAt":5,"createdAt":1,"deletedAt":null}
            """)
        #expect(row.displayName == "Grace Hopper" && row.booksFinished == 2 && row.booksFinishedLast7Days == 0 && row.avatarUpdatedAt == 0)
        let text = try KRPCJSON.encode(row)
        #expect(!text.contains("booksFinishedLast7Days") && !text.contains("avatarUpdatedAt"), "defaults omitted: \(text)")
        #expect(text.contains("\"tagline\":null") && text.contains("\"deletedAt\":null"), "nullables without a default are written")
        var windowed = row
        windowed.booksFinishedLast30Days = 3
        windowed.avatarUpdatedAt = 99
        windowed.deletedAt = 8
        let back = try KRPCJSON.decode(PublicProfileSyncPayload.self, from: try KRPCJSON.encode(windowed))
        #expect(back == windowed && back.isDeleted, "a tombstone keeps the full row")
    }

    @Test func hostileRowsAreRefused() {
        // No type, a number where a string goes, a string where a number goes.
        #expect(throws: KRPCDecodingError.self) {
            try KRPCJSON.decode(ActivitySyncPayload.self, from: Self.activity.replacingOccurrences(of: #""type":"finished_book","#, with: ""))
        }
        #expect(throws: KRPCDecodingError.self) {
            try KRPCJSON.decode(ActivitySyncPayload.self, from: Self.activity.replacingOccurrences(of: #""userId":"u2""#, with: #""userId":2"#))
        }
        #expect(throws: KRPCDecodingError.self) {
            try KRPCJSON.decode(ActivitySyncPayload.self, from: Self.activity.replacingOccurrences(of: #""revision":41"#,
                                                                                                      with: #""revision":"41""#))
        }
        #expect(throws: KRPCDecodingError.self) {
            try KRPCJSON.decode(PublicProfileSyncPayload.self, from: #"{"id":"u2","avatarType":"auto","revision":1,"updatedAt":1,"createdAt":1}"#)
        }
        #expect(throws: KRPCDecodingError.self) { try KRPCJSON.decode(ActivitySyncPayload.self, from: "[]") }
        #expect(SyncDomain.all.contains(.activities) && SyncDomain.all.contains(.publicProfiles))
    }
}
