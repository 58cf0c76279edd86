import Foundation
import Testing
@testable import Pairing

@Suite("Remote command bodies")
struct RemoteCommandWireTests {
    func parse(_ action: String, _ body: String) -> Result<RemoteCommand, RemoteCommandWire.BadBody> {
        RemoteCommandWire.parse(action: action, body: Array(body.utf8))
    }

    func message(_ action: String, _ body: String) -> String? {
        if case .failure(let bad) = parse(action, body) { bad.message } else { nil }
    }

    @Test func everyCommandTravelsAndComesBack() throws {
        let commands: [RemoteCommand] = [.play, .pause, .toggle, .stop, .seek(positionMs: 0), .seek(positionMs: 123_456),
                                         .skip(seconds: -15), .skip(seconds: 30), .chapter(index: 0), .chapter(index: 7),
                                         .rate(0.5), .rate(1.25), .rate(3), .sleep(.minutes(1)), .sleep(.minutes(720)),
                                         .sleep(.endOfChapter), .sleep(.off), .playBook(bookID: "book \"1\" ü")]
        for command in commands {
            let (path, body) = RemoteCommandWire.request(for: command)
            #expect(path == "/api/v1/player/" + command.name)
            #expect(try RemoteCommandWire.parse(action: command.name, body: body).get() == command, "\(command)")
        }
    }

    @Test func theEndpointsAndBodiesAreTheDocumentedOnes() {
        #expect(RemoteCommand.Action.allCases.map(\.rawValue) == ["play", "pause", "toggle", "stop", "seek", "skip", "chapter", "rate", "sleep"])
        func wire(_ command: RemoteCommand) -> String {
            let (path, body) = RemoteCommandWire.request(for: command)
            return path + " " + String(decoding: body, as: UTF8.self)
        }
        #expect(wire(.play) == "/api/v1/player/play ")
        #expect(wire(.playBook(bookID: "b-1")) == #"/api/v1/player/play {"bookId":"b-1"}"#)
        #expect(wire(.toggle) == "/api/v1/player/toggle ")
        #expect(wire(.seek(positionMs: 123_456)) == #"/api/v1/player/seek {"positionMs":123456}"#)
        #expect(wire(.skip(seconds: -15)) == #"/api/v1/player/skip {"seconds":-15}"#)
        #expect(wire(.chapter(index: 7)) == #"/api/v1/player/chapter {"index":7}"#)
        #expect(wire(.rate(1.25)) == #"/api/v1/player/rate {"value":1.25}"#)
        #expect(wire(.sleep(.minutes(15))) == #"/api/v1/player/sleep {"minutes":15}"#)
        #expect(wire(.sleep(.endOfChapter)) == #"/api/v1/player/sleep {"endOfChapter":true}"#)
        #expect(wire(.sleep(.off)) == #"/api/v1/player/sleep {"off":true}"#)
    }

    @Test func bodilessCommandsAcceptNothingOrAnEmptyObject() throws {
        #expect(try parse("pause", "").get() == .pause)
        #expect(try parse("toggle", " {} ").get() == .toggle)
        #expect(try parse("play", "").get() == .play)
        #expect(try parse("play", "{}").get() == .play)
        #expect(message("stop", "{\"now\":true}") == "stop takes no body (or {}).")
    }

