import Foundation
import JSONToolkit
import Testing
@testable import ListenUpKRPC

/// The hand-written readers of a sync page's three layers (the CallSuccess
/// frame, the AppResult<SyncPage>, each BookSyncPayload item) are a fast
/// path: whatever they read must be exactly what JSONDecoder decodes, and
/// they must hand over (a mismatch) every text they cannot read so.
@Suite("JSONReader fast paths (kRPC)")
struct JSONReaderFastPathTests {
    // MARK: Helpers

    static func readBook(_ text: String) -> BookSyncPayload? {
        JSONReader.read(text) { reader throws(JSONReadError) in try BookSyncPayload(reading: &reader) }
    }

    static func readMessage(_ text: String) -> KRPCMessage? {
        JSONReader.read(text) { reader throws(JSONReadError) in try KRPCMessage.callSuccess(reading: &reader) }
    }

    static func readPage(_ text: String) -> SyncPage? {
        JSONReader.read(text) { reader throws(JSONReadError) in try reader.successResult(SyncPage.self) } as? SyncPage
    }

    /// Whatever `read` reads from `text`, JSONDecoder (`decode`) reads the same.
    static func expectAgreement<Value: Equatable>(_ text: String, read: (String) -> Value?, decode: (String) throws -> Value,
                                                  sourceLocation: SourceLocation = #_sourceLocation) {
        guard let fast = read(text) else { return }
        do {
            #expect(try decode(text) == fast, "\(text)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("read a text JSONDecoder refuses (\(error)): \(text)", sourceLocation: sourceLocation)
        }
    }

