import Foundation
import JSONToolkit
import Testing

/// The reader on its own: numbers, strings, structure, and the error (reason
/// and byte offset) for each kind of malformed text.
@Suite("JSONReader")
struct JSONReaderTests {
    /// `text` read with `body`, or the error.
    static func parse<Value>(_ text: String, _ body: (inout JSONReader) throws(JSONReadError) -> Value) -> Result<Value, JSONReadError> {
        do throws(JSONReadError) {
            return .success(try JSONReader.parse(Data(text.utf8), body))
        } catch {
            return .failure(error)
        }
    }

    static func error<Value>(_ text: String, _ body: (inout JSONReader) throws(JSONReadError) -> Value) -> JSONReadError? {
        if case .failure(let error) = parse(text, body) { return error }
        return nil
    }

    // MARK: Numbers

    @Test(arguments: [("0", 0), ("-1", -1), ("  42 ", 42), ("9223372036854775807", Int64.max), ("-9223372036854775808", Int64.min)])
    func integers(_ text: String, _ expected: Int64) throws {
        #expect(try Self.parse(text) { reader throws(JSONReadError) in try reader.int64() }.get() == expected)
    }

    @Test func integersRefuseWhatIsNotAnExactInt64() {
        func reason(_ text: String) -> JSONReadError.Reason? { Self.error(text) { reader throws(JSONReadError) in try reader.int64() }?.reason }
        #expect(reason("9223372036854775808") == .numberOutOfRange)
        #expect(reason("-9223372036854775809") == .numberOutOfRange)
        #expect(reason("1.5") == .unsupported)
        #expect(reason("1e3") == .unsupported)
        #expect(reason("-0") == .unsupported)
        #expect(reason("01") == .invalidNumber)
        #expect(reason("-") == .unexpectedEnd)
        #expect(reason("-x") == .invalidNumber)
        #expect(reason("\"1\"") == .wrongType)
        #expect(reason("1 2") == .trailingText)
    }

    @Test func decimalsAndAnyNumber() throws {
        #expect(try Self.parse("-2.75") { reader throws(JSONReadError) in try reader.double() }.get() == -2.75)
        #expect(try Self.parse("0.1") { reader throws(JSONReadError) in try reader.double() }.get() == 0.1)
        #expect(Self.error("1e2") { reader throws(JSONReadError) in try reader.double() }?.reason == .unsupported)
        #expect(Self.error("1.") { reader throws(JSONReadError) in try reader.double() } == JSONReadError(.invalidNumber, at: 2))
        #expect(Self.error(".5") { reader throws(JSONReadError) in try reader.double() }?.reason == .unexpectedCharacter)
        // `number()` takes exponents; whole numbers stay integers.
        #expect(try Self.parse("12") { reader throws(JSONReadError) in try reader.number() }.get() == .integer(12))
        #expect(try Self.parse("1.5E+2") { reader throws(JSONReadError) in try reader.number() }.get() == .double(150))
        #expect(try Self.parse("-2e-3") { reader throws(JSONReadError) in try reader.number() }.get() == .double(-0.002))
        #expect(Self.error("1e400") { reader throws(JSONReadError) in try reader.number() } == JSONReadError(.numberOutOfRange, at: 0))
    }

    // MARK: Strings

