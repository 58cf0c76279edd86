import Foundation
import Testing
@testable import ListenUpCore

@Suite("Library search and sort")
struct LibraryIndexTests {
    static func book(_ id: String, _ title: String, authors: String = "", narrators: String = "", series: String = "",
                     duration: Int64 = 0, added: TimeInterval = 0) -> CachedBook {
        CachedBook(id: id, title: title, authors: authors, narrators: narrators, series: series, duration: duration,
                   createdAt: Date(timeIntervalSince1970: added), updatedAt: Date(timeIntervalSince1970: 0))
    }

    static let library = LibraryIndex([
        book("1", "Éowyn's Ride", authors: "J. R. R. Tolkien", narrators: "Andy Serkis", series: "Middle-earth #3", duration: 500, added: 30),
        book("2", "the dispossessed", authors: "Ursula K. Le Guin", narrators: "Don Leslie", duration: 300, added: 10),
        book("3", "吾輩は猫である", authors: "夏目漱石", duration: 100, added: 20),
        book("4", "ألف ليلة وليلة", authors: "مجهول", series: "الليالي #1", duration: 900, added: 40),
        book("5", "Rocket 🚀 Science", authors: "", narrators: "Ｗｉｄｅ Ｎａｒｒａｔｏｒ", duration: 300, added: 50),
        book("6", String(repeating: "Very long title ", count: 2_000) + "ending here", authors: "Zed", duration: 1, added: 60),
        book("7", "Anathem", authors: "Neal Stephenson", duration: 700, added: 70),
    ])

    func titles(_ query: String, sort: LibrarySort = .title) -> [String] {
        let index = Self.library
        return index.filter(index.order(by: sort), query: query).map { index.entries[$0].book.id }
    }

    @Test func emptyQueryMatchesEverything() {
        #expect(titles("").count == 7)
        #expect(titles("   ").count == 7)
    }

    @Test(arguments: [
        ("eowyn", ["1"]), ("ÉOWYN", ["1"]), ("tolkien", ["1"]), ("serkis", ["1"]), ("middle-earth", ["1"]),
        ("le guin dispossessed", ["2"]), ("guin ursula", ["2"]), ("DISPOSSESSED", ["2"]),
        ("猫", ["3"]), ("漱石", ["3"]), ("ليلة", ["4"]), ("الليالي", ["4"]), ("🚀", ["5"]),
        ("wide narrator", ["5"]), ("ｗｉｄｅ", ["5"]), ("ending here", ["6"]), ("stephenson", ["7"]),
        ("nothing like this", []), ("tolkien guin", []),
    ])
    func searchFindsTitleAuthorNarratorSeries(query: String, expected: [String]) {
        #expect(titles(query).sorted() == expected, "\(query)")
    }

    @Test func sortsAreStableAndComplete() {
        let index = Self.library
        func ids(_ sort: LibrarySort) -> [String] { index.order(by: sort).map { index.entries[$0].book.id } }
        // Case and accents do not decide the order: "the dispossessed" sits
        // under t, "Éowyn" under e.
        #expect(ids(.title) == ["7", "1", "5", "2", "6", "4", "3"])
        // Books without an author go last.
        #expect(ids(.author).last == "5")
        #expect(Array(ids(.author).prefix(4)) == ["1", "7", "2", "6"])
        #expect(ids(.recentlyAdded) == ["7", "6", "5", "4", "1", "3", "2"])
        // Equal durations fall back to the title.
        #expect(ids(.duration) == ["6", "3", "5", "2", "1", "7", "4"])
        for sort in LibrarySort.allCases { #expect(Set(ids(sort)).count == 7) }
    }

    @Test func searchKeepsTheSortOrder() {
        #expect(titles("e", sort: .recentlyAdded) == ["7", "6", "5", "1", "2"].filter { titles("e").contains($0) })
    }

    @Test func foldingHandlesCombiningMarksAndWidth() {
        #expect(SearchKey.fold("E\u{301}owyn") == SearchKey.fold("Éowyn"))
        #expect(SearchKey.fold("ＡＢＣ") == "abc")
        #expect(SearchKey.fold("  many   spaces\there ") == "many spaces here")
    }

    @Test func byteSearchFindsEveryPosition() {
        let haystack = Array("abcabd".utf8)
        #expect(haystack.containsBytes(Array("abd".utf8)))
        #expect(haystack.containsBytes(Array("a".utf8)))
        #expect(haystack.containsBytes(Array("d".utf8)))
        #expect(!haystack.containsBytes(Array("abe".utf8)))
        #expect(!haystack.containsBytes(Array("abcabdx".utf8)))
        #expect([UInt8]().containsBytes([]))
    }

    /// The sorts compare keys with memcmp: the same order as
    /// `lexicographicallyPrecedes` over the bytes, prefixes and bytes above
    /// 0x7F (UTF-8 beyond ASCII) included.
    @Test func byteComparisonOrdersAsLexicographicallyPrecedes() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = [0x00, 0x20, 0x61, 0x62, 0x7A, 0x80, 0xC3, 0xFF]
        let keys: [ArraySlice<UInt8>] = (0..<150).map { _ in
            let bytes = (0..<Int.random(in: 0...5, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? 0 }
            // Slices that do not start at 0, as the title and author keys.
            return ([0x61] + bytes)[1...]
        }
        for x in keys {
            for y in keys.prefix(50) {
                let compared = ByteSearch.compare(x, y)
                #expect((compared < 0) == x.lexicographicallyPrecedes(y), "\(Array(x)) vs \(Array(y))")
                #expect((compared == 0) == (x == y))
            }
        }
    }
}

@Suite("Plain text from descriptions")
struct PlainTextTests {
    @Test func tagsGoEntitiesDecodeBlocksBreak() {
        let html = "<p>First &amp; <b>bold</b>.</p><p>Second&nbsp;line<br>third &#8212; &#x2014; &lt;tag&gt;</p>"
        #expect(PlainText.fromHTML(html) == "First & bold.\n\nSecond line\nthird — — <tag>")
    }

    @Test func scriptsStylesAndControlCharactersNeverShow() {
        let html = "<script>alert('x')</script><style>p{}</style>Safe<img src=x onerror=alert(1)> text &#0; &#7; &#x9f;\u{7}"
        #expect(PlainText.fromHTML(html) == "Safe text &#0; &#7; &#x9f;")
    }

    @Test func brokenMarkupAndPlainTextSurvive() {
        #expect(PlainText.fromHTML("Plain text, no tags.") == "Plain text, no tags.")
        #expect(PlainText.fromHTML("Unclosed <b tag and more") == "Unclosed <b tag and more")
        #expect(PlainText.fromHTML("<ul><li>One</li><li>Two</li></ul>") == "• One\n\n• Two")
        #expect(PlainText.fromHTML("a &unknown; b") == "a &unknown; b")
        #expect(PlainText.fromHTML("") == "")
    }

    @Test func hugeDescriptionsAreCut() {
        let text = PlainText.fromHTML(String(repeating: "<p>word</p>", count: 100_000), maxLength: 1_000)
        #expect(text.count == 1_001)
        #expect(text.hasSuffix("…"))
    }
}