    /// `text` with one byte replaced, removed or added at random, from
    /// JSON's own characters (the mutation runs' step).
    static func mutated(_ text: [UInt8], using random: inout some RandomNumberGenerator) -> String {
        let alphabet = Array(#"{}[]",:0123456789.-eE\tnulrfsa u"#.utf8)
        var bytes = text
        let position = Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0..<3, using: &random) {
        case 0: bytes[position] = alphabet.randomElement(using: &random) ?? 0
        case 1: bytes.remove(at: position)
        default: bytes.insert(alphabet.randomElement(using: &random) ?? 0, at: position)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func agreeOnBook(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        expectAgreement(text, read: readBook, decode: { try KRPCJSON.decode(BookSyncPayload.self, from: $0) }, sourceLocation: sourceLocation)
    }

    static let fullBook = #"""
    {"id":"b","libraryId":"l","folderId":"f","title":"T \"q\" \\ \/ \u00e9 \ud83d\ude80 漱石","sortTitle":"T, The","subtitle":null,
     "description":"<p>one</p>\n<p>two</p>","publishYear":2011,"publisher":null,"language":"en","isbn":null,"asin":"B0",
     "abridged":true,"explicit":false,"hasScanWarning":true,"totalDuration":1,"cover":{"source":"EMBEDDED","hash":"abc"},
     "rootRelPath":"p","inode":42,"scannedAt":1,
     "contributors":[{"id":"c","name":"N","sortName":null,"role":"Narrator","creditedAs":"N. N."},{"id":"d","name":"M","role":"author"}],
     "series":[{"id":"s","name":"S","sequence":"1-3"},{"id":"t","name":"T","sequence":2.5},{"id":"u","name":"U","sequence":3},
               {"id":"v","name":"V","sequence":null},{"id":"w","name":"W"},{"id":"x","name":"X","sequence":3.0},
               {"id":"y","name":"Y","sequence":true},{"id":"z","name":"Z","sequence":{"a":[1]}},{"id":"p","name":"P","sequence":"Prequel"}],
     "genres":[{"id":"g","name":"SF","slug":"sf","path":"/sf"}],
     "audioFiles":[{"id":"a","index":0,"filename":"a.m4b","format":"m4b","codec":"aac","duration":1,"size":2,
                    "codecProfile":"he","spatial":"atmos","bitrate":1,"sampleRate":44100,"channels":2},
                   {"id":"b","index":1,"filename":"b.m4b","format":"m4b","codec":"aac","duration":9223372036854775807,"size":-2}],
     "documents":[{"id":"d","index":0,"filename":"x.pdf","format":"pdf","size":3,"hash":"h"}],
     "chapters":[{"id":"c1","title":"One","duration":5,"startTime":0},{"id":"c2","title":"Two\tTabs","duration":6,"startTime":5}],
     "chapterSource":"USER","fieldProvenance":{"TITLE":{"kind":"USER","provider":"audible","at":5},"ASIN":{"kind":"SCAN"}},
     "normalizationGainDb":-3.5,"revision":2,"updatedAt":3,"createdAt":4,"deletedAt":5,"aFutureField":{"x":[1,2.5,"y",null,false]}}
    """#

    static let plainBook = #"""
    {"id":"b","libraryId":"l","folderId":"f","title":"T","abridged":false,"explicit":false,"totalDuration":1,"rootRelPath":"p",
     "scannedAt":1,"contributors":[],"series":[],"audioFiles":[],"chapters":[],"revision":2,"updatedAt":3,"createdAt":4}
    """#

    // MARK: Writing strings

    @Test func quotingEscapesWhatJSONNeedsAndReadsBack() throws {
        var text = ""
        for value in 0..<0x80 { text.unicodeScalars.append(Unicode.Scalar(UInt8(value))) }
        text += "é漱石🚀\u{2028}"
        let quoted = JSONEscaping.quoted(text)
        #expect(quoted.hasPrefix(#""\u0000\u0001"#) && quoted.contains(#"\b\t\n\u000b\f\r"#) && quoted.contains(##"\u001f !\"#$"##))
        #expect(quoted.contains(#"./0"#) && quoted.contains(#"[\\]"#) && quoted.hasSuffix("é漱石🚀\u{2028}\""))
        #expect(try KRPCJSON.decode(String.self, from: quoted) == text)
        #expect(JSONReader.read(quoted) { reader throws(JSONReadError) in try reader.string() } == text)
        #expect(JSONEscaping.quoted("") == #""""#)
    }

    // MARK: Books

    @Test func booksReadAsJSONDecoderDecodesThem() throws {
        for text in [Self.fullBook, Self.plainBook] {
            let fast = try #require(Self.readBook(text), "takes the fast path: \(text)")
            #expect(fast == (try KRPCJSON.decode(BookSyncPayload.self, from: text)))
        }
        let full = try #require(Self.readBook(Self.fullBook))
        #expect(full.series.map(\.sequence) == [1, 2.5, 3, nil, nil, 3, nil, nil, nil])
        #expect(full.contributors.first?.role == .narrator)
        #expect(full.fieldProvenance["ASIN"] == FieldProvenancePayload(kind: "SCAN"))
        let plain = try #require(Self.readBook(Self.plainBook))
        #expect(!plain.hasScanWarning && plain.genres.isEmpty && plain.chapterSource == .embedded && plain.fieldProvenance.isEmpty)
    }

    @Test func decodeItemsTakesTheFastPathAndKeepsItsErrors() throws {
        let page = SyncPage(domain: "books", items: [Self.fullBook, Self.plainBook], nextCursor: 2, hasMore: false)
        let books = try page.decodeItems(as: BookSyncPayload.self)
        #expect(books == [try KRPCJSON.decode(BookSyncPayload.self, from: Self.fullBook),
                          try KRPCJSON.decode(BookSyncPayload.self, from: Self.plainBook)])
        let broken = SyncPage(domain: "books", items: [Self.plainBook, #"{"id":"b"}"#], nextCursor: 2, hasMore: false)
        #expect(throws: KRPCDecodingError.self) { try broken.decodeItems(as: BookSyncPayload.self) }
        do {
            _ = try broken.decodeItems(as: BookSyncPayload.self)
        } catch {
            #expect("\(error)".contains("items[1]"), "\(error)")
        }
    }

    @Test func oddBooksAreHandedOverOrReadTheSame() {
        let swaps: [(String, String)] = [
            ("\"totalDuration\":1,", "\"totalDuration\":1.0,"), ("\"totalDuration\":1,", "\"totalDuration\":1e0,"),
            ("\"totalDuration\":1,", "\"totalDuration\":null,"), ("\"abridged\":true", "\"abridged\":null"),
            ("\"abridged\":true", "\"abridged\":1"), ("\"hasScanWarning\":true", "\"hasScanWarning\":null"),
            ("\"inode\":42", "\"inode\":null"), ("\"inode\":42", "\"inode\":\"42\""), ("\"publishYear\":2011", "\"publishYear\":2011.5"),
            ("\"sequence\":2.5", "\"sequence\":2.5e0"), ("\"sequence\":2.5", "\"sequence\":-0.25"), ("\"sequence\":2.5", "\"sequence\":01"),
            ("\"sequence\":2.5", "\"sequence\":99999999999999999999"), ("\"chapterSource\":\"USER\"", "\"chapterSource\":null"),
            ("\"genres\":[", "\"genres\":null,\"q\":["), ("\"fieldProvenance\":{", "\"fieldProvenance\":{\"TITLE\":{\"kind\":\"X\"},"),
            ("\"normalizationGainDb\":-3.5", "\"normalizationGainDb\":-3"), ("\"normalizationGainDb\":-3.5", "\"normalizationGainDb\":1e400"),
            ("\"normalizationGainDb\":-3.5", "\"normalizationGainDb\":0.1000000000000000055511151231257827"),
            ("\"title\":\"T", "\"title\":\"\\ud83dT"), ("\"title\":\"T", "\"title\":\"\\u0000T"), ("\"id\":\"b\"", "\"\\u0069d\":\"b\""),
            ("\"revision\":2", "\"revision\":2,\"revision\":3"), ("\"cover\":{", "\"cover\":null,\"k\":{"),
            ("\"role\":\"Narrator\"", "\"role\":null"), ("\"codec\":\"aac\",\"duration\":1", "\"duration\":1"),
        ]
        var read = 0
        for (old, new) in swaps {
            #expect(Self.fullBook.contains(old), "\(old)")
            let text = Self.fullBook.replacingOccurrences(of: old, with: new)
            if Self.readBook(text) != nil { read += 1 }
            Self.agreeOnBook(text)
        }
        #expect(read > 8, "the ordinary variants take the fast path")
    }

    @Test func mutatedBooksNeverDisagree() {
        let text = Array(Self.fullBook.utf8)
        var random = SystemRandomNumberGenerator()
        for _ in 0..<3_000 { Self.agreeOnBook(Self.mutated(text, using: &random)) }
    }

    // MARK: Frames and results

    @Test func callSuccessFramesReadAsJSONDecoderDecodesThem() throws {
        let page = SyncPage(domain: "books", items: [Self.fullBook, Self.plainBook], nextCursor: 7, hasMore: true)
        let result = #"{"type":"Success","data":"# + page.encodedForTest + "}"
        let messages: [KRPCMessage] = [
            .callSuccess(KRPCCallSuccess(callId: "1:pullDomain:3", serviceType: KRPCServiceType.syncStreamService.rawValue, data: result)),
            .callSuccess(KRPCCallSuccess(callId: "c", serviceType: "s", data: "", connectionId: 4, serviceId: -9)),
        ]
        for message in messages {
            let text = message.encoded()
            #expect(Self.readMessage(text) == message, "\(text)")
            #expect(try KRPCMessage(decoding: text) == message)
            #expect(try KRPCMessage(decoding: Data(text.utf8)) == message)
        }
        // The committed fixture, with its real key order.
        let fixture = try Fixture.text("call_success_pull_domain.json")
        #expect(Self.readMessage(fixture) != nil)
        #expect(Self.readMessage(fixture) == (try KRPCJSON.decode(KRPCMessage.self, from: fixture)))
    }

    @Test(arguments: [
        (#"{"type":"org.jetbrains.krpc.RPCMessage.CallSuccess","callId":"a","serviceType":"s","data":"x","pluginParams":{}}"#, true),
        (#"{"callId":"a","data":"x","serviceType":"s","connectionId":null,"type":"org.jetbrains.krpc.RPCMessage.CallSuccess","z":[1]}"#, true),
        (#"{"type":"org.jetbrains.krpc.RPCMessage.CallSuccess","callId":"a","serviceType":"s","data":"x","pluginParams":{"-32767":"y"}}"#, false),
        (#"{"type":"org.jetbrains.krpc.RPCMessage.CallSuccess","callId":"a","serviceType":"s","data":"x","pluginParams":{32767:"y"}}"#, false),
        (#"{"type":"org.jetbrains.krpc.RPCMessage.CallSuccess","callId":"a","serviceType":"s"}"#, false),
        (#"{"type":"org.jetbrains.krpc.RPCMessage.CallException","callId":"a","serviceType":"s","data":"x"}"#, false),
        (#"{"type":"org.jetbrains.krpc.RPCMessage.CallSuccess","callId":"a","serviceType":"s","data":"x","connectionId":1.5}"#, false),
    ])
    func frameVariants(text: String, readsIt: Bool) {
        #expect((Self.readMessage(text) != nil) == readsIt, "\(text)")
        Self.expectAgreement(text, read: Self.readMessage, decode: { try KRPCJSON.decode(KRPCMessage.self, from: $0) })
    }

    @Test func syncPageResultsReadAsJSONDecoderDecodesThem() throws {
        let texts = [
            #"{"type":"Success","data":{"domain":"books","items":["{}","{\"a\":\"\\u00e9\"}"],"nextCursor":12,"hasMore":true}}"#,
            #"{"data":{"hasMore":false,"items":[],"domain":"books","nextCursor":null},"type":"Success"}"#,
            #"{"type":"Success","data":{"domain":"books","items":[],"hasMore":false}}"#,
        ]
        for text in texts {
            let fast = try #require(Self.readPage(text), "\(text)")
            #expect(AppResult<SyncPage>.success(fast) == (try KRPCJSON.decode(AppResult<SyncPage>.self, from: text)))
            #expect(try AppResult<SyncPage>.decode(from: text) == .success(fast))
        }
        let failure = #"{"type":"Failure","error":{"type":"SyncError.UnknownDomain","domain":"nope"}}"#
        #expect(Self.readPage(failure) == nil)
        #expect(try AppResult<SyncPage>.decode(from: failure) == (try KRPCJSON.decode(AppResult<SyncPage>.self, from: failure)))
        for text in [#"{"type":"Success","data":{"domain":"books","items":[1],"hasMore":false}}"#,
                     #"{"type":"Success","data":{"domain":"books","items":[],"hasMore":false,"nextCursor":1e3}}"#,
                     #"{"type":"Success","data":null}"#, #"{"type":"Succes","data":{"domain":"b","items":[],"hasMore":false}}"#] {
            Self.expectAgreement(text, read: Self.readPage, decode: { try KRPCJSON.decode(AppResult<SyncPage>.self, from: $0).get() })
        }
    }

    @Test func mutatedFramesNeverDisagree() {
        let page = SyncPage(domain: "books", items: [Self.plainBook], nextCursor: 7, hasMore: true)
        let result = #"{"type":"Success","data":"# + page.encodedForTest + "}"
        let frame = Array(KRPCMessage.callSuccess(KRPCCallSuccess(callId: "1:pullDomain:3", serviceType: "s", data: result,
                                                                  connectionId: 3)).encoded().utf8)
        let resultBytes = Array(result.utf8)
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            Self.expectAgreement(Self.mutated(frame, using: &random), read: Self.readMessage,
                                 decode: { try KRPCJSON.decode(KRPCMessage.self, from: $0) })
            Self.expectAgreement(Self.mutated(resultBytes, using: &random), read: Self.readPage,
                                 decode: { try KRPCJSON.decode(AppResult<SyncPage>.self, from: $0).get() })
        }
    }
}

extension SyncPage {
    /// The page as the server writes it (tests only).
    var encodedForTest: String {
        let items = "[" + items.map { JSONEscaping.quoted($0) }.joined(separator: ",") + "]"
        return #"{"domain":"# + JSONEscaping.quoted(domain) + #","items":"# + items + #","nextCursor":"#
            + (nextCursor.map(String.init) ?? "null") + #","hasMore":"# + (hasMore ? "true" : "false") + "}"
    }
}
