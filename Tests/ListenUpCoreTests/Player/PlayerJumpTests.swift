import Foundation
import ListenUpAPI
import ListenUpTestSupport
import Testing
@testable import ListenUpCore

/// Undoing a jump: seeks, chapters, long skips and other devices'
/// positions remember where the book was; undo goes back, once per place;
/// the list is per book, newest first, at most 10.
@MainActor
@Suite("The player remembers where a jump came from")
struct PlayerJumpTests {
    let base = PlayerModelTests()

    /// The test's clock (the burst rule counts seconds between jumps).
    final class Clock {
        var now = Date(timeIntervalSince1970: 1_800_000_000)
        func advance(_ seconds: TimeInterval = 10) { now += seconds }
    }

    /// Book-1 (150 s, chapters at 0, 40 and 100 s) and book-2 (the same shape).
    func rig(settings: AppSettings = AppSettings()) async throws -> (PlayerModelTests.Rig, Clock) {
        let rig = try await base.rig(settings: settings)
        var second = try PlayerModelTests.book()
        second.id = "book-2"
        second.title = "Another Book"
        try rig.model.library?.apply([second], deleting: [], state: LibrarySyncState())
        let clock = Clock()
        rig.model.clock = { clock.now }
        return (rig, clock)
    }

    /// Plays book-1 from 5 s.
    func start(_ rig: PlayerModelTests.Rig) async {
        await base.start(rig)
        rig.engine.report(.position(5_000))
        await base.settle { rig.model.position == 5_000 }
    }

    var positions: (PlayerModelTests.Rig) -> [Int64] { { $0.model.recentPositions.map(\.position) } }

    @Test func aSeekIsRememberedAndUndoGoesBackOnce() async throws {
        let (rig, clock) = try await rig()
        await start(rig)
        rig.model.send(.seek(100_000))
        #expect(positions(rig) == [5_000])
        #expect(rig.model.recentPositions.first?.leftAt == clock.now)
        #expect(rig.model.lastJump?.position == 100_000)
        #expect(rig.model.lastJump?.undoPosition == 5_000)

        rig.model.send(.undoJump)
        #expect(rig.model.position == 5_000)
        #expect(rig.engine.calls.last == "seek 5000")
        #expect(positions(rig).isEmpty, "the place undone to leaves the list")
        #expect(rig.model.lastJump == nil, "the toast goes")
        rig.model.send(.undoJump)
        #expect(rig.model.position == 5_000, "nothing left to undo: no bouncing back")
        #expect(rig.engine.calls.last == "seek 5000")
    }

    @Test func skipsOfThirtySecondsOrLessAreNotJumps() async throws {
        let (rig, clock) = try await rig()
        await start(rig)
        rig.model.send(.skipForward)
        rig.model.send(.skip(seconds: 30))
        rig.model.send(.skip(seconds: -30))
        rig.model.send(.skipBack)
        rig.model.send(.seek(rig.model.position + 20_000))
        #expect(positions(rig).isEmpty, "30 s or less, whatever the cause: \(rig.model.position)")
        #expect(rig.model.lastJump == nil)
        let before = rig.model.position
        clock.advance()
        rig.model.send(.skip(seconds: 45))
        #expect(positions(rig) == [before], "a skip of more than 30 s is a jump")
    }

    @Test func skipLengthsOverThirtySecondsFromPreferencesAreJumps() async throws {
        let (rig, _) = try await rig(settings: AppSettings(playback: PlaybackSettings(skipForwardSeconds: 60)))
        await start(rig)
        rig.model.send(.skipForward)
        #expect(rig.model.position == 65_000)
        #expect(positions(rig) == [5_000])
    }

    @Test func chaptersAreJumpsAndTheSamePlaceIsKeptOnce() async throws {
        let (rig, clock) = try await rig()
        await start(rig)
        rig.model.send(.chapter(2))
        #expect(rig.model.position == 100_000)
        clock.advance()
        rig.model.send(.previousChapter)
        #expect(rig.model.position == 40_000, "at the chapter's start: the one before")
        clock.advance()
        rig.model.send(.nextChapter)
        #expect(rig.model.position == 100_000)
        #expect(positions(rig) == [40_000, 100_000, 5_000])
        clock.advance()
        rig.model.send(.seek(8_000))
        #expect(positions(rig) == [100_000, 40_000, 5_000], "100 s left again: first, not twice")
        clock.advance()
        rig.model.send(.seek(60_000))
        #expect(positions(rig) == [8_000, 100_000, 40_000], "8 s is within 5 s of 5 s: the same place, left again")
    }

    @Test func aBurstOfJumpsIsOneJump() async throws {
        let (rig, clock) = try await rig()
        await start(rig)
        rig.model.send(.seek(100_000))
        clock.advance(1)
        rig.model.send(.seek(140_000))
        clock.advance(1)
        rig.model.send(.chapter(1))
        #expect(positions(rig) == [5_000], "dragging, or Next Chapter pressed three times, is one jump")
        #expect(rig.model.lastJump?.position == 40_000)
        #expect(rig.model.lastJump?.undoPosition == 5_000)
        rig.model.send(.undoJump)
        #expect(rig.model.position == 5_000)
        clock.advance(1)
        rig.model.send(.seek(100_000))
        #expect(positions(rig) == [5_000], "a jump right after an undo is a new one")
    }

