import Foundation
import JSONToolkit
import Testing
@testable import ListenUpAPI

/// The hand-written reader of `/sync/books` pages is a fast path: it must
/// read every page to exactly what `JSONDecoder` gives, and hand over (a
/// mismatch) whatever it cannot, never accepting a text `JSONDecoder` refuses.
@Suite("JSONReader fast path")
struct JSONReaderTests {
    /// The envelope as `JSONDecoder` alone reads it.
    private struct Envelope: Decodable {
        let v: Double
        let success: Bool
        let data: SyncBooksResponse?
    }

    /// What JSONDecoder makes of `text`, or nil when it refuses it.
    static func decoded(_ text: Data) -> SyncBooksResponse?? {
        guard let envelope = try? ListenUpJSON.decoder.decode(Envelope.self, from: text), envelope.v == 1, envelope.success else {
            return nil
        }
        return .some(envelope.data)
    }

    /// What the reader makes of `text`, or nil when it hands it over.
    static func read(_ text: Data) -> SyncBooksResponse?? {
        JSONReader.read(text) { reader throws(JSONReadError) in
            try reader.successEnvelope(SyncBooksResponse.self).flatMap { $0 as? SyncBooksResponse }
        }
    }

    /// Whatever the reader reads, `JSONDecoder` reads the same.
    static func expectAgreement(_ text: Data, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let fast = read(text) else { return }
        #expect(decoded(text) != nil, "read a text JSONDecoder refuses: \(String(decoding: text, as: UTF8.self))",
                sourceLocation: sourceLocation)
        if let slow = decoded(text) {
            #expect(fast == slow, "\(String(decoding: text, as: UTF8.self))", sourceLocation: sourceLocation)
        }
    }

    static func book(_ number: Int, full: Bool) -> SyncBook {
        let date = Date(timeIntervalSince1970: 1_700_000_000 + Double(number) * 3_600.123456)
        var book = SyncBook(
            createdAt: date, updatedAt: date, id: "book-\(number)", title: "Title \(number) — “quoted” \\ / \u{1} 🚀 漱石",
            path: "/audiobooks/\(number)",
            audioFiles: [AudioFile(id: "af-\(number)", path: "/a/\(number).m4b", filename: "\(number).m4b", format: "m4b",
                                   codec: full ? "aac" : nil, size: Int64.max, duration: -1, bitrate: full ? 64_000 : nil,
                                   inode: 0, modTime: 1_700_000_000_000)],
            totalDuration: 3_600_000, totalSize: 123,
            contributors: [BookContributor(contributorID: "c\(number)", name: "Ada", roles: ["author", "narrator"],
                                           creditedAs: full ? "A. L." : nil)])
        guard full else { return book }
        book.deletedAt = date
        book.scannedAt = date
        book.coverImage = CoverImage(path: "", filename: "cover.jpg", format: "image/jpeg", size: 12, inode: 3, modTime: 4,
                                     blurHash: "LEHV6nWB2yk8pyo0adR*.7kCMdnj")
        book.isbn = "9780000000000"
        book.subtitle = "A\nsubtitle\twith\rcontrols\u{8}\u{c}"
        book.description = "<p>Line one</p>\n<p>Line “two” &amp; three</p>" + String(repeating: "x", count: 1_500)
        book.publisher = "Pub"
        book.publishYear = "1999"
        book.language = "en"
        book.asin = "B000"
        book.audibleRegion = "us"
        book.genreIDs = ["g1", "g2"]
        book.series = [SeriesLink(seriesID: "s1", sequence: "1.5"), SeriesLink(seriesID: "s2")]
        book.chapters = (0..<30).map { Chapter(title: "Chapter \($0)", audioFileID: "af-\(number)", index: $0,
                                               startTime: Int64($0) * 1_000, endTime: Int64($0 + 1) * 1_000) }
        book.abridged = false
        book.author = "Ada"
        book.narrator = "Ada"
        book.seriesInfo = [SeriesInfo(seriesID: "s1", name: "Series", sequence: "1.5")]
        book.seriesName = "Series"
        book.genres = ["Fantasy"]
        book.tags = [Tag(id: "t1", slug: "favourite", bookCount: 3)]
        return book
    }

    static func page(_ books: [SyncBook], more: Bool = true) throws -> Data {
        try EnvelopeEncoder.success(SyncBooksResponse(nextCursor: more ? "NTAw" : nil, books: books,
                                                      deletedBookIDs: more ? nil : ["gone"], hasMore: more))
    }

    @Test func theContractFixtureReadsAsJSONDecoderReadsIt() throws {
        let text = try FixtureTests.fixture("sync_books_page1.json")
        let fast = try #require(Self.read(text), "the fixture takes the fast path")
        #expect(fast == Self.decoded(text))
        #expect(fast?.books.isEmpty == false)
    }

    @Test func generatedPagesRoundTrip() throws {
        let books = (0..<40).map { Self.book($0, full: $0 % 2 == 0) }
        for more in [true, false] {
            let text = try Self.page(books, more: more)
            let fast = try #require(Self.read(text))
            #expect(fast?.books == books)
            #expect(fast == Self.decoded(text))
        }
        // APIEnvelope.decode takes it and gives the same.
        let text = try Self.page(books)
        guard case .success(let page?) = try APIEnvelope.decode(text, as: SyncBooksResponse.self) else {
            Issue.record("not a success")
            return
        }
        #expect(page.books == books)
    }

    /// Variants the reader reads (whitespace, escapes, unknown keys, nulls)
    /// and variants it hands over; in both cases the result is JSONDecoder's.
    @Test(arguments: [
        // Read.
        (#"{"v":1,"success":true,"data":{"books":[],"has_more":false}}"#, true),
        (" \n{ \"v\" : 1 ,\t\"success\" : true , \"data\" : { \"books\" : [ ] , \"has_more\" : false , \"next_cursor\" : null } } \r\n", true),
        (#"{"success":true,"data":{"has_more":true,"books":[],"extra":{"a":[1,2.5,-3,{"b":null}],"c":"\u00e9\ud83d\ude80"}},"v":1}"#, true),
        (#"{"v":1,"success":true}"#, true),
        (#"{"v":1,"success":true,"data":null}"#, true),
        (#"{"v":1,"success":true,"data":{"books":[],"has_more":false,"x":-0}}"#, true),
        // Handed over, then read (or refused) by JSONDecoder.
        (#"{"v":1.0,"success":true,"data":{"books":[],"has_more":false}}"#, false),
        (#"{"v":1,"success":true,"data":{"books":[],"has_more":false,"has_more":true}}"#, false),
        (#"{"v":1,"success":true,"data":{"b\u006foks":[],"has_more":false}}"#, false),
        (#"{"v":1,"success":true,"data":{"books":[],"has_more":false,"x":1e5}}"#, false),
        (#"{"v":1,"success":true,"data":{"books":[],"has_more":false,"x":"\ud800"}}"#, false),
        (#"{"v":1,"success":true,"data":{"books":[],"has_more":false,}}"#, false),
        (#"{"v":1,"success":true,"data":{"books":[],"has_more":false}} x"#, false),
        (#"{"v":1,"success":true,"data":{"books":[],"has_more":"false"}}"#, false),
        (#"{"v":1,"success":true,"data":{"books":null,"has_more":false}}"#, false),
        (#"{"v":1,"success":true,"data":{"has_more":false}}"#, false),
        (#"{"v":1,"success":false,"error":"nope"}"#, false),
        (#"{"v":2,"success":true,"data":{"books":[],"has_more":false}}"#, false),
        (#"{"v":1,"success":true,"data":{"books":[],"has_more":false,"x":01}}"#, false),
        (#"{"v":1,"success":true,"data":{"books":[],"has_more":false,"x":"a"#, false),
    ])
    func variants(text: String, readsIt: Bool) {
        let data = Data(text.utf8)
        #expect((Self.read(data) != nil) == readsIt, "\(text)")
        Self.expectAgreement(data)
    }

    @Test func oddValuesInABookAreHandedOverOrReadTheSame() throws {
        let plain = String(decoding: try Self.page([Self.book(1, full: true)]), as: UTF8.self)
        // The encoder's key order changes from run to run (hashing): the
        // field to drop may be its object's last.
        let inode = plain.contains("\"inode\":3,") ? "\"inode\":3," : ",\"inode\":3"
        let swaps = [
            ("\"total_size\":123", "\"total_size\":123.0"), ("\"total_size\":123", "\"total_size\":1.23e2"),
            ("\"total_size\":123", "\"total_size\":null"), ("\"total_size\":123", "\"total_size\":\"123\""),
            ("\"total_size\":123", "\"total_size\":99999999999999999999"), ("\"index\":0", "\"index\":-0"),
            ("\"abridged\":false", "\"abridged\":null"), ("\"abridged\":false", "\"abridged\":0"),
            ("\"isbn\":\"9780000000000\"", "\"isbn\":null"), ("\"isbn\":\"9780000000000\"", "\"isbn\":978"),
            ("\"created_at\":\"", "\"created_at\":\"not a time"), ("\"scanned_at\":\"", "\"scanned_at\":null,\"x\":\""),
            ("\"roles\":[", "\"roles\":[null,"), ("\"chapters\":[", "\"chapters\":null,\"y\":["),
            ("\"title\":\"Title", "\"title\":\"\\u0054itle"), ("\"title\":\"Title", "\"title\":\"\\uD83D\\uDE80Title"),
            ("\"title\":\"Title", "\"title\":\"\\uDE80Title"), ("\"title\":\"Title", "\"title\":\"\\x41Title"),
            ("\"title\":\"Title", "\"title\":\"\u{1}Title"), ("\"cover_image\":{", "\"cover_image\":null,\"z\":{"),
            (inode, ""), ("\"genres\":[\"Fantasy\"]", "\"genres\":[]"), ("\"tags\":[", "\"tags\":[{},"),
        ]
        var readCount = 0
        for (old, new) in swaps {
            #expect(plain.contains(old), "\(old)")
            let text = Data(plain.replacingOccurrences(of: old, with: new).utf8)
            if Self.read(text) != nil { readCount += 1 }
            Self.expectAgreement(text)
        }
        #expect(readCount > 5, "the ordinary variants take the fast path")
        // Invalid UTF-8 inside a string is never read.
        var broken = Data(plain.utf8)
        if let range = broken.range(of: Data("Title".utf8)) { broken[range.lowerBound] = 0xC3 }
        #expect(Self.read(broken) == nil)
        Self.expectAgreement(broken)
    }

    /// Random one-byte edits of a page: whatever the reader still reads,
    /// JSONDecoder reads the same.
    @Test func mutatedPagesNeverDisagree() throws {
        let text = [UInt8](try Self.page([Self.book(1, full: true), Self.book(2, full: false)]))
        var random = SystemRandomNumberGenerator()
        let alphabet = Array(#"{}[]",:0123456789.-eE\tnulrfsa u"#.utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xFF]
        for _ in 0..<3_000 {
            var bytes = text
            let position = Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: bytes[position] = alphabet.randomElement(using: &random) ?? 0
            case 1: bytes.remove(at: position)
            default: bytes.insert(alphabet.randomElement(using: &random) ?? 0, at: position)
            }
            Self.expectAgreement(Data(bytes))
        }
    }
}
