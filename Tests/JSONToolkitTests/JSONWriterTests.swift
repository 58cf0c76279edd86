import Foundation
import JSONToolkit
import Testing

/// The writer, the escaper and `JSONValue`: what they write, and that it
/// reads back (with the toolkit's reader and with Foundation's) to the same.
@Suite("JSONWriter, JSONEscaping and JSONValue")
struct JSONWriterTests {
    static let awkwardStrings = [
        "", "plain", "quote \" backslash \\ slash / tab \t newline \n return \r", "\u{08}\u{0C}\u{01}\u{1F}\u{7F}",
        "Grüße, 日本語, emoji 🎧, combining e\u{301}", String(repeating: "long ", count: 2_000) + "\u{0}",
    ]

    @Test func escapingIsWhatKotlinxAndJSONEncoderWrite() throws {
        #expect(JSONEscaping.quoted("a/b") == #""a/b""#)
        #expect(JSONEscaping.quoted("a/b", escapingSlash: true) == #""a\/b""#)
        #expect(JSONEscaping.quoted("é 🎧") == "\"é 🎧\"")
        #expect(JSONEscaping.quoted("\"\\\n\r\t\u{08}\u{0C}\u{1F}\u{0}") == #""\"\\\n\r\t\b\f\u001f\u0000""#)
        #expect(JSONEscaping.quoted(Array("x\"y".utf8)) == Array(#""x\"y""#.utf8))
        let encoder = JSONEncoder()
        for text in Self.awkwardStrings {
            // JSONEncoder's default escapes `/`; both forms read back to the text.
            #expect(JSONEscaping.quoted(text, escapingSlash: true) == String(decoding: try encoder.encode(text), as: UTF8.self))
            #expect(try JSONDecoder().decode(String.self, from: Data(JSONEscaping.quoted(text).utf8)) == text)
            #expect(JSONReader.read(JSONEscaping.quoted(text)) { reader throws(JSONReadError) in try reader.string() } == text)
            var bytes = Array("[".utf8)
            JSONEscaping.append(text, to: &bytes)
            #expect(bytes == Array("[".utf8) + Array(JSONEscaping.quoted(text).utf8))
            var slashed: [UInt8] = []
            JSONEscaping.append(text, escapingSlash: true, to: &slashed)
            #expect(slashed == Array(JSONEscaping.quoted(text, escapingSlash: true).utf8))
        }
    }

    @Test func writerPlacesCommasAndClosesWhatIsOpen() {
        var writer = JSONWriter.object()
        writer.string("type", "Call/Success")
        writer.string("absent", nil as String?)
        writer.stringIfPresent("skipped", nil)
        writer.integer("n", -3)
        writer.integer("none", nil as Int64?)
        writer.integerIfPresent("also", 4)
        writer.bool("yes", true)
        writer.boolIfTrue("off", false)
        writer.raw("raw", "[1,2]")
        writer.key("list")
        writer.array([1.5, 2, .nan]) { writer, number in writer.number(number) }
        writer.key("nested")
        writer.beginObject()
        writer.key("empty")
        writer.beginArray()
        #expect(writer.finished() == #"{"type":"Call/Success","absent":null,"n":-3,"none":null,"also":4,"yes":true,"raw":[1,2],"list":[1.5,2,null],"nested":{"empty":[]}}"#)
        #expect(JSONWriter.strings(["a", "b\""]) == #"["a","b\""]"#)
        var slashes = JSONWriter(escapingSlash: true)
        slashes.string("a/b")
        #expect(slashes.finished() == #""a\/b""#)
    }

    static let values: [JSONValue] = [
        .null, true, false, 0, -1, 42, .number(1_787_401_000_123), .number(1.5), .number(0.1), .number(-2.75), .number(1e-7),
        .number(3.0e20), .number(1e15), .number(0.05 * 3), .integer(.max), .integer(.min),
        "", "plain", "quote \" backslash \\ slash / tab \t newline \n return \r", "\u{08}\u{0C}\u{01}\u{1F}\u{7F}",
        "Grüße, 日本語, emoji 🎧, combining e\u{301}",
        [], [1, "two", nil, [false]],
        [:], ["b": 1, "a": ["z": true, "y": nil], "B": "upper", "é": "accent", "a b": [], "10": 1, "9": 2],
    ]

    @Test(arguments: values)
    func jsonLineIsJSONEncodersSortedOutput(_ value: JSONValue) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(value.jsonLine() == String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    @Test(arguments: values)
    func valuesReadBackTheSame(_ value: JSONValue) throws {
        #expect(try JSONValue(parsing: value.jsonLine()) == value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(value.jsonLine().utf8)) == value)
    }

    @Test func numbersCompareAcrossTheirTwoForms() {
        #expect(JSONValue.integer(3) == .double(3))
        #expect(JSONValue.double(3.5) != .integer(3))
        #expect(Set<JSONValue>([.integer(3), .double(3)]).count == 1)
        #expect(JSONValue.number(2.0) == .integer(2))
        #expect(JSONValue.double(2.5).int64Value == nil)
        #expect(JSONValue.double(4).intValue == 4)
        #expect(JSONValue.integer(7).doubleValue == 7)
        #expect(JSONValue.array([.number(.nan), .number(.infinity)]).jsonLine() == "[null,null]")
    }

    @Test func accessors() throws {
        let value = try JSONValue(parsing: #"{"a":[1,"x",true,null,{"k":2.5}],"s":"t"}"#)
        #expect(value["s"]?.stringValue == "t")
        #expect(value["a"]?[1]?.stringValue == "x")
        #expect(value["a"]?[2]?.boolValue == true)
        #expect(value["a"]?[3]?.isNull == true)
        #expect(value["a"]?[4]?["k"]?.doubleValue == 2.5)
        #expect(value["a"]?[9] == nil)
        #expect(value["a"]?.arrayValue?.count == 5)
        #expect(value.objectValue?.keys.sorted() == ["a", "s"])
        #expect(JSONValue.optional(nil) == .null)
    }
}
