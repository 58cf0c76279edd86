import Foundation
import Testing
@testable import ListenUpKRPC

/// Playback (§3.6): prepare's arguments and result, positions and listening
/// events with their required nulls.
@Suite("Playback")
struct PlaybackTests {
    @Test func prepareCallMatchesTheContract() throws {
        let arguments = try KRPCJSON.encode(PrepareArguments(bookId: "<book-id>"))
        #expect(arguments == #"{"bookId":"<book-id>","capabilities":null,"forceTranscode":false}"#)
        let call = KRPCMessage.call(callId: "1:prepare:6", method: .prepare, arguments: arguments, connectionId: 1)
        #expect(call.encoded() == (try Fixture.text("call_data_prepare.json")))
        let transcoding = try KRPCJSON.encode(PrepareArguments(bookId: "b", capabilities: [.init(rawValue: "mp3")], forceTranscode: true))
        #expect(transcoding == #"{"bookId":"b","capabilities":["mp3"],"forceTranscode":true}"#)
        #expect(CodecCapability.all.count == 10)
    }

    @Test func preparedPlaybackDefaults() throws {
        let prepared = try AppResult<PreparedPlayback>.decode(from: try Fixture.text("app_result_prepare.json")).get()
        #expect(prepared.bookId == "<book-id>")
        #expect(prepared.resumePosition == nil && !prepared.transcodeUnavailable)
        #expect(prepared.coverUrl == "/api/v1/cover-cast/<book-id>?u=<user-id>&exp=1787444200&sig=<64-hex>")
        #expect(prepared.audioFiles == [PreparedAudioFile(
            fileId: "<f1>", index: 0, url: "/api/v1/audio/<book-id>/<f1>?u=<user-id>&exp=1787444200&sig=<64-hex>",
            format: "m4b", durationMs: 73_380_000, sizeBytes: 612_345_678)])
        #expect(prepared.audioFiles.first?.hlsUrl == nil)
        let bare = try KRPCJSON.decode(PreparedPlayback.self, from: #"{"bookId":"b","audioFiles":[],"resumePosition":null}"#)
        #expect(bare.coverUrl == nil && !bare.transcodeUnavailable)
    }

    @Test func recordPositionSendsRequiredNullsAndDefaults() throws {
        let request = RecordPositionRequest(bookId: "<book-id>", positionMs: 1_234_567, lastPlayedAt: 1_787_401_000_000,
                                            finished: false, playbackSpeed: 1.25, currentChapterId: nil)
        let call = KRPCMessage.call(callId: "1:recordPosition:7", method: .recordPosition,
                                    arguments: try KRPCJSON.encode(RequestArguments(request)))
        let fixture = try Fixture.value(try Fixture.text("call_data_record_position.json"))
        // Kotlin omits the defaulted volumeBoostDb = 0 and measuredGainDb = null; Swift sends every key.
        let expected = Fixture.adding(["volumeBoostDb": .integer(0), "measuredGainDb": .null], to: fixture, at: ["data", "request"])
        #expect(try Fixture.value(call.encoded()) == expected)
        #expect(call.encoded().contains(#"\"currentChapterId\":null"#))
        #expect(try KRPCJSON.decode(RecordPositionRequest.self, from: try KRPCJSON.encode(request)) == request)
    }

    @Test func recordListeningEventMatchesTheContract() throws {
        let request = RecordListeningEventRequest(
            id: "5f0d4c1a-8d4e-4b8a-9f0e-2b7c9d1e3a44", bookId: "<book-id>", startPositionMs: 1_200_000,
            endPositionMs: 1_234_567, startedAt: 1_787_400_965_000, endedAt: 1_787_401_000_000, playbackSpeed: 1.25,
            tz: "Europe/Berlin", deviceLabel: nil)
        let encoded = try KRPCJSON.encode(RequestArguments(request))
        #expect(try Fixture.value(encoded) == (try Fixture.value(try Fixture.text("arguments_record_listening_event.json"))))
        #expect(encoded.contains(#""deviceLabel":null"#))
    }

    @Test func speedsStayNumbers() throws {
        for speed in [1.0, 1.25, 0.75, 3.5] {
            let request = RecordPositionRequest(bookId: "b", positionMs: 0, lastPlayedAt: 0, finished: false,
                                                playbackSpeed: speed, currentChapterId: "c")
            let value = try Fixture.value(try KRPCJSON.encode(request))
            #expect(value["playbackSpeed"]?.doubleValue == speed)
            #expect(value["playbackSpeed"]?.stringValue == nil)
        }
    }

    @Test func nonFiniteSpeedIsRefused() {
        let request = RecordPositionRequest(bookId: "b", positionMs: 0, lastPlayedAt: 0, finished: false,
                                            playbackSpeed: .nan, currentChapterId: nil)
        #expect(throws: KRPCEncodingError.invalidValue(path: "playbackSpeed")) { try KRPCJSON.encode(request) }
        #expect(throws: KRPCEncodingError.self) { try KRPCJSON.encode(RequestArguments(request)) }
    }

    @Test func positionPayloadDefaults() throws {
        let position = try KRPCJSON.decode(PlaybackPositionSyncPayload.self, from: #"{"id":"p","bookId":"b","positionMs":1,"lastPlayedAt":2,"finished":true,"playbackSpeed":1,"currentChapterId":null,"revision":3,"updatedAt":4,"createdAt":5,"deletedAt":null}"#)
        #expect(position.volumeBoostDb == 0 && position.measuredGainDb == nil && position.playbackSpeed == 1)
        let recent = try AppResult<[PlaybackPositionSyncPayload]>.decode(from: #"{"type":"Success","data":[]}"#)
        #expect(recent == .success([]))
    }
}
