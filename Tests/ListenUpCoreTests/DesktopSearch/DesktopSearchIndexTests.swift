import Foundation
import ListenUpAPI
@testable import ListenUpCore
import Testing

/// What GNOME Shell's search finds in the cached library, in which order,
/// and what it shows for each result.
@Suite("Desktop search index")
struct DesktopSearchIndexTests {
    let store = InMemoryLibraryStore()
    let index: DesktopSearchIndex

    init() throws {
        try store.apply(BrowseStoreTests.library, deleting: [], state: LibrarySyncState())
        index = try DesktopSearchIndexTests.index(of: store)
    }

    static func index(of store: InMemoryLibraryStore) throws -> DesktopSearchIndex {
        DesktopSearchIndex(library: LibraryIndex(try store.books()), series: try store.browseItems(.series),
                           authors: try store.browseItems(.authors), narrators: try store.browseItems(.narrators))
    }

    func ids(_ results: [DesktopSearchResult]) -> [String] { results.map(\.identifier) }

    @Test func identifiersNameTheKindAndTheID() {
        #expect(DesktopSearchResult(.book, id: "b1").identifier == "book:b1")
        #expect(DesktopSearchResult(identifier: "series:a:b") == DesktopSearchResult(.series, id: "a:b"), "only the first colon separates")
        #expect(DesktopSearchResult(identifier: "person:p1")?.kind == .person)
        for invalid in ["", "b1", "album:x", "book:", ":b1"] { #expect(DesktopSearchResult(identifier: invalid) == nil, "\(invalid)") }
    }

    @Test func titlesComeFirstThenSeriesThenPeopleThenBooksFoundByTheirPeopleOrSeries() {
        #expect(ids(index.results(for: ["tow"])) == ["book:b2"])
        #expect(ids(index.results(for: ["dune"])) == ["book:b5", "series:dune"], "the title, then the series of that name")
        #expect(ids(index.results(for: ["lord", "RINGS"])) == ["series:lotr", "book:b4", "book:b1", "book:b3", "book:b2"],
                "the series, then its books in title order")
        #expect(ids(index.results(for: ["serkis"])) == ["person:serkis", "book:b5", "book:b1", "book:b2"])
        #expect(ids(index.results(for: ["tolkien", "realm"])) == ["book:b4"], "every word must match")
        #expect(index.results(for: ["zzyzx"]).isEmpty)
        #expect(index.results(for: []).isEmpty && index.results(for: ["  "]).isEmpty, "nothing typed finds nothing")
    }

    @Test func aSubsearchNarrowsThePreviousResultsInTheirOrder() {
        let first = ids(index.results(for: ["the"]))
        #expect(first.count > 3)
        #expect(ids(index.results(for: ["the", "two"], within: first)) == ["book:b2"])
        #expect(ids(index.results(for: ["tolkien"], within: ["person:tolkien", "book:b5", "book:gone", "nonsense", "book:b3"]))
                == ["person:tolkien", "book:b3"], "unknown, gone and unmatched results drop out")
    }

    @Test func atMostTheLimitIsReturnedAndAFullListIsSearchedAgain() throws {
        let many = InMemoryLibraryStore()
        let count = DesktopSearchIndex.limit + 20
        try many.apply((0..<count).map { BrowseStoreTests.book(String(format: "m%03d", $0), "Book \($0)") }, deleting: [],
                       state: LibrarySyncState())
        let big = try Self.index(of: many)
        let first = big.results(for: ["book"])
        #expect(first.count == DesktopSearchIndex.limit)
        // Titles in byte order: "Book 95" is past the first hundred.
        let left = DesktopSearchResult(.book, id: "m095")
        #expect(!first.contains(left))
        let narrowed = big.results(for: ["book", "95"], within: first.map(\.identifier))
        #expect(narrowed == [left], "searched anew, not only among the first results")
        let partial = Array(first.prefix(10)).map(\.identifier)
        #expect(big.results(for: ["book", "95"], within: partial).isEmpty, "a list under the limit is only narrowed")
    }

    @Test func metasGiveTheNameALineAndTheCoverBook() throws {
        let cached = try #require(try store.book(id: "b2"))
        let book = try #require(index.meta(for: DesktopSearchResult(.book, id: "b2")))
        #expect(book.name == "The Two Towers")
        #expect(book.description == "J. R. R. Tolkien · \(DurationText.short(cached.duration))")
        #expect(book.coverBookID == (cached.hasCover ? "b2" : nil))

        let series = try #require(index.meta(for: DesktopSearchResult(.series, id: "lotr")))
        #expect(series.name == "The Lord of the Rings")
        #expect(series.description == "Series · 4 books")
        #expect(series.coverBookID == nil)

        #expect(index.meta(for: DesktopSearchResult(.person, id: "herbert"))?.description == "Author · 1 book")
        #expect(index.meta(for: DesktopSearchResult(.person, id: "serkis"))?.description == "Narrator · 3 books")
        #expect(index.isAuthorAndNarrator("tolkien") && !index.isAuthorAndNarrator("serkis"))
        #expect(index.meta(for: DesktopSearchResult(.person, id: "tolkien"), personBookCount: 4)?.description == "Author and narrator · 4 books")
        #expect(index.meta(for: DesktopSearchResult(.book, id: "gone")) == nil)
    }

    @Test func aBookWithoutAnAuthorOrALengthShowsWhatItHas() throws {
        let bare = InMemoryLibraryStore()
        var book = BrowseStoreTests.book("x", "Anonymous")
        book.totalDuration = 0
        try bare.apply([book], deleting: [], state: LibrarySyncState())
        #expect(try Self.index(of: bare).meta(for: DesktopSearchResult(.book, id: "x"))?.description == "")
    }

    @Test func lengthsAreWrittenInHoursAndMinutes() {
        #expect(DurationText.short(0) == "")
        #expect(DurationText.short(10_000) == "1 min")
        #expect(DurationText.short(45 * 60_000) == "45 min")
        #expect(DurationText.short(3 * 3_600_000) == "3 h")
        #expect(DurationText.short((12 * 60 + 5) * 60_000) == "12 h 5 min")
    }
}