    @Test func theListKeepsTheLastTenNewestFirst() async throws {
        let (rig, clock) = try await rig()
        await start(rig)
        let targets: [Int64] = [100, 10, 110, 20, 120, 30, 130, 45, 140, 55, 90, 20]
        for target in targets {
            clock.advance()
            rig.model.send(.seek(target * 1_000))
        }
        #expect(positions(rig) == [90, 55, 140, 45, 130, 30, 120, 20, 110, 10].map { $0 * 1_000 }, "12 places left, each far from the others")
        #expect(rig.model.recentPositions.map(\.leftAt) == (0..<10).map { clock.now - Double($0) * 10 }, "each with when it was left")
    }

    @Test func eachBookHasItsOwnList() async throws {
        let (rig, clock) = try await rig()
        await start(rig)
        rig.model.send(.seek(100_000))
        rig.model.send(.play(bookID: "book-2"))
        await base.settle { rig.engine.log.value.loaded?.bookID == "book-2" }
        #expect(rig.model.nowPlaying?.bookID == "book-2")
        #expect(positions(rig).isEmpty, "book-2 has jumped nowhere")
        rig.engine.report(.status(.playing))
        rig.engine.report(.position(2_000))
        await base.settle { rig.model.position == 2_000 }
        clock.advance(1)
        rig.model.send(.seek(120_000))
        #expect(positions(rig) == [2_000], "a jump in another book is not part of the last one's burst")
        rig.model.send(.play(bookID: "book-1"))
        #expect(positions(rig) == [5_000], "book-1's list is back with it")
        await base.settle { rig.engine.log.value.loaded?.bookID == "book-1" }
        rig.engine.report(.status(.playing))
        await base.settle { rig.model.status == .playing }
        rig.model.send(.undoJump)
        #expect(rig.model.position == 5_000)
    }

    @Test func aPositionFromAnotherDeviceIsAJump() async throws {
        let (rig, _) = try await rig()
        await start(rig)
        rig.model.send(.pause)
        rig.engine.report(.status(.paused))
        await base.settle { rig.model.status == .paused }
        rig.model.positionReported(ListeningPosition(bookID: "book-1", position: 95_000, updatedAt: Date().addingTimeInterval(5)))
        #expect(rig.model.position == 95_000, "taken at once: not playing here")
        #expect(positions(rig) == [5_000])
        #expect(rig.model.lastJump?.position == 95_000)
        rig.model.send(.undoJump)
        #expect(rig.model.position == 5_000)
    }

    @Test func takingTheOfferIsAJump() async throws {
        let (rig, _) = try await rig()
        await start(rig)
        rig.model.positionReported(ListeningPosition(bookID: "book-1", position: 95_000, updatedAt: Date().addingTimeInterval(5)))
        #expect(positions(rig).isEmpty, "the book playing here is not moved")
        rig.model.send(.pause)
        rig.model.send(.takeOffer)
        #expect(rig.model.position == 95_000)
        #expect(positions(rig) == [5_000])
    }

    @Test func goingToARecentPositionIsAJumpUndoCanTakeBack() async throws {
        let (rig, clock) = try await rig()
        await start(rig)
        rig.model.send(.seek(100_000))
        clock.advance()
        rig.model.send(.seek(50_000))
        #expect(positions(rig) == [100_000, 5_000])
        clock.advance(1)
        rig.model.send(.jumpToRecent(1))
        #expect(rig.model.position == 5_000)
        #expect(positions(rig) == [50_000, 100_000], "the place chosen leaves the list, the place left joins it (even in a burst)")
        rig.model.send(.jumpToRecent(7))
        #expect(rig.model.position == 5_000, "no such place")
        rig.model.send(.undoJump)
        #expect(rig.model.position == 50_000)
    }

    @Test func muteRemembersTheVolume() async throws {
        let (rig, _) = try await rig()
        await start(rig)
        rig.model.send(.volume(0.8))
        rig.model.send(.toggleMute)
        #expect(rig.model.volume == 0)
        #expect(rig.engine.log.value.volume == 0)
        rig.model.send(.toggleMute)
        #expect(rig.model.volume == 0.8)
        #expect(rig.engine.log.value.volume == 0.8)
        rig.model.send(.volume(0))
        rig.model.send(.toggleMute)
        #expect(rig.model.volume == 1, "muted with nothing to go back to: full volume")
    }

    @Test func volumeAndSpeedStep() async throws {
        let (rig, _) = try await rig()
        rig.model.send(.volume(0.52))
        #expect(rig.model.volume(steppedBy: 1) == 0.55, "on the 5 % steps of the volume slider")
        #expect(rig.model.volume(steppedBy: -1) == 0.5)
        rig.model.send(.volume(1))
        #expect(rig.model.volume(steppedBy: 1) == 1)
        #expect(rig.model.rate(steppedBy: 1) == 1.05, "the speed's 0.05× steps")
        rig.model.send(.rate(3))
        #expect(rig.model.rate(steppedBy: 1) == 3)
        rig.model.send(.rate(0.5))
        #expect(rig.model.rate(steppedBy: -1) == 0.5)
        #expect(rig.model.rate(steppedBy: 2) == 0.6)
    }
}
