import Foundation
import ListenUpKRPC
import Testing

/// `ContributorSyncPayload` and `SeriesSyncPayload` (§3.5) as the server
/// writes them: defaults omitted (`encodeDefaults = false`), nullable
/// fields without a default written as `null`.
@Suite("Browse payloads")
struct BrowsePayloadTests {
    @Test func aContributorWithEveryDefaultOmittedDecodesToTheDefaults() throws {
        let json = #"{"id":"c1","name":"Ursula K. Le Guin","sortName":null,"revision":7,"updatedAt":1787300000001,"#
            + #""createdAt":1787300000000,"deletedAt":null}"#
        let person = try KRPCJSON.decode(ContributorSyncPayload.self, from: json)
        #expect(person == ContributorSyncPayload(id: "c1", name: "Ursula K. Le Guin", sortName: nil, revision: 7,
                                                 updatedAt: 1_787_300_000_001, createdAt: 1_787_300_000_000))
        #expect(person.aliases.isEmpty && person.description == nil && person.imagePath == nil && !person.isDeleted)
    }

    @Test func aContributorWithEveryFieldKeepsThem() throws {
        let json = #"{"id":"c1","name":"Ursula K. Le Guin","sortName":"Le Guin, Ursula K.","revision":7,"updatedAt":2,"createdAt":1,"#
            + #""deletedAt":3,"asin":"B000AQ0A7Y","description":"<p>Author of <i>Earthsea</i>.</p>","imagePath":"contributors/c1/ab12.jpg","#
            + #""birthDate":"1929-10-21","deathDate":"2018-01-22","website":"https://www.ursulakleguin.com","aliases":["U. K. Le Guin"]}"#
        let person = try KRPCJSON.decode(ContributorSyncPayload.self, from: json)
        #expect(person == ContributorSyncPayload(id: "c1", name: "Ursula K. Le Guin", sortName: "Le Guin, Ursula K.", revision: 7,
                                                 updatedAt: 2, createdAt: 1, deletedAt: 3, asin: "B000AQ0A7Y",
                                                 description: "<p>Author of <i>Earthsea</i>.</p>", imagePath: "contributors/c1/ab12.jpg",
                                                 birthDate: "1929-10-21", deathDate: "2018-01-22", website: "https://www.ursulakleguin.com",
                                                 aliases: ["U. K. Le Guin"]))
        #expect(person.isDeleted)
    }

    @Test func aSeriesWithDefaultsOmittedAndWithEveryField() throws {
        let bare = try KRPCJSON.decode(SeriesSyncPayload.self, from:
            #"{"id":"s1","name":"The Expanse","sortName":null,"revision":4,"updatedAt":2,"createdAt":1,"deletedAt":null}"#)
        #expect(bare == SeriesSyncPayload(id: "s1", name: "The Expanse", sortName: nil, revision: 4, updatedAt: 2, createdAt: 1))
        let full = try KRPCJSON.decode(SeriesSyncPayload.self, from:
            #"{"id":"s1","name":"The Expanse","sortName":"Expanse, The","revision":4,"updatedAt":2,"createdAt":1,"deletedAt":9,"#
            + #""asin":"B07","description":"Nine books.","coverPath":"series/s1/cd34.jpg","futureField":{"x":1}}"#)
        #expect(full == SeriesSyncPayload(id: "s1", name: "The Expanse", sortName: "Expanse, The", revision: 4, updatedAt: 2,
                                          createdAt: 1, deletedAt: 9, asin: "B07", description: "Nine books.",
                                          coverPath: "series/s1/cd34.jpg"))
        #expect(full.isDeleted && !bare.isDeleted)
    }

    @Test(arguments: ["id", "name", "revision", "updatedAt", "createdAt"])
    func aRowWithoutARequiredKeyDoesNotDecode(_ key: String) throws {
        var object: [String: Any] = ["id": "x", "name": "X", "sortName": NSNull(), "revision": 1, "updatedAt": 2, "createdAt": 1,
                                     "deletedAt": NSNull()]
        object[key] = nil
        let json = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        #expect(throws: KRPCDecodingError.self) { try KRPCJSON.decode(ContributorSyncPayload.self, from: json) }
        #expect(throws: KRPCDecodingError.self) { try KRPCJSON.decode(SeriesSyncPayload.self, from: json) }
    }
}
