import Foundation
import ListenUpKRPC
import Testing

/// The shelf payloads and DTOs as today's server writes them (Kotlin omits
/// defaults), and what a hostile or broken row does.
@Suite("Shelf payloads")
struct ShelfPayloadTests {
    @Test func aShelfRowWithItsDefaultsOmittedDecodesToThem() throws {
        let row = try KRPCJSON.decode(ShelfSyncPayload.self, from: #"{"id":"s1","name":"To Read","revision":7,"updatedAt":1,"createdAt":1}"#)
        #expect(row.description == "" && row.isPrivate == false && row.deletedAt == nil && !row.isDeleted)
        let text = try KRPCJSON.encode(row)
        #expect(!text.contains("description") && !text.contains("isPrivate") && !text.contains("deletedAt"), "omitted as Kotlin does: \(text)")
        let full = ShelfSyncPayload(id: "s2", name: "Mine", description: "Quiet", isPrivate: true, revision: 9, updatedAt: 2, createdAt: 1,
                                    deletedAt: 3)
        #expect(try KRPCJSON.decode(ShelfSyncPayload.self, from: try KRPCJSON.encode(full)) == full)
    }

    @Test func aShelfBookTombstoneHasItsPairBlanked() throws {
        let tombstone = try KRPCJSON.decode(ShelfBookSyncPayload.self, from: """
            {"id":"sb-1","shelfId":"","bookId":"","sortOrder":0,"revision":12,"updatedAt":5,"createdAt":1,"deletedAt":5}
            """)
        #expect(tombstone.isDeleted && tombstone.id == "sb-1" && tombstone.shelfId.isEmpty)
    }

    @Test func rowsMissingWhatHasNoDefaultAreRefused() {
        #expect(throws: KRPCDecodingError.self) {
            try KRPCJSON.decode(ShelfSyncPayload.self, from: #"{"id":"s1","revision":7,"updatedAt":1,"createdAt":1}"#)
        }
        #expect(throws: KRPCDecodingError.self) {
            try KRPCJSON.decode(ShelfBookSyncPayload.self, from: #"{"id":"sb","shelfId":"s","bookId":"b","revision":1,"updatedAt":1,"createdAt":1}"#)
        }
        #expect(throws: KRPCDecodingError.self) {
            try KRPCJSON.decode(ShelfSyncPayload.self, from: #"{"id":"s1","name":42,"revision":7,"updatedAt":1,"createdAt":1}"#)
        }
    }

    @Test func serviceDTOsAndArgumentsMatchTheContract() throws {
        let found = try KRPCJSON.decode([DiscoveredShelfDTO].self, from: """
            [{"shelf":{"id":"s9","name":"Favourites","description":"","isPrivate":false,"bookCount":3,"updatedAt":4},
              "ownerId":"u2","ownerDisplayName":"Mara"}]
            """)
        #expect(found.first?.shelf.bookCount == 3 && found.first?.ownerDisplayName == "Mara")
        // Every parameter is sent, defaulted ones included (§0).
        let create = try KRPCJSON.encode(CreateShelfArguments(name: "A", description: "", isPrivate: false))
        #expect(create.contains("\"description\":\"\"") && create.contains("\"isPrivate\":false"), "\(create)")
        #expect(try KRPCJSON.encode(DiscoverShelvesArguments()) == #"{"limit":50}"#)
        #expect(AppErrorKind(wireType: "ShelfError.Forbidden") == .shelfForbidden)
        #expect(AppErrorKind.shelfNotFound.code == "SHELF_NOT_FOUND")
        #expect(KRPCMethod.all.contains(.discoverShelves) && KRPCServiceType.shelfService.mount == .authed)
    }
}
