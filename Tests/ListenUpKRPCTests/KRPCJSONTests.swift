import Foundation
import JSONToolkit
import Testing
@testable import ListenUpKRPC

/// The JSON plumbing: generic values, the bare-key leniency of §2.9(c) and
/// the hand-written object writer.
@Suite("KRPCJSON")
struct KRPCJSONTests {
    @Test func jsonValueKeepsKinds() throws {
        let value = try KRPCJSON.decode(JSONValue.self, from: #"{"b":true,"i":1787401000123,"d":1.25,"s":"x","n":null,"a":[1,false],"o":{}}"#)
        #expect(value == .object(["b": .bool(true), "i": .integer(1_787_401_000_123), "d": .double(1.25), "s": .string("x"),
                                  "n": .null, "a": .array([.integer(1), .bool(false)]), "o": .object([:])]))
        #expect(value["i"]?.intValue == 1_787_401_000_123)
        #expect(value["d"]?.intValue == nil && value["d"]?.doubleValue == 1.25)
        #expect(value["b"]?.intValue == nil)
        #expect(try KRPCJSON.decode(JSONValue.self, from: try KRPCJSON.encode(value)) == value)
    }

    @Test func bareNumericKeysAreQuoted() throws {
        let value = try KRPCJSON.decode(JSONValue.self, from: #"{ -1 : "a", "s":"{2:\"x\", 3:", 4:[5, 6], "o":{7:{}}}"#)
        #expect(value == .object(["-1": .string("a"), "s": .string(#"{2:"x", 3:"#), "4": .array([.integer(5), .integer(6)]),
                                  "o": .object(["7": .object([:])])]))
        #expect(LenientJSONKeys.quotingBareNumericKeys(in: Data(#"{"a":[1,2]}"#.utf8)) == nil)
        #expect(throws: KRPCDecodingError.notJSON) { try KRPCJSON.decode(JSONValue.self, from: "{a:1}") }
    }

    @Test func writerEscapesOnlyWhatJSONNeeds() {
        #expect(JSONWriter.quoted("a/b") == #""a/b""#)
        #expect(JSONWriter.quoted("é 🎧") == "\"é 🎧\"")
        #expect(JSONWriter.quoted("\"\\\n\r\t\u{08}\u{0C}\u{1F}") == #""\"\\\n\r\t\b\f\u001f""#)
        var writer = JSONWriter.object()
        writer.string("type", "T")
        writer.integerIfPresent("skipped", nil)
        writer.string("n", nil)
        writer.integer("i", -3)
        #expect(writer.finished() == #"{"type":"T","n":null,"i":-3}"#)
    }

    @Test func encoderDoesNotEscapeSlashes() throws {
        #expect(try KRPCJSON.encode(["u": "/api/v1/audio/b"]) == #"{"u":"/api/v1/audio/b"}"#)
    }
}
