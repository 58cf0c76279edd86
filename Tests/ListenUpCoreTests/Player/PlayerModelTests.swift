import Foundation
import ListenUpAPI
import ListenUpTestSupport
import Testing
@testable import ListenUpCore

@MainActor
@Suite("The player model: rules, spans and positions")
struct PlayerModelTests {
    /// A book of two files (60 s and 90 s) and three chapters, one across the files.
    static func book() throws -> ServerBook {
        var book = try ScriptedServer.book(id: "book-1", title: "Two Files")
        book.audioFiles = [
            ServerBook.AudioFile(id: "af-1", format: "wav", codec: nil, size: 1, duration: 60_000, bitrate: nil),
            ServerBook.AudioFile(id: "af-2", format: "wav", codec: nil, size: 1, duration: 90_000, bitrate: nil),
        ]
        book.chapters = [
            ServerBook.Chapter(id: "ch-0", title: "One", audioFileID: "af-1", startTime: 0, endTime: 40_000),
            ServerBook.Chapter(id: "ch-1", title: "Two", audioFileID: "af-1", startTime: 40_000, endTime: 100_000),
            ServerBook.Chapter(id: "ch-2", title: "Three", audioFileID: "af-2", startTime: 100_000, endTime: 150_000),
        ]
        book.totalDuration = 150_000
        return book
    }

    struct Rig {
        let model: PlayerModel
        let engine: ScriptedEngine
        let server: ScriptedServer
        let listening: InMemoryListeningStore
        let settings: SettingsClient
    }