    @Test func escapesUnicodeAndSurrogatePairs() throws {
        let text = #""a\"b\\c\/d\b\f\n\r\t \u00e9 \u65E5 \ud83c\udfa7 raw é 🎧""#
        #expect(try Self.parse(text) { reader throws(JSONReadError) in try reader.string() }.get()
            == "a\"b\\c/d\u{08}\u{0C}\n\r\t é 日 🎧 raw é 🎧")
    }

    @Test func malformedStringsSayWhyAndWhere() {
        func error(_ text: String) -> JSONReadError? { Self.error(text) { reader throws(JSONReadError) in try reader.string() } }
        #expect(error(#""\ud83c""#) == JSONReadError(.loneSurrogate, at: 1))
        #expect(error(#""x\udfa7""#) == JSONReadError(.loneSurrogate, at: 2))
        #expect(error(#""\ud83c\u0041""#) == JSONReadError(.loneSurrogate, at: 1))
        #expect(error(#""\q""#) == JSONReadError(.invalidEscape, at: 1))
        #expect(error(#""\u12G4""#)?.reason == .invalidEscape)
        #expect(error("\"tab\there\"") == JSONReadError(.controlCharacter, at: 4))
        #expect(error("\"open") == JSONReadError(.unexpectedEnd, at: 5))
        #expect(error("\"open\\n")?.reason == .unexpectedEnd)
        #expect(error("true")?.reason == .wrongType)
        #expect(error("")?.reason == .unexpectedEnd)
    }

    @Test func invalidUTF8IsRefused() throws {
        var bytes = Array("\"ab".utf8) + [0xC3, 0x28] + Array("\"".utf8)
        let error = bytes.withUnsafeMutableBufferPointer { buffer -> JSONReadError? in
            do throws(JSONReadError) {
                _ = try JSONReader.parse(UnsafeBufferPointer(buffer)) { reader throws(JSONReadError) in try reader.string() }
                return nil
            } catch {
                return error
            }
        }
        #expect(error == JSONReadError(.invalidUTF8, at: 1))
    }

    // MARK: Structure

    @Test func nestingIsLimited() {
        let limit = JSONReader.maximumDepth
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(Self.error(deepest) { reader throws(JSONReadError) in try reader.skipValue() } == nil)
        let tooDeep = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        #expect(Self.error(tooDeep) { reader throws(JSONReadError) in try reader.skipValue() } == JSONReadError(.tooDeep, at: limit + 1))
        let objects = String(repeating: #"{"a":"#, count: limit + 1) + "1" + String(repeating: "}", count: limit + 1)
        #expect(Self.error(objects) { reader throws(JSONReadError) in try reader.value() }?.reason == .tooDeep)
    }

    @Test func malformedStructureSaysWhyAndWhere() {
        func error(_ text: String) -> JSONReadError? { Self.error(text) { reader throws(JSONReadError) in try reader.value() } }
        #expect(error(#"{"a":1,}"#) == JSONReadError(.unexpectedCharacter, at: 7))
        #expect(error(#"{"a" 1}"#) == JSONReadError(.unexpectedCharacter, at: 5))
        #expect(error("[1 2]") == JSONReadError(.unexpectedCharacter, at: 3))
        #expect(error("[1,") == JSONReadError(.unexpectedEnd, at: 3))
        #expect(error("nul") == JSONReadError(.unexpectedEnd, at: 0))
        #expect(error("nope") == JSONReadError(.unexpectedCharacter, at: 0))
        #expect(error(#"{"a":1,"a":2}"#) == JSONReadError(.duplicateKey, at: 6))
        #expect(error("{} x") == JSONReadError(.trailingText, at: 3))
        #expect(JSONReadError(.tooDeep, at: 3).description == "tooDeep at byte 3")
    }

    @Test func plainKeysOnlyUnlessAsked() throws {
        let text = #"{"caf\u00e9":1}"#
        #expect(Self.error(text) { reader throws(JSONReadError) in
            var object = try reader.beginObject()
            _ = try reader.nextKey(&object)
        } == JSONReadError(.unsupported, at: 5))
        #expect(try JSONValue(parsing: text) == ["café": 1])
    }

    // MARK: Objects of known fields

    private struct Point: JSONReadable, Equatable {
        enum Field: String, CaseIterable, Sendable { case x, y, label }
        static let fields = JSONFields<Field>()
        var x: Int64, y: Int64, label: String?

        init(x: Int64, y: Int64, label: String? = nil) {
            self.x = x
            self.y = y
            self.label = label
        }

        init(reading reader: inout JSONReader) throws(JSONReadError) {
            var x: Int64?, y: Int64?, label: String?
            try reader.object(Self.fields) { field, reader throws(JSONReadError) in
                switch field {
                case .x: x = try reader.int64()
                case .y: y = try reader.int64()
                case .label: label = try reader.optionalString()
                }
            }
            self.init(x: try reader.required(x), y: try reader.required(y), label: label)
        }
    }

    @Test func objectsOfKnownFields() throws {
        let points = try Self.parse(#"[{"y":2,"x":1,"extra":{"deep":[1.5,"\u0041",{}]}},{"x":3,"y":4,"label":null},{"label":"p","x":5,"y":6}]"#) {
            reader throws(JSONReadError) in try reader.array(of: Point.self)
        }.get()
        #expect(points == [Point(x: 1, y: 2), Point(x: 3, y: 4), Point(x: 5, y: 6, label: "p")])
        #expect(Self.error(#"{"x":1}"#) { reader throws(JSONReadError) in try reader.read(Point.self) }?.reason == .missingField)
        #expect(Self.error(#"{"x":1,"x":2,"y":3}"#) { reader throws(JSONReadError) in try reader.read(Point.self) }
            == JSONReadError(.duplicateKey, at: 8))
        #expect(try Self.parse("null") { reader throws(JSONReadError) in try reader.optional(Point.self) }.get() == nil)
    }
}
