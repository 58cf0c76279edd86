import Foundation
import ListenUpAPI
import Testing
@testable import ListenUpCore

/// The details JSON a sync stores is written by hand: it must be the bytes
/// `JSONEncoder` with `.sortedKeys` writes, or every cached row would look
/// changed to the next sync (and caches written before would never match).
@Suite("Book details JSON")
struct BookDetailsJSONTests {
    static func encoded(_ details: BookDetails) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(details)
    }

    /// Every control character, the characters JSON escapes, `/`, DEL,
    /// the line separators, accents, CJK, right-to-left text and emoji.
    static let awkward: String = {
        var text = ""
        for value in 0..<0x20 { text.unicodeScalars.append(Unicode.Scalar(UInt8(value))) }
        return text + "\"\\/\u{7F}\u{2028}\u{2029}<p>Éowyn & “quotes” — 吾輩は猫である ألف ليلة 🚀👩‍👩‍👧</p>\u{FEFF}"
    }()

    @Test func matchesJSONEncoderForEmptyAndFullDetails() throws {
        var full = BookDetails()
        full.subtitle = Self.awkward
        full.description = "<p>A description</p>\n<p>with \"quotes\", a tab\tand a / slash</p>"
        full.publisher = "Salt & Paper"
        full.publishYear = "1999"
        full.contributors = [.init(name: "Ada", roles: ["author", "narrator"]), .init(name: Self.awkward, roles: [])]
        full.chapters = [.init(title: "Chapter 1", start: 0, duration: 60_000), .init(title: Self.awkward, start: Int64.max, duration: Int64.min)]
        full.audioFiles = [.init(id: "af-1", duration: 1, size: 2, format: "m4b"), .init(id: "", duration: -1, size: 0, format: Self.awkward)]
        var noFiles = full
        noFiles.audioFiles = []
        var onlySome = BookDetails()
        onlySome.publishYear = ""
        onlySome.description = ""
        for details in [BookDetails(), full, noFiles, onlySome] {
            #expect(details.sortedKeysJSON == (try Self.encoded(details)),
                    "\(String(decoding: details.sortedKeysJSON, as: UTF8.self))")
            #expect(try JSONDecoder().decode(BookDetails.self, from: details.sortedKeysJSON) == details)
        }
    }

    @Test func matchesJSONEncoderForGeneratedBooks() throws {
        var random = SystemRandomNumberGenerator()
        let pieces = ["a", "Z", " ", "é", "\n", "\"", "\\", "/", "\u{1}", "\u{1F}", "😀", "漱", "—", "<", "&", "\u{7F}"]
        func text() -> String {
            (0..<Int.random(in: 0...40, using: &random)).map { _ in pieces.randomElement(using: &random) ?? "" }.joined()
        }
        for _ in 0..<200 {
            var details = BookDetails()
            if Bool.random(using: &random) { details.subtitle = text() }
            if Bool.random(using: &random) { details.description = text() }
            if Bool.random(using: &random) { details.publisher = text() }
            if Bool.random(using: &random) { details.publishYear = text() }
            details.contributors = (0..<Int.random(in: 0...4, using: &random)).map { _ in .init(name: text(), roles: [text(), text()]) }
            details.chapters = (0..<Int.random(in: 0...8, using: &random)).map { _ in
                .init(title: text(), start: Int64.random(in: -5...Int64.max, using: &random), duration: Int64.random(in: 0...1_000_000))
            }
            if Bool.random(using: &random) {
                details.audioFiles = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                    .init(id: text(), duration: .random(in: 0...9_999_999), size: .random(in: 0...Int64.max), format: text())
                }
            }
            #expect(details.sortedKeysJSON == (try Self.encoded(details)))
        }
    }

    @Test func aStoredBookIsTheSameRowEitherWay() {
        var book = ServerBook(id: "b1", title: "The Title", createdAt: Date(timeIntervalSince1970: 1_000),
                              updatedAt: Date(timeIntervalSince1970: 2_000),
                              contributors: [ServerBook.Contributor(id: "c1", name: "Ada", roles: ["author", "narrator"])],
                              totalDuration: 5_000, totalSize: 9)
        book.series = [ServerBook.SeriesPlace(id: "s1", name: "Cycle", sequence: "2")]
        book.description = Self.awkward
        book.chapters = [ServerBook.Chapter(title: "One", audioFileID: "af", startTime: 0, endTime: 5_000)]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(CachedBook(sortingKeys: book) == CachedBook(book, encoder: encoder))
    }
}

/// Plain ASCII is folded byte by byte: exactly as Foundation folds it.
@Suite("Search key fold, plain ASCII")
struct SearchKeyASCIITests {
    static func foundation(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .lowercased()
            .precomposedStringWithCanonicalMapping
            .split(whereSeparator: { $0.isWhitespace && $0 != "\n" }).joined(separator: " ")
    }

    @Test func everyCharacterAndPairFoldsAsFoundationFoldsIt() {
        let characters = (0x20...0x7E).map { String(UnicodeScalar(UInt8($0))) } + ["\n"]
        for first in characters {
            #expect(SearchKey.foldPlainASCII(first) == Self.foundation(first), "\(first.debugDescription)")
            for second in characters {
                let text = first + second
                #expect(SearchKey.foldPlainASCII(text) == Self.foundation(text), "\(text.debugDescription)")
            }
        }
    }

    @Test func generatedTextFoldsAsFoundationFoldsIt() {
        var random = SystemRandomNumberGenerator()
        let pieces = ["A", "z", "Q", " ", "  ", "\n", "^", "`", "~", "'", "-", "0", "9", "The", "MIDDLE", "#3", ",", "."]
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...30, using: &random)).map { _ in pieces.randomElement(using: &random) ?? "" }.joined()
            #expect(SearchKey.fold(text) == Self.foundation(text), "\(text.debugDescription)")
        }
    }

    @Test func otherTextIsLeftToFoundation() {
        for text in ["Éowyn", "tab\there", "cr\r\nlf", "ＡＢＣ", "\u{7F}", "漱石", "a\u{0B}b"] {
            #expect(SearchKey.foldPlainASCII(text) == nil)
            #expect(SearchKey.fold(text) == Self.foundation(text))
        }
    }
}
