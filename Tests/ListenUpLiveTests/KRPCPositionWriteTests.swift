import Foundation
import ListenUpAPI
import ListenUpKRPC
import Testing
@testable import ListenUpCore
@testable import ListenUpLive

/// `recordPosition` requests carry the whole row: the server replaces the
/// stored row with what is sent (contract addendum §1.1), so nothing the
/// row says may be dropped or defaulted.
@Suite("kRPC position writes carry the book's row")
struct KRPCPositionWriteTests {
    static let ended = Date(timeIntervalSince1970: 1_787_401_000)

    @Test func aSpanOfAFinishedBookWritesItFinishedWithItsBoostGainAndChapter() {
        let span = ListeningSpan(id: "s1", bookID: "b1", start: 1_000, end: 9_000, startedAt: Self.ended.addingTimeInterval(-8),
                                 endedAt: Self.ended, rate: 1.5, deviceID: "dev",
                                 book: ListeningPosition.Facts(finished: true, volumeBoostDb: 6, measuredGainDb: -3.5, chapterID: "ch2"))
        let request = KRPCMapping.positionRequest(span)
        #expect(request.bookId == "b1" && request.positionMs == 9_000 && request.lastPlayedAt == 1_787_401_000_000)
        #expect(request.finished)
        #expect(request.playbackSpeed == 1.5)
        #expect(request.volumeBoostDb == 6 && request.measuredGainDb == -3.5)
        #expect(request.currentChapterId == "ch2")
    }

    @Test func aSpanQueuedByAnOlderBuildWritesWhatThatBuildWrote() {
        let span = ListeningSpan(id: "s1", bookID: "b1", start: 0, end: 5_000, startedAt: Self.ended, endedAt: Self.ended, rate: 1, deviceID: "d")
        let request = KRPCMapping.positionRequest(span)
        #expect(!request.finished && request.volumeBoostDb == 0 && request.measuredGainDb == nil && request.currentChapterId == nil)
    }

    @Test func markingWritesTheRowAsItIsAndABlankRowAsTheUpstreamClientDoes() throws {
        let row = ListeningPosition(bookID: "b1", position: 0, updatedAt: Self.ended, finished: false, playbackSpeed: 1.25,
                                    volumeBoostDb: 3, measuredGainDb: nil, chapterID: "ch1")
        let request = KRPCMapping.positionRequest(row)
        #expect(!request.finished && request.positionMs == 0 && request.playbackSpeed == 1.25 && request.volumeBoostDb == 3)
        #expect(request.currentChapterId == "ch1" && request.lastPlayedAt == 1_787_401_000_000)
        let blank = KRPCMapping.positionRequest(ListeningPosition(bookID: "b2", position: 0, updatedAt: Self.ended, finished: true))
        #expect(blank.finished && blank.playbackSpeed == 1 && blank.volumeBoostDb == 0, "a book never played: speed 1, no boost")
    }

    @Test func aStoredRowReadsBackWithEveryField() {
        let payload = PlaybackPositionSyncPayload(id: "p1", bookId: "b1", positionMs: 4_500, lastPlayedAt: 1_787_401_000_000, finished: true,
                                                  playbackSpeed: 1.5, currentChapterId: "ch2", volumeBoostDb: 6, measuredGainDb: -3.5,
                                                  revision: 5, updatedAt: 1, createdAt: 1)
        let row = KRPCMapping.position(payload)
        #expect(row.finished && row.playbackSpeed == 1.5 && row.volumeBoostDb == 6 && row.measuredGainDb == -3.5 && row.chapterID == "ch2")
    }

    @Test func aLiveRowReachesTheLibraryWithEveryField() throws {
        let json = #"{"type":"SyncEvent.Updated","id":"p1","revision":9,"occurredAt":1787401000000,"payload":{"id":"p1","bookId":"b1","positionMs":4500,"lastPlayedAt":1787401000000,"finished":true,"playbackSpeed":1.5,"currentChapterId":"ch2","volumeBoostDb":6.0,"measuredGainDb":-3.5,"revision":9,"updatedAt":1787401000000,"createdAt":1787401000000}}"#
        let outcome = KRPCLiveEvents.translate(SyncFrame(domain: "playback_positions", revision: 9, json: json), duration: { _ in 9_000 })
        guard case .emit(let events) = outcome, let event = events.first else {
            Issue.record("no event: \(outcome)")
            return
        }
        guard case .progressChanged(let bookID, let progress, let position?) = event else {
            Issue.record("no position: \(event)")
            return
        }
        #expect(bookID == "b1" && progress == BookProgress(fraction: 1, finished: true))
        #expect(position.finished && position.playbackSpeed == 1.5 && position.volumeBoostDb == 6 && position.measuredGainDb == -3.5)
        #expect(position.chapterID == "ch2" && position.position == 4_500)
    }
}