    func rig(local: ListeningPosition? = nil, settings: AppSettings = AppSettings(),
             continueListening: [ContinueListeningItem] = []) async throws -> Rig {
        let server = try ScriptedServer(titles: [])
        let library = InMemoryLibraryStore()
        try library.apply([try Self.book()], deleting: [], state: LibrarySyncState())
        let listening = InMemoryListeningStore()
        if let local { try listening.savePosition(local) }
        try listening.saveContinueListening(continueListening)
        let engine = ScriptedEngine()
        var dependencies = Dependencies.test(settings: settings)
        dependencies.openLibrary = { _, _ in library }
        dependencies.openListening = { _, _ in listening }
        dependencies.makePlaybackEngine = { engine }
        dependencies.deviceID = { "device-test" }
        let session = Session(try #require(await server.currentSession), connection: server)
        let model = PlayerModel(dependencies: dependencies, session: session)
        return Rig(model: model, engine: engine, server: server, listening: listening, settings: dependencies.settings)
    }

    func settle(_ done: () -> Bool) async {
        for _ in 0..<300 where !done() { try? await Task.sleep(for: .milliseconds(10)) }
    }

    /// Plays book-1 and waits until the engine has it.
    func start(_ rig: Rig) async {
        rig.model.send(.play(bookID: "book-1"))
        await settle { rig.engine.log.value.loaded != nil }
        rig.engine.report(.status(.playing))
        await settle { rig.model.status == .playing }
    }

    @Test func playLoadsTheBookAsOneTimelineWithTheAudioAccess() async throws {
        let rig = try await rig()
        await start(rig)
        let loaded = try #require(rig.engine.log.value.loaded)
        #expect(loaded.files.map(\.start) == [0, 60_000])
        #expect(loaded.duration == 150_000)
        #expect(loaded.chapters.map(\.title) == ["One", "Two", "Three"])
        #expect(loaded.files.map(\.url.lastPathComponent) == ["af-1", "af-2"], "URLs come from the connection's audio access")
        #expect(rig.engine.calls.prefix(2) == ["load 0", "play"])
        #expect(rig.model.nowPlaying?.title == "Two Files")
        #expect(rig.model.chapterIndex == 0)
    }

    @Test func theNewerOfLocalAndServerPositionsWinsWithARewind() async throws {
        let twoHoursAgo = Date().addingTimeInterval(-7_200)
        let rig = try await rig(local: ListeningPosition(bookID: "book-1", position: 50_000, updatedAt: twoHoursAgo))
        await rig.server.setPositions([ListeningPosition(bookID: "book-1", position: 120_000, updatedAt: Date().addingTimeInterval(-30))])
        await start(rig)
        #expect(rig.engine.calls.first == "load 117000", "server newer: 120 s less 3 s after a short pause")

        let older = try await self.rig(local: ListeningPosition(bookID: "book-1", position: 50_000, updatedAt: twoHoursAgo))
        await older.server.setPositions([ListeningPosition(bookID: "book-1", position: 120_000, updatedAt: twoHoursAgo.addingTimeInterval(-60))])
        await start(older)
        #expect(older.engine.calls.first == "load 35000", "local newer: 50 s less 15 s after two hours")
    }

    @Test func pauseQueuesASpanThatReachesTheServer() async throws {
        let rig = try await rig()
        await start(rig)
        rig.engine.report(.position(12_000))
        await settle { rig.model.position == 12_000 }
        rig.model.send(.pause)
        await settle { !rig.server.spansSnapshot.isEmpty }
        let spans = await rig.server.spans
        #expect(spans.count == 1)
        #expect(spans.first.map { ($0.bookID, $0.start, $0.end, $0.deviceID) } ?? ("", 0, 0, "") == ("book-1", 0, 12_000, "device-test"))
        #expect(try rig.listening.position(bookID: "book-1")?.position == 12_000)
        #expect(try rig.listening.pendingSpans(limit: 10).isEmpty, "acknowledged spans are forgotten")
    }

    @Test func spansWaitOfflineAndGoLaterInOrder() async throws {
        let rig = try await rig()
        await rig.server.setOffline(true)
        await start(rig)
        rig.engine.report(.position(5_000))
        await settle { rig.model.position == 5_000 }
        rig.model.send(.seek(20_000))
        rig.engine.report(.position(26_000))
        await settle { rig.model.position == 26_000 }
        rig.model.send(.pause)
        await settle { (try? rig.listening.pendingSpans(limit: 10).count) == 2 }
        #expect(try rig.listening.pendingSpans(limit: 10).map(\.start) == [0, 20_000], "queued before sending, in order")

        await rig.server.setOffline(false)
        rig.model.send(.resume)
        rig.engine.report(.status(.playing))
        rig.engine.report(.position(27_000))
        rig.model.send(.pause)
        await settle { (try? rig.listening.pendingSpans(limit: 10).isEmpty) == true }
        let spans = await rig.server.spans
        #expect(spans.map(\.start).prefix(2) == [0, 20_000])
    }

    @Test func aChapterChangeCutsTheSpan() async throws {
        let rig = try await rig()
        await start(rig)
        rig.engine.report(.position(39_000))
        rig.engine.report(.position(41_000))
        await settle { rig.model.chapterIndex == 1 }
        await settle { !rig.server.spansSnapshot.isEmpty }
        let spans = await rig.server.spans
        #expect(spans.map(\.end) == [41_000])
        #expect(rig.model.chapter?.title == "Two")
    }

    @Test func chapterNavigationFollowsTheThreeSecondRule() async throws {
        let rig = try await rig()
        await start(rig)
        rig.engine.report(.position(45_000))
        await settle { rig.model.position == 45_000 }
        rig.model.send(.previousChapter)
        #expect(rig.model.position == 40_000, "5 s into chapter two: back to its start")
        rig.model.send(.previousChapter)
        #expect(rig.model.position == 0, "at its start: the chapter before")
        rig.model.send(.nextChapter)
        rig.model.send(.nextChapter)
        #expect(rig.model.position == 100_000)
        #expect(rig.model.chapterElapsed == 0)
        #expect(rig.model.chapterDuration == 50_000)
        rig.model.send(.chapter(9))
        #expect(rig.model.position == 100_000, "no such chapter: nothing moves")
    }

    @Test func skipLengthsComeFromThePreferences() async throws {
        let rig = try await rig(settings: AppSettings(playback: PlaybackSettings(skipBackSeconds: 15, skipForwardSeconds: 45)))
        await start(rig)
        rig.model.send(.skipForward)
        #expect(rig.model.position == 45_000)
        rig.model.send(.skipBack)
        #expect(rig.model.position == 30_000)
        rig.model.send(.skip(seconds: -100))
        #expect(rig.model.position == 0, "clamped to the book")
        #expect(rig.engine.calls.contains("seek 45000"))
    }

    @Test func rateIsSteppedKeptByTheBookAndCutsTheSpan() async throws {
        let rig = try await rig()
        await start(rig)
        rig.engine.report(.position(10_000))
        await settle { rig.model.position == 10_000 }
        rig.model.send(.rate(1.73))
        #expect(rig.model.rate == 1.75)
        #expect(rig.engine.log.value.rate == 1.75)
        #expect(try rig.listening.position(bookID: "book-1")?.playbackSpeed == 1.75, "the book's own speed")
        #expect(rig.settings.load().playback.rate == 1, "not the default speed")
        rig.model.send(.rate(9))
        #expect(rig.model.rate == 3)
        await settle { !rig.server.spansSnapshot.isEmpty }
        #expect(await rig.server.spans.first?.rate == 1, "the span before the change has the old speed")
        #expect(rig.model.timeLeftAtRate == 46_667)
    }

    @Test func theSleepTimerAtTheEndOfTheChapterFadesAndPauses() async throws {
        let rig = try await rig()
        await start(rig)
        rig.model.send(.sleep(.endOfChapter))
        rig.engine.report(.position(35_000))
        await settle { rig.model.position == 35_000 }
        #expect(rig.model.sleepRemaining == 5_000)
        #expect(abs(rig.engine.log.value.volume - 0.5) < 0.01, "halfway through the 10 s fade")
        rig.engine.report(.position(40_000))
        await settle { rig.model.sleepTimer == nil }
        #expect(rig.engine.calls.last == "pause")
        #expect(rig.engine.log.value.volume == 1, "the volume is back for next time")
    }

    @Test func aMinutesTimerCountsDown() async throws {
        let rig = try await rig()
        await start(rig)
        rig.model.send(.sleep(.minutes(15)))
        #expect(rig.model.sleepRemaining == 900_000)
        rig.engine.report(.position(1_000))
        await settle { rig.model.position == 1_000 }
        #expect((800_000..<900_000).contains(rig.model.sleepRemaining ?? 0), "counting down")
        rig.model.send(.sleep(nil))
        #expect(rig.model.sleepRemaining == nil)
    }

    @Test func positionsAreReportedEverySecondOnlyWhileSomeoneWatches() async throws {
        let rig = try await rig()
        await start(rig)
        #expect(rig.engine.log.value.positionInterval == .seconds(1), "watched until a front says otherwise")

        rig.model.isPositionWatched = false
        let saveDue = try #require(rig.engine.log.value.positionInterval)
        #expect(saveDue > .seconds(9) && saveDue <= .seconds(10), "unwatched: when the next save is due, \(saveDue)")
        rig.engine.report(.position(35_000))
        await settle { rig.model.position == 35_000 }
        #expect(rig.engine.log.value.positionInterval == .milliseconds(5_100), "just past the end of chapter One (40 s)")
        rig.model.send(.rate(2))
        #expect(rig.engine.log.value.positionInterval == .milliseconds(2_600), "chapter time at 2x")

        rig.model.send(.rate(1))
        rig.model.send(.seek(110_000))
        rig.model.send(.sleep(.minutes(1)))
        let afterSeek = try #require(rig.engine.log.value.positionInterval)
        #expect(afterSeek > .milliseconds(9_900) && afterSeek <= .seconds(10), "the fade's lead starts in 48 s: the save (at the seek) comes first")
        rig.engine.report(.position(110_500))
        await settle { rig.model.position == 110_500 }
        rig.model.send(.sleep(.endOfChapter))
        rig.engine.report(.position(140_000))
        await settle { rig.model.position == 140_000 }
        #expect(rig.engine.log.value.positionInterval == .milliseconds(250), "10 s to go: the fade slides four times a second")
        rig.model.send(.sleep(nil))
        rig.engine.report(.position(145_000))
        await settle { rig.model.position == 145_000 }
        #expect(rig.engine.log.value.positionInterval == .milliseconds(5_100), "timer off: the end of chapter Three")

        rig.model.isPositionWatched = true
        #expect(rig.engine.log.value.positionInterval == .seconds(1))
    }

    @Test func anUnwatchedPlayerStillSavesEveryTenSeconds() async throws {
        let rig = try await rig()
        await start(rig)
        rig.model.isPositionWatched = false
        rig.model.send(.seek(1_000))
        #expect(try rig.listening.position(bookID: "book-1")?.position == 1_000)
        // A report due for the save may come a hair early: it still saves.
        try await Task.sleep(for: .milliseconds(9_800))
        rig.engine.report(.position(10_800))
        await settle { rig.model.position == 10_800 }
        #expect(try rig.listening.position(bookID: "book-1")?.position == 10_800)
    }

    @Test func theLastBookIsOfferedPausedAndPlaysFromItsPosition() async throws {
        let item = ContinueListeningItem(bookID: "book-1", title: "Two Files", author: nil, position: 70_000, duration: 150_000,
                                         progress: 0.47, lastPlayedAt: Date().addingTimeInterval(-600))
        let rig = try await rig(continueListening: [item])
        #expect(rig.model.nowPlaying == nil, "nothing until a front asks")
        rig.model.offerLastBook()
        #expect(rig.model.nowPlaying?.title == "Two Files")
        #expect(rig.model.status == .paused)
        #expect(rig.model.position == 70_000)
        #expect(rig.model.chapterIndex == 1)
        #expect(rig.model.nowPlaying?.duration == 150_000)
        #expect(rig.engine.calls.isEmpty, "nothing is loaded (GStreamer stays unloaded) until play")

        rig.model.send(.seek(100_500))
        #expect(rig.model.chapterIndex == 2, "moving the offered book moves where it starts")
        rig.model.send(.togglePlayPause)
        await settle { rig.engine.log.value.loaded != nil }
        // From the moved position, saved a moment ago: no rewind, or the
        // 3 s one when a busy machine took over a second to get here.
        #expect(["load 100500", "load 97500"].contains(rig.engine.calls.first ?? ""), "\(rig.engine.calls)")
        #expect(rig.engine.calls.contains("play"))
    }

    @Test func theLastBookIsOfferedOnlyWhenNothingElseIsLoaded() async throws {
        let item = ContinueListeningItem(bookID: "missing", title: "Gone", author: nil, position: 1_000, duration: 2_000,
                                         progress: 0.5, lastPlayedAt: Date())
        let unknown = try await rig(continueListening: [item])
        unknown.model.offerLastBook()
        #expect(unknown.model.nowPlaying == nil, "a book not in the cache is not offered")
        #expect(unknown.model.status == .idle)

        let playing = try await rig(continueListening: [ContinueListeningItem(bookID: "book-1", title: "Two Files", author: nil, position: 1_000,
                                                                              duration: 150_000, progress: 0.01, lastPlayedAt: Date())])
        await start(playing)
        playing.engine.report(.position(30_000))
        await settle { playing.model.position == 30_000 }
        playing.model.offerLastBook()
        #expect(playing.model.status == .playing)
        #expect(playing.model.position == 30_000, "the book playing is never replaced")
    }

    @Test func aRefusedTokenIsRefreshedAndPlaybackContinuesWhereItWas() async throws {
        let rig = try await rig()
        await start(rig)
        rig.engine.report(.position(70_000))
        await settle { rig.model.position == 70_000 }
        rig.engine.report(.status(.failed(PlaybackFailure(.unauthorized, detail: "401", position: 70_000))))
        await settle { rig.engine.calls.contains("load 70000") }
        #expect(await rig.server.calls.contains("audio refreshed"))
        #expect(rig.engine.calls.contains("headers"))
        #expect(rig.model.status != .error)

        rig.engine.report(.status(.failed(PlaybackFailure(.notFound, detail: "404"))))
        await settle { rig.model.status == .error }
        #expect(rig.model.failure?.code == .notFound)
    }

    @Test func positionsFromOtherDevicesNeverMoveTheBookPlayingHere() async throws {
        let rig = try await rig()
        await start(rig)
        rig.engine.report(.position(8_000))
        await settle { rig.model.position == 8_000 }
        rig.model.positionReported(ListeningPosition(bookID: "book-1", position: 99_000, updatedAt: Date()))
        #expect(rig.model.position == 8_000)
        rig.model.positionReported(ListeningPosition(bookID: "book-7", position: 99_000, updatedAt: Date()))
        #expect(try rig.listening.position(bookID: "book-7")?.position == 99_000)
    }

    @Test func shutdownQueuesTheLastSpanAndSavesThePosition() async throws {
        let rig = try await rig()
        await start(rig)
        rig.engine.report(.position(30_000))
        await settle { rig.model.position == 30_000 }
        await rig.server.setOffline(true)
        await rig.model.shutdown(grace: .milliseconds(200))
        #expect(try rig.listening.pendingSpans(limit: 5).map(\.end) == [30_000])
        #expect(try rig.listening.position(bookID: "book-1")?.position == 30_000)
        #expect(rig.engine.calls.last == "stop")
    }
}

@Suite("Listening rules")
struct ListeningRulesTests {
    @Test func rewindGrowsWithThePause() {
        #expect(ListeningRules.rewind(afterPause: 0.4) == 0)
        #expect(ListeningRules.rewind(afterPause: 30) == 3_000)
        #expect(ListeningRules.rewind(afterPause: 3_600) == 15_000)
        #expect(ListeningRules.rewind(afterPause: 86_400 * 2) == 30_000)
    }

    @Test func aFinishedBookStartsOver() {
        let finished = ListeningPosition(bookID: "b", position: 149_500, updatedAt: Date())
        #expect(ListeningRules.resumePoint(local: finished, server: nil, duration: 150_000)?.position == 0)
        #expect(ListeningRules.resumePoint(local: nil, server: nil, duration: 150_000) == nil)
    }

    @Test func timelinesMapPositionsToFiles() {
        let url = URL(fileURLWithPath: "/dev/null")
        let timeline = PlaybackTimeline(bookID: "b", files: [
            .init(id: "1", url: url, start: 999, duration: 1_000), .init(id: "2", url: url, start: 0, duration: 2_000),
        ], chapters: [])
        #expect(timeline.locate(0)?.file == 0)
        #expect(timeline.locate(1_000).map { [$0.file, Int($0.offset)] } == [1, 0])
        #expect(timeline.locate(5_000).map { [$0.file, Int($0.offset)] } == [1, 2_000], "past the end: the end")
        #expect(timeline.chapters.map(\.start) == [0, 1_000], "no chapters: one per file")
    }
}
