import Foundation
import JSONToolkit
import ListenUpHeadless
import Testing

/// `JSONValue.jsonLine()` writes JSON itself; it must say what
/// `JSONEncoder` (sorted keys, slashes unescaped) says, byte for byte.
@Suite struct JSONLineTests {
    static func encoded(_ value: JSONValue) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static let values: [JSONValue] = [
        .null, true, false, 0, -1, 42, .number(1_787_401_000_123), .number(1.5), .number(0.1), .number(-2.75),
        .number(1e-7), .number(3.0e20), .number(1e15), .number(0.05 * 3),
        "", "plain", "quote \" backslash \\ slash / tab \t newline \n return \r", "\u{08}\u{0C}\u{01}\u{1F}\u{7F}",
        "Grüße, 日本語, emoji 🎧, combining e\u{301}",
        [], [1, "two", nil, [false]],
        [:], ["b": 1, "a": ["z": true, "y": nil], "B": "upper", "é": "accent", "a b": [], "10": 1, "9": 2],
        ["event": "player", "state": ["bookId": "book-1", "positionMs": 61_000, "rate": .number(1.25), "sleepRemainingMs": nil,
                                      "chapterTitle": "Chapter \"One\" / Part 1"]],
    ]

    @Test(arguments: values)
    func sameAsJSONEncoder(_ value: JSONValue) throws {
        #expect(value.jsonLine() == (try Self.encoded(value)))
    }

    @Test func readsBackAsTheSameValue() throws {
        for value in Self.values {
            let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(value.jsonLine().utf8))
            #expect(decoded == value)
        }
    }

    @Test func numbersJSONCannotCarryAreNull() {
        #expect(JSONValue.array([.number(.nan), .number(.infinity)]).jsonLine() == "[null,null]")
    }
}
