import Foundation
import Playback
import Testing

/// Every format a book may come in, made with `gst-launch-1.0` and played
/// through the engine (one at a time: each plays in real time).
@Suite("Every format through the GStreamer engine", .serialized)
struct GStreamerFormatTests {
    typealias Engine = GStreamerEngineTests

    @Test(arguments: ["m4b", "m4a", "mp3", "opus", "ogg", "flac", "wav"])
    func eachFormatPlays(format: String) async throws {
        let rig = try Engine.rig()
        defer { rig.engine.stop(); try? FileManager.default.removeItem(at: rig.directory) }
        let timeline = try Engine.book(rig, tones: [440], seconds: 2, format: format)
        rig.engine.load(timeline, at: 0)
        rig.engine.play()
        // The file lasts 2 s: on a busy machine it can be over before the
        // first look, so "has played", not "is playing".
        #expect(await rig.log.wait { $0.hasPlayed() }, "\(format): \(rig.log.statuses)")
        #expect(await rig.log.wait { ($0.lastPosition ?? 0) >= 600 }, "\(format): the position advances")
        #expect(abs(rig.frequency - 440) < 25, "\(format): heard \(rig.frequency) Hz")
        #expect(rig.log.failure == nil)
    }
}
