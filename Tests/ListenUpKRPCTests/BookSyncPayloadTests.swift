import Testing
@testable import ListenUpKRPC

/// `BookSyncPayload` and its parts (§3.5): Kotlin defaults for omitted
/// fields, optional audio-file fields, and the series-sequence skew.
@Suite("BookSyncPayload")
struct BookSyncPayloadTests {
    static func fixtureBook() throws -> BookSyncPayload {
        let page = try AppResult<SyncPage>.decode(from: try AppResultTests.successData("call_success_pull_domain.json")).get()
        return try #require(try page.decodeItems(as: BookSyncPayload.self).first)
    }

    @Test func fixtureBookFields() throws {
        let book = try Self.fixtureBook()
        #expect(book.id == "<book-id>" && book.libraryId == "<library-id>" && book.folderId == "<folder-id>")
        #expect(book.sortTitle == nil && book.subtitle == nil && book.description == nil)
        #expect(book.publishYear == 2011 && book.language == "en" && book.isbn == nil)
        #expect(!book.abridged && !book.explicit)
        #expect(book.totalDuration == 73_380_000)
        #expect(book.cover == CoverPayload(source: .embedded, hash: "<sha>"))
        #expect(book.rootRelPath == "Expanse/01 Leviathan Wakes" && book.inode == nil && book.scannedAt == 1_787_300_000_000)
        #expect(book.contributors == [BookContributorPayload(id: "<c1>", name: "James S. A. Corey", role: .author)])
        #expect(book.series == [BookSeriesPayload(id: "<s1>", name: "The Expanse", sequence: 1)])
        #expect(book.audioFiles == [BookAudioFilePayload(id: "<f1>", index: 0, filename: "book.m4b", format: "m4b", codec: "aac",
                                                         duration: 73_380_000, size: 612_345_678, bitrate: 64000)])
        #expect(book.chapters == [BookChapterPayload(id: "<ch1>", title: "Prologue", duration: 1_200_000, startTime: 0)])
        #expect(book.revision == 120 && book.updatedAt == 1_787_300_000_000 && book.createdAt == 1_787_300_000_000)
        #expect(book.deletedAt == nil && !book.isDeleted)
    }

    @Test func omittedFieldsTakeKotlinDefaults() throws {
        let book = try Self.fixtureBook()
        #expect(!book.hasScanWarning)
        #expect(book.genres.isEmpty && book.documents.isEmpty)
        #expect(book.chapterSource == .embedded)
        #expect(book.fieldProvenance.isEmpty)
        #expect(book.normalizationGainDb == nil)
        let file = try #require(book.audioFiles.first)
        #expect(file.codecProfile == nil && file.spatial == nil && file.sampleRate == nil && file.channels == nil)
    }

    @Test func everyOptionalFieldWhenPresent() throws {
        let json = #"""
        {"id":"b","libraryId":"l","folderId":"f","title":"T","sortTitle":"T, The","subtitle":null,"description":null,
         "publishYear":null,"publisher":null,"language":null,"isbn":null,"asin":"B0","abridged":true,"explicit":false,
         "hasScanWarning":true,"totalDuration":1,"rootRelPath":"p","inode":42,"scannedAt":1,
         "contributors":[{"id":"c","name":"N","sortName":null,"role":"Narrator","creditedAs":"N. N."}],
         "series":[{"id":"s","name":"S","sequence":"1-3"}],"genres":[{"id":"g","name":"SF","slug":"sf","path":"/sf"}],
         "audioFiles":[{"id":"a","index":0,"filename":"a.m4b","format":"m4b","codec":"aac","duration":1,"size":2,
                        "codecProfile":"he","spatial":"atmos","bitrate":1,"sampleRate":44100,"channels":2}],
         "documents":[{"id":"d","index":0,"filename":"x.pdf","format":"pdf","size":3,"hash":"h"}],
         "chapters":[],"chapterSource":"USER","fieldProvenance":{"TITLE":{"kind":"USER","provider":"audible","at":5},"ASIN":{"kind":"SCAN"}},
         "normalizationGainDb":-3.5,"revision":2,"updatedAt":3,"createdAt":4,"deletedAt":5,"aFutureField":{"x":1}}
        """#
        let book = try KRPCJSON.decode(BookSyncPayload.self, from: json)
        #expect(book.cover == nil && book.hasScanWarning && book.inode == 42 && book.asin == "B0")
        #expect(book.contributors.first?.role == .narrator)
        #expect(book.series.first?.sequence == 1)
        #expect(book.genres == [BookGenrePayload(id: "g", name: "SF", slug: "sf", path: "/sf")])
        #expect(book.audioFiles.first?.spatial == "atmos" && book.audioFiles.first?.channels == 2)
        #expect(book.documents.first?.hash == "h")
        #expect(book.chapterSource == .user)
        #expect(book.fieldProvenance["TITLE"] == FieldProvenancePayload(kind: "USER", provider: "audible", at: 5))
        #expect(book.fieldProvenance["ASIN"] == FieldProvenancePayload(kind: "SCAN"))
        #expect(book.normalizationGainDb == -3.5)
        #expect(book.isDeleted)
    }

    @Test func missingRequiredFieldThrows() {
        #expect(throws: KRPCDecodingError.missingKey(path: "rootRelPath")) {
            try KRPCJSON.decode(BookSyncPayload.self, from: #"{"id":"b","libraryId":"l","folderId":"f","title":"T","abridged":false,"explicit":false,"totalDuration":1,"scannedAt":1,"contributors":[],"series":[],"audioFiles":[],"chapters":[],"revision":1,"updatedAt":1,"createdAt":1}"#)
        }
    }

    @Test func seriesSequenceAsNumberOrQuotedString() throws {
        let number = try KRPCJSON.decode(BookSeriesPayload.self, from: try Fixture.text("series_sequence_number.json"))
        let quoted = try KRPCJSON.decode(BookSeriesPayload.self, from: try Fixture.text("series_sequence_quoted.json"))
        #expect(number == BookSeriesPayload(id: "s1", name: "The Expanse", sequence: 1.5))
        #expect(quoted == number)
        #expect(try KRPCJSON.encode(quoted) == #"{"id":"s1","name":"The Expanse","sequence":1.5}"#)
        let none = try KRPCJSON.decode(BookSeriesPayload.self, from: #"{"id":"s1","name":"The Expanse","sequence":null}"#)
        #expect(none.sequence == nil)
        #expect(try KRPCJSON.encode(none).contains(#""sequence":null"#))
    }

    @Test(arguments: [
        ("1.5", 1.5), ("1-3", 1.0), ("1-6", 1.0), ("1 Parts 1-2", 1.0), ("06", 6.0), ("  2.25 ", 2.25), ("3.", 3.0),
    ] as [(String, Double)])
    func sequenceLabelsReadTheirLeadingNumber(_ label: String, _ expected: Double) {
        #expect(BookSeriesPayload.parseSequence(label) == expected)
    }

    @Test(arguments: ["Prequel", "", "   ", ".5", "-1", "Book 2"])
    func sequenceLabelsWithoutALeadingDigitReadAsNil(_ label: String) {
        #expect(BookSeriesPayload.parseSequence(label) == nil)
    }

    @Test func contributorRolesMatchCaseInsensitively() throws {
        #expect(ContributorRole(rawValue: "AUTHOR") == .author)
        #expect(try KRPCJSON.decode(ContributorRole.self, from: #""Translator""#) == .translator)
        #expect(ContributorRole(rawValue: "Dramatist").rawValue == "dramatist")
    }
}