    @Test func wrongTypesAreRefusedWithTheFieldNamed() {
        #expect(message("seek", "{\"positionMs\":\"5\"}")?.contains("\"positionMs\" must be a whole number") == true)
        #expect(message("seek", "{\"positionMs\":1.5}")?.contains("\"positionMs\"") == true)
        #expect(message("seek", "{\"positionMs\":true}")?.contains("\"positionMs\"") == true)
        #expect(message("seek", "{\"positionMs\":null}")?.contains("\"positionMs\"") == true)
        #expect(message("seek", "{\"positionMs\":-1}")?.contains("from 0") == true)
        #expect(message("seek", "{\"position\":5}") == "Unknown field \"position\"; seek takes exactly \"positionMs\".")
        #expect(message("seek", "{}") == "Missing field; seek takes exactly \"positionMs\".")
        #expect(message("seek", "{\"positionMs\":5,\"extra\":1}")?.hasPrefix("Unknown field \"extra\"") == true)
        #expect(message("seek", "[5]") == "The body must be a JSON object.")
        #expect(message("seek", "positionMs=5") == "The body must be a JSON object.")
        #expect(message("skip", "{\"seconds\":3601}")?.contains("-3600 to 3600") == true)
        #expect(message("skip", "{\"seconds\":[1]}")?.contains("\"seconds\"") == true)
        #expect(message("chapter", "{\"index\":-1}")?.contains("\"index\"") == true)
        #expect(message("rate", "{\"value\":3.01}") == "\"value\" must be a number from 0.5 to 3.0.")
        #expect(message("rate", "{\"value\":\"1\"}") == "\"value\" must be a number from 0.5 to 3.0.")
        #expect(message("rate", "{\"value\":0.49}") != nil)
        #expect(message("play", "{\"bookId\":\"\"}")?.contains("\"bookId\"") == true)
        #expect(message("play", "{\"bookId\":5}")?.contains("\"bookId\"") == true)
        #expect(message("play", "{\"bookId\":\"\(String(repeating: "x", count: 129))\"}") != nil)
        #expect(message("play", "{\"bookId\":\"a\\u0000b\"}") != nil)
    }

    @Test func sleepTakesExactlyOneOfItsThreeForms() throws {
        #expect(try parse("sleep", "{\"minutes\":15}").get() == .sleep(.minutes(15)))
        #expect(try parse("sleep", "{\"endOfChapter\":true}").get() == .sleep(.endOfChapter))
        #expect(try parse("sleep", "{\"off\":true}").get() == .sleep(.off))
        #expect(message("sleep", "{\"minutes\":0}")?.contains("1 to 720") == true)
        #expect(message("sleep", "{\"minutes\":721}") != nil)
        #expect(message("sleep", "{\"off\":false}")?.hasPrefix("\"off\" must be true.") == true)
        #expect(message("sleep", "{\"endOfChapter\":1}") != nil)
        #expect(message("sleep", "{\"minutes\":5,\"off\":true}")?.contains("exactly one of") == true)
        #expect(message("sleep", "") != nil)
        #expect(message("sleep", "{\"hours\":1}")?.hasPrefix("Unknown field \"hours\"") == true)
    }

    @Test func theStateIsWrittenWithEveryKeyAndNulls() throws {
        let idle = RemotePlayerState()
        let object = try #require(try JSONSerialization.jsonObject(with: try JSONEncoder().encode(idle)) as? [String: Any])
        #expect(Set(object.keys) == Set(RemotePlayerState.CodingKeys.allKeys))
        #expect(object["bookId"] is NSNull && object["sleepRemainingMs"] is NSNull && object["chapterIndex"] is NSNull)
        #expect(object["status"] as? String == "idle")
        let sample = RemotePlayerState.playingSample
        #expect(try JSONDecoder().decode(RemotePlayerState.self, from: try JSONEncoder().encode(sample)) == sample)
        let book = try #require((try JSONSerialization.jsonObject(with: try JSONEncoder().encode(sample)) as? [String: Any])?["continueListening"] as? [[String: Any]])
        #expect(book.first?["bookId"] as? String == "book-1")
    }
}

extension RemotePlayerState.CodingKeys {
    static var allKeys: [String] {
        ["bookId", "title", "authors", "chapterIndex", "chapterTitle", "positionMs", "durationMs", "chapterPositionMs",
         "chapterDurationMs", "rate", "volume", "status", "sleepRemainingMs", "sleepEndOfChapter", "hasCover", "continueListening"]
    }
}
