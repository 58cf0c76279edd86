import Foundation
import ListenUpTestSupport
import PairingProtocol
import Testing
@testable import ListenUpCore

/// The player as a paired device sees and drives it.
@MainActor
@Suite("The player remote")
struct PlayerRemoteTests {
    let models = PlayerModelTests()
    let phone = RemoteDevice(id: "device-1", name: "My Phone")

    @Test func withNoPlayerItIsIdleAndRefusesCommands() async throws {
        let remote = PlayerRemote()
        #expect(await remote.state() == RemotePlayerState())
        await #expect(throws: RemoteCommandError.self) { try await remote.perform(.pause, from: phone) }
    }

    @Test func commandsDriveThePlayerAndAreAnnounced() async throws {
        let rig = try await models.rig()
        let remote = PlayerRemote()
        remote.follow { rig.model }
        await #expect(throws: RemoteCommandError.nothingLoaded) { try await remote.perform(.pause, from: phone) }
        await #expect(throws: RemoteCommandError.unknownBook("nope")) { try await remote.perform(.playBook(bookID: "nope"), from: phone) }

        try await remote.perform(.playBook(bookID: "book-1"), from: phone)
        #expect(rig.model.remoteNotice?.message == "Playing from My Phone")
        await models.settle { rig.engine.log.value.loaded != nil }
        rig.engine.report(.status(.playing))
        await models.settle { rig.model.status == .playing }

        try await remote.perform(.chapter(index: 2), from: phone)
        #expect(rig.model.position == 100_000)
        #expect(rig.model.remoteNotice?.message == "Moved from My Phone")
        await #expect(throws: RemoteCommandError.self) { try await remote.perform(.chapter(index: 3), from: phone) }
        await #expect(throws: RemoteCommandError.self) { try await remote.perform(.seek(positionMs: 150_001), from: phone) }
        try await remote.perform(.rate(1.5), from: phone)
        try await remote.perform(.sleep(.endOfChapter), from: phone)
        try await remote.perform(.pause, from: phone)
        #expect(rig.engine.calls.last == "pause")
        #expect(rig.model.remoteNotice?.message == "Paused from My Phone")

        let state = await remote.state()
        #expect(state.bookID == "book-1")
        #expect(state.status == .playing, "the engine has not said it paused yet")
        #expect(state.chapterIndex == 2)
        #expect(state.chapterTitle == "Three")
        #expect(state.positionMs == 100_000)
        #expect(state.chapterPositionMs == 0)
        #expect(state.chapterDurationMs == 50_000)
        #expect(state.durationMs == 150_000)
        #expect(state.rate == 1.5)
        #expect(state.sleepEndOfChapter)
        #expect(state.sleepRemainingMs == 33_333)
    }

    @Test func aFollowingDeviceGetsThePositionAsItMoves() async throws {
        let rig = try await models.rig()
        let remote = PlayerRemote()
        remote.follow { rig.model }
        await models.start(rig)
        rig.model.isPositionWatched = false
        #expect(try #require(rig.engine.log.value.positionInterval) > .seconds(5), "the window hidden, nobody follows")
        remote.setFollowed(true)
        await models.settle { rig.model.hasRemoteFollowers }
        #expect(rig.engine.log.value.positionInterval == .seconds(1))
        remote.setFollowed(false)
        await models.settle { !rig.model.hasRemoteFollowers }
        #expect(try #require(rig.engine.log.value.positionInterval) > .seconds(5))
    }

    @Test func changesAreStreamedToEverySubscriber() async throws {
        let rig = try await models.rig()
        let remote = PlayerRemote()
        remote.follow { rig.model }
        var first = remote.stateChanges().makeAsyncIterator()
        var second = remote.stateChanges().makeAsyncIterator()
        #expect(await first.next()?.status == .idle)
        #expect(await second.next()?.status == .idle)
        rig.model.send(.play(bookID: "book-1"))
        var seen: RemotePlayerState?
        while let state = await first.next() {
            seen = state
            if state.bookID == "book-1" { break }
        }
        #expect(seen?.title == "Two Files")
    }
}
