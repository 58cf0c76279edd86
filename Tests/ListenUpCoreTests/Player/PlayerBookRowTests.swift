import Foundation
import ListenUpAPI
import ListenUpTestSupport
import Testing
@testable import ListenUpCore

/// The book's position row: finished, its own speed and boost, the gain and
/// the chapter travel with every write, so no write un-finishes a book.
@MainActor
@Suite("The player keeps each book's row true")
struct PlayerBookRowTests {
    let base = PlayerModelTests()

    /// What the server said of book-1 from "the phone": finished, 1.5×,
    /// +6 dB, a measured gain, a minute ago.
    static let phoneRow = ListeningPosition(bookID: "book-1", position: 150_000, updatedAt: Date().addingTimeInterval(-60), finished: true,
                                            playbackSpeed: 1.5, volumeBoostDb: 6, measuredGainDb: -3.5, chapterID: nil)

    @Test func aBookFinishedElsewherePlaysFromTheStartAndStaysFinished() async throws {
        let rig = try await base.rig(local: ListeningPosition(bookID: "book-1", position: 30_000, updatedAt: Date().addingTimeInterval(-7_200)))
        await rig.server.setPositions([Self.phoneRow])
        await base.start(rig)
        #expect(rig.engine.calls.first == "load 0", "a finished book starts over")
        #expect(rig.model.finished)
        #expect(rig.model.rate == 1.5, "the book's own speed")
        #expect(rig.engine.log.value.rate == 1.5)
        #expect(rig.model.volumeBoostDb == 6)
        #expect(rig.engine.log.value.gain == 6, "the engine plays the book at its boost")
        rig.engine.report(.position(12_000))
        await base.settle { rig.model.position == 12_000 }
        rig.model.send(.pause)
        await base.settle { !rig.server.spansSnapshot.isEmpty }
        let span = try #require(await rig.server.spans.last)
        #expect(span.book == ListeningPosition.Facts(finished: true, volumeBoostDb: 6, measuredGainDb: -3.5, chapterID: "ch-0"),
                "the write keeps the book finished, its boost and gain")
        #expect(span.rate == 1.5)
        let row = try #require(try rig.listening.position(bookID: "book-1"))
        #expect(row.finished && row.playbackSpeed == 1.5 && row.volumeBoostDb == 6 && row.measuredGainDb == -3.5)
    }

    @Test func aBookNeverPlayedStartsAtTheDefaultSpeedAndNoBoost() async throws {
        let rig = try await base.rig(settings: AppSettings(playback: PlaybackSettings(rate: 1.25)))
        await base.start(rig)
        #expect(rig.model.rate == 1.25)
        #expect(rig.model.volumeBoostDb == 0)
        #expect(!rig.model.finished)
    }

    @Test func aBookNeverBoostedStartsWithTheDefaultBoost() async throws {
        let rig = try await base.rig(settings: AppSettings(playback: PlaybackSettings(defaultVolumeBoostDb: 4.5)))
        await base.start(rig)
        #expect(rig.model.volumeBoostDb == 4.5, "Preferences → Default Volume Boost")
    }

    @Test func aSpeedChosenForABookIsThatBooksAndNotTheDefault() async throws {
        let rig = try await base.rig(settings: AppSettings(playback: PlaybackSettings(rate: 1.0)))
        await base.start(rig)
        rig.model.send(.rate(1.75))
        rig.model.send(.boost(4.2))
        #expect(rig.model.volumeBoostDb == 4, "0.5 dB steps")
        #expect(rig.engine.log.value.gain == 4)
        #expect(rig.settings.load().playback.rate == 1.0, "the default speed stays the user's choice")
        let row = try #require(try rig.listening.position(bookID: "book-1"))
        #expect(row.playbackSpeed == 1.75)
        #expect(row.volumeBoostDb == 4)
        rig.model.send(.stop)

        // The next time the book loads, its row's speed and boost come back.
        rig.model.send(.play(bookID: "book-1"))
        await base.settle { rig.engine.calls.filter { $0.hasPrefix("load") }.count == 2 }
        #expect(rig.model.rate == 1.75)
        #expect(rig.model.volumeBoostDb == 4)
    }

    @Test func theChapterAtTheSpansEndTravelsWithIt() async throws {
        let rig = try await base.rig()
        await base.start(rig)
        rig.engine.report(.position(45_000))
        await base.settle { rig.model.position == 45_000 }
        rig.model.send(.pause)
        await base.settle { !rig.server.spansSnapshot.isEmpty }
        #expect(rig.server.spansSnapshot.last?.book?.chapterID == "ch-1")
        #expect(try rig.listening.position(bookID: "book-1")?.chapterID == "ch-1")
    }

    @Test func reachingTheEndFinishesTheBookAndLeavesContinueListening() async throws {
        let item = ContinueListeningItem(bookID: "book-1", title: "Two Files", author: nil, position: 10_000, duration: 150_000,
                                         progress: 0.1, lastPlayedAt: Date())
        let rig = try await base.rig(continueListening: [item])
        let library = InMemoryLibraryStore()
        try library.apply([try PlayerModelTests.book()], deleting: [], state: LibrarySyncState())
        rig.model.library = library
        await base.start(rig)
        rig.engine.report(.position(149_000))
        await base.settle { rig.model.position == 149_000 }
        rig.engine.report(.ended)
        await base.settle { rig.model.status == .ended }
        #expect(rig.model.finished)
        // A span may be written before the end on a slow machine (the
        // position jumped): wait for the one the end writes.
        await base.settle { rig.server.spansSnapshot.last?.end == 150_000 }
        let span = try #require(rig.server.spansSnapshot.last)
        #expect(span.end == 150_000 && span.book?.finished == true, "the last write reports the book finished")
        #expect(try library.progress()["book-1"]?.finished == true)
        #expect(rig.model.continueListening.isEmpty)
    }

    @Test func markAsFinishedKeepsSpeedAndBoostAndNotStartedRestartsAtZero() async throws {
        let rig = try await base.rig()
        await rig.server.setPositions([ListeningPosition(bookID: "book-1", position: 80_000, updatedAt: Date().addingTimeInterval(-30),
                                                         playbackSpeed: 1.3, volumeBoostDb: 3)])
        await base.start(rig)
        rig.model.send(.markFinished(bookID: "book-1", finished: true))
        await base.settle { rig.server.finishedRowsSnapshot.count == 1 }
        var row = try #require(rig.server.finishedRowsSnapshot.last)
        #expect(row.finished && row.playbackSpeed == 1.3 && row.volumeBoostDb == 3)
        #expect(rig.model.finished)

        rig.model.send(.markFinished(bookID: "book-1", finished: false))
        await base.settle { rig.server.finishedRowsSnapshot.count == 2 }
        row = try #require(rig.server.finishedRowsSnapshot.last)
        #expect(!row.finished && row.position == 0 && row.playbackSpeed == 1.3 && row.volumeBoostDb == 3)
        #expect(!rig.model.finished)
        #expect(rig.model.position == 0)
        #expect(rig.engine.calls.last == "seek 0")
    }

    @Test func aBookNotLoadedIsMarkedFromItsSavedRow() async throws {
        let rig = try await base.rig(local: ListeningPosition(bookID: "book-1", position: 70_000, updatedAt: Date().addingTimeInterval(-100),
                                                              playbackSpeed: 2, volumeBoostDb: 9))
        rig.model.send(.markFinished(bookID: "book-1", finished: true))
        await base.settle { rig.server.finishedRowsSnapshot.count == 1 }
        let row = try #require(rig.server.finishedRowsSnapshot.last)
        #expect(row.finished && row.position == 70_000 && row.playbackSpeed == 2 && row.volumeBoostDb == 9)
        #expect(try rig.listening.position(bookID: "book-1")?.finished == true)
    }

    @Test func aFinishFromAnotherDeviceReachesTheBookLoadedHere() async throws {
        let rig = try await base.rig()
        await base.start(rig)
        rig.engine.report(.position(20_000))
        await base.settle { rig.model.position == 20_000 }
        rig.model.positionReported(ListeningPosition(bookID: "book-1", position: 150_000, updatedAt: Date().addingTimeInterval(1), finished: true))
        #expect(rig.model.finished)
        #expect(rig.model.position == 20_000, "the book playing here keeps its place")
        rig.model.send(.pause)
        await base.settle { !rig.server.spansSnapshot.isEmpty }
        #expect(rig.server.spansSnapshot.last?.book?.finished == true)
    }

    @Test func evenLoudnessAddsTheRowsMeasuredGainToTheBoost() async throws {
        var settings = AppSettings()
        settings.playback.evenLoudness = true
        let rig = try await base.rig(settings: settings)
        await rig.server.setPositions([Self.phoneRow])
        await base.start(rig)
        #expect(rig.engine.log.value.gain == 6 - 3.5, "the boost and the measured correction")
    }

    // MARK: Two devices, one book

    @Test func aPausedBookTakesAnotherDevicesNewerPositionAtOnce() async throws {
        let rig = try await base.rig()
        await base.start(rig)
        rig.engine.report(.position(20_000))
        await base.settle { rig.model.position == 20_000 }
        rig.model.send(.pause)
        rig.engine.report(.status(.paused))
        await base.settle { rig.model.status == .paused }
        rig.model.positionReported(ListeningPosition(bookID: "book-1", position: 95_000, updatedAt: Date().addingTimeInterval(5)))
        #expect(rig.model.position == 95_000)
        #expect(rig.engine.calls.last == "seek 95000")
        #expect(rig.model.adoptedPosition?.position == 95_000)
        #expect(rig.model.positionOffer == nil)
    }

    @Test func aPlayingBookKeepsPlayingAndOffersTheOtherPositionOnPause() async throws {
        let rig = try await base.rig()
        await base.start(rig)
        rig.engine.report(.position(20_000))
        await base.settle { rig.model.position == 20_000 }
        rig.model.positionReported(ListeningPosition(bookID: "book-1", position: 95_000, updatedAt: Date().addingTimeInterval(5)))
        #expect(rig.model.position == 20_000, "the book playing here keeps its place")
        #expect(rig.model.positionOffer == nil)
        rig.model.send(.pause)
        #expect(rig.model.positionOffer?.position == 95_000, "offered once paused")
        rig.model.send(.takeOffer)
        #expect(rig.model.position == 95_000)
        #expect(rig.model.positionOffer == nil)
    }

    @Test func anEmptyRowNeverMovesTheBookToTheStart() async throws {
        let rig = try await base.rig()
        await base.start(rig)
        rig.engine.report(.position(40_000))
        await base.settle { rig.model.position == 40_000 }
        rig.model.send(.pause)
        rig.engine.report(.status(.paused))
        await base.settle { rig.model.status == .paused }
        rig.model.positionReported(ListeningPosition(bookID: "book-1", position: 0, updatedAt: Date().addingTimeInterval(5)))
        #expect(rig.model.position == 40_000)
        #expect(rig.model.adoptedPosition == nil)
        rig.model.positionReported(ListeningPosition(bookID: "book-1", position: 60_000, updatedAt: Date().addingTimeInterval(-3_600)))
        #expect(rig.model.position == 40_000, "an older row is not taken")
    }

    // MARK: The rule, for any sequence

    /// Random sequences of play, pause, seek, skip, chapter, speed, boost,
    /// reaching the end, *Mark as Finished* and *Mark as Not Started*: a
    /// write (a span's, or a mark's) that says "not finished" is either
    /// *Mark as Not Started* itself, or made when the user's last word was
    /// not "finished" (no finish since the last restart, by when it was
    /// listened: what the server orders writes by).
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func noWriteUnfinishesABookButMarkAsNotStarted(seed: UInt64) async throws {
        var random = SeededRandom(seed: seed)
        let rig = try await base.rig()
        await base.start(rig)
        var reported: Int64 = 0
        // When the book became finished (the end reached, Mark as
        // Finished) and when the user asked to start over.
        var finishes: [Date] = []
        var restarts: [Date] = []
        for _ in 0..<40 {
            let step = Int.random(in: 0..<11, using: &random)
            switch step {
            case 0: rig.model.send(.pause)
            case 1:
                rig.model.send(.resume)
                rig.engine.report(.status(.playing))
            case 2: rig.model.send(.seek(Int64.random(in: 0..<150_000, using: &random)))
            case 3: rig.model.send(.skip(seconds: Int.random(in: -40...40, using: &random)))
            case 4: rig.model.send(.chapter(Int.random(in: 0..<3, using: &random)))
            case 5: rig.model.send(.rate([0.8, 1, 1.5, 2].randomElement(using: &random) ?? 1))
            case 6: rig.model.send(.boost(Double(Int.random(in: 0...12, using: &random))))
            case 7:
                rig.engine.report(.position(150_000))
                rig.engine.report(.ended)
                await base.settle { rig.model.status == .ended }
                finishes.append(Date())
            case 8:
                rig.model.send(.markFinished(bookID: "book-1", finished: true))
                finishes.append(Date())
            case 9:
                restarts.append(Date())
                rig.model.send(.markFinished(bookID: "book-1", finished: false))
            default:
                rig.engine.report(.status(.playing))
            }
            // Listening moves the position on a little.
            reported = min(150_000, max(rig.engine.position, reported) + Int64.random(in: 500...5_000, using: &random))
            rig.engine.report(.position(reported))
            try await Task.sleep(for: .milliseconds(3))
            reported = rig.engine.position
        }
        rig.model.send(.pause)
        await base.settle { (try? rig.listening.pendingSpans(limit: 500).isEmpty) == true }
        try await Task.sleep(for: .milliseconds(50))

        struct Write { var at: Date; var finished: Bool; var restart: Bool; var order: Int }
        let spans = rig.server.spansSnapshot
        let marks = rig.server.finishedRowsSnapshot
        var writes = spans.enumerated().map { Write(at: $0.element.endedAt, finished: $0.element.book?.finished ?? false, restart: false, order: $0.offset) }
        writes += marks.enumerated().map { Write(at: $0.element.updatedAt, finished: $0.element.finished, restart: !$0.element.finished,
                                                 order: spans.count + $0.offset) }
        writes.sort { ($0.at, $0.order) < ($1.at, $1.order) }
        for write in writes where !write.finished && !write.restart {
            guard let finished = finishes.last(where: { $0 <= write.at }) else { continue }
            let restarted = restarts.last { $0 <= write.at }
            #expect(restarted.map { $0 >= finished } == true,
                    "seed \(seed): a write at \(write.at) un-finished a book finished at \(finished)")
        }
        #expect(writes.contains { $0.finished } || finishes.isEmpty, "seed \(seed): finishing was written")
        #expect(!spans.isEmpty, "seed \(seed): the sequence listened to something")
    }
}
