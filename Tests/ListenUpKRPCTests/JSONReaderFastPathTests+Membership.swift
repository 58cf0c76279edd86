import Foundation
import JSONToolkit
import Testing
@testable import ListenUpKRPC

/// The junction rows' reader (`book_tags`, `book_moods`, `collection_books`)
/// is a fast path too: what it reads, JSONDecoder decodes the same, and it
/// hands over what it cannot read so.
@Suite("JSONReader fast path: junction rows")
struct MembershipFastPathTests {
    static func read(_ text: String) -> MembershipSyncPayload? {
        JSONReader.read(text) { reader throws(JSONReadError) in try MembershipSyncPayload(reading: &reader) }
    }

    static func agree(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        JSONReaderFastPathTests.expectAgreement(text, read: read, decode: { try KRPCJSON.decode(MembershipSyncPayload.self, from: $0) },
                                                sourceLocation: sourceLocation)
    }

    static let tagRow = #"{"id":"bt-1","bookId":"book-7","tagId":"tag-3","createdAt":1700000000000,"revision":41,"deletedAt":null}"#

    @Test(arguments: [
        (tagRow, MembershipSyncPayload(id: "bt-1", bookId: "book-7", groupId: "tag-3", createdAt: 1_700_000_000_000, revision: 41)),
        (#"{"revision":9,"moodId":"mood-1","id":"bm-2","bookId":"b","createdAt":5,"extra":[1,{"a":null}]}"#,
         MembershipSyncPayload(id: "bm-2", bookId: "b", groupId: "mood-1", createdAt: 5, revision: 9)),
        (#"{"id":"cb-1","collectionId":"c-\u00e9","bookId":"b","createdAt":1,"revision":2}"#,
         MembershipSyncPayload(id: "cb-1", bookId: "b", groupId: "c-é", createdAt: 1, revision: 2)),
        // A tombstone: the pair blanked (§2.1).
        (#"{"id":"bt-9","bookId":"","tagId":"","createdAt":1,"revision":50,"deletedAt":1700000000001}"#,
         MembershipSyncPayload(id: "bt-9", bookId: "", groupId: "", createdAt: 1, revision: 50, deletedAt: 1_700_000_000_001)),
        // Two group keys: the tag's, as init(from:) chooses.
        (#"{"id":"x","bookId":"b","moodId":"m","tagId":"t","createdAt":1,"revision":2}"#,
         MembershipSyncPayload(id: "x", bookId: "b", groupId: "t", createdAt: 1, revision: 2)),
    ])
    func rowsReadAsJSONDecoderDecodesThem(text: String, expected: MembershipSyncPayload) throws {
        #expect(Self.read(text) == expected, "the fast path takes it")
        #expect(try KRPCJSON.decode(MembershipSyncPayload.self, from: text) == expected)
    }

    @Test(arguments: [
        #"{"id":"x","bookId":"b","createdAt":1,"revision":2}"#,
        #"{"id":"x","bookId":"b","tagId":null,"moodId":"m","createdAt":1,"revision":2}"#,
        #"{"id":"x","bookId":"b","tagId":"t","createdAt":1.5,"revision":2}"#,
        #"{"id":"x","bookId":"b","tagId":"t","createdAt":1,"revision":2,"revision":3}"#,
        #"{"id":"x","bookId":7,"tagId":"t","createdAt":1,"revision":2}"#,
        #"{"id":"x","bookId":"b","tagId":"t","createdAt":1,"revision":2,"deletedAt":"soon"}"#,
    ])
    func oddRowsAreLeftToJSONDecoder(text: String) {
        #expect(Self.read(text) == nil, "\(text)")
        Self.agree(text)
    }

    @Test func mutatedRowsNeverDisagree() {
        let text = Array(Self.tagRow.utf8)
        var random = SystemRandomNumberGenerator()
        for _ in 0..<3_000 { Self.agree(JSONReaderFastPathTests.mutated(text, using: &random)) }
    }
}
