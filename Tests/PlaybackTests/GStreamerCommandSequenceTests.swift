import Foundation
import ListenUpCore
@testable import Playback
import Testing

/// Commands one on another, as a listener's hands give them: seeks (to a
/// file's start, near its end, anywhere), speeds, pauses and plays, each
/// before the last has settled, over a book of short and longer files. Then
/// the engine must still do as it is told: settle where a seek asks, play
/// from there to the end in order, and end once.
@Suite("The GStreamer engine under commands one on another", .serialized)
struct GStreamerCommandSequenceTests {
    /// A small seeded generator (SplitMix64): the same seed, the same steps.
    struct Steps {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    @Test(arguments: [1, 2] as [UInt64])
    func theEngineDoesAsItIsToldAfterCommandsOneOnAnother(seed: UInt64) async throws {
        let rig = try GStreamerEngineTests.rig()
        defer { rig.engine.stop(); try? FileManager.default.removeItem(at: rig.directory) }
        let lengths: [Double] = [1, 3, 1, 2]
        let files = try lengths.enumerated().map { index, seconds in
            PlaybackTimeline.File(id: "af-\(index)", url: try AudioFixtures.tone(300 * (index + 1), seconds: seconds, format: "wav",
                                                                                  in: rig.directory, name: "file\(index)"),
                                  start: 0, duration: Int64(seconds * 1_000))
        }
        let timeline = PlaybackTimeline(bookID: "book", files: files, chapters: [])
        var steps = Steps(state: seed)
        var done: [String] = []
        rig.engine.load(timeline, at: Int64(steps.next(Int(timeline.duration))))
        for _ in 0..<25 {
            let file = timeline.files[steps.next(files.count)]
            switch steps.next(6) {
            case 0:
                rig.engine.seek(to: file.start)
                done.append("seek \(file.start)")
            case 1:
                let position = max(file.start, file.end - Int64(steps.next(300)))
                rig.engine.seek(to: position)
                done.append("seek \(position)")
            case 2:
                let position = Int64(steps.next(Int(timeline.duration)))
                rig.engine.seek(to: position)
                done.append("seek \(position)")
            case 3:
                let rate = [1, 1.5, 2][steps.next(3)]
                rig.engine.setRate(rate)
                done.append("rate \(rate)")
            case 4:
                rig.engine.pause()
                done.append("pause")
            default:
                rig.engine.play()
                done.append("play")
            }
            try await Task.sleep(for: .milliseconds(20 + steps.next(300)))
        }

        // Then: paused at a place in the second file, settled there.
        rig.engine.pause()
        rig.engine.seek(to: 1_500)
        let settled = await rig.log.wait { $0.statuses.last == .paused && $0.lastPosition == 1_500 }
        #expect(settled, "settles where asked after \(done): \(rig.log.events.value.suffix(6))")
        try await Task.sleep(for: .milliseconds(300))
        #expect(rig.engine.position == 1_500, "and stays there after \(done): \(rig.log.events.value.suffix(6))")

        // Played from there, on to the end, once.
        let before = rig.log.events.value.count
        rig.engine.setRate(1)
        rig.engine.play()
        #expect(await rig.log.wait(timeout: .seconds(20)) { $0.events.value.dropFirst(before).contains(.ended) },
                "plays to the end after \(done): \(rig.log.events.value.suffix(6))")
        let after = rig.log.events.value.dropFirst(before)
        let positions = after.compactMap { if case .position(let p) = $0 { p } else { nil } }
        #expect(zip(positions, positions.dropFirst()).allSatisfy { $1 + 50 >= $0 }, "in order after \(done): \(positions)")
        #expect(positions.last == timeline.duration)
        #expect(after.filter { $0 == .ended }.count == 1, "ends once after \(done)")
    }
}
