import Foundation
import Testing
@testable import ListenUpCore

@Suite("Download rules")
struct DownloadRulesTests {
    func download(_ id: String, _ status: BookDownload.Status, at seconds: Double) -> BookDownload {
        BookDownload(bookID: id, title: id, authors: "", files: [], chapters: [], status: status,
                     requestedAt: Date(timeIntervalSince1970: seconds))
    }

    @Test func queuedBooksStartOldestFirstTwoAtATime() {
        let downloads = [
            download("c", .queued, at: 3), download("a", .queued, at: 1), download("done", .done, at: 0),
            download("b", .queued, at: 2), download("paused", .paused, at: 0),
        ]
        #expect(DownloadRules.toStart(downloads, running: 0) == ["a", "b"])
        #expect(DownloadRules.toStart(downloads, running: 1) == ["a"])
        #expect(DownloadRules.toStart(downloads, running: 2).isEmpty)
        #expect(DownloadRules.toStart(downloads, running: 0, limit: 5) == ["a", "b", "c"])
    }

    @Test func aFileOnDiskIsWholeContinuedOrFetchedAgain() {
        #expect(DownloadRules.step(onDisk: 100, size: 100) == .done)
        #expect(DownloadRules.step(onDisk: 0, size: 100) == .fetch(from: 0))
        #expect(DownloadRules.step(onDisk: 42, size: 100) == .fetch(from: 42))
        #expect(DownloadRules.step(onDisk: 101, size: 100) == .refetch)
    }

    @Test func aBookThatDoesNotFitIsRefusedNamingBothSizes() throws {
        #expect(DownloadRules.spaceRefusal(needed: 100, available: 100) == nil)
        #expect(DownloadRules.spaceRefusal(needed: 100, available: nil) == nil, "unknown free space does not refuse")
        let refusal = try #require(DownloadRules.spaceRefusal(needed: 512_300_000, available: 120_000_000))
        #expect(refusal.code == .noSpace)
        #expect(refusal.message.contains("512 MB"))
        #expect(refusal.message.contains("120 MB"))
    }

    @Test func failuresLeadToRefreshRefetchPauseOrFail() {
        #expect(DownloadRules.reaction(to: .status(401), refreshed: false, refetched: false) == .refreshAccess)
        #expect(DownloadRules.reaction(to: .status(403), refreshed: false, refetched: false) == .refreshAccess)
        #expect(DownloadRules.reaction(to: .status(401), refreshed: true, refetched: false) == .fail(DownloadRules.sessionLapsed))
        #expect(DownloadRules.reaction(to: .status(403), refreshed: true, refetched: false) == .fail(DownloadRules.forbidden))
        #expect(DownloadRules.reaction(to: .status(404), refreshed: false, refetched: false) == .fail(DownloadRules.notFound))
        #expect(DownloadRules.reaction(to: .oversized, refreshed: false, refetched: false) == .refetch)
        #expect(DownloadRules.reaction(to: .status(416), refreshed: false, refetched: false) == .refetch)
        #expect(DownloadRules.reaction(to: .oversized, refreshed: false, refetched: true) == .fail(DownloadRules.sizeMismatch))
        #expect(DownloadRules.reaction(to: .status(503), refreshed: false, refetched: false) == .pause(DownloadRules.network))
        #expect(DownloadRules.reaction(to: .network("reset"), refreshed: true, refetched: true) == .pause(DownloadRules.network))
        #expect(DownloadRules.reaction(to: .cancelled, refreshed: false, refetched: false) == .stop)
        guard case .pause(let full) = DownloadRules.reaction(to: .diskFull, refreshed: false, refetched: false) else {
            Issue.record("a full disk pauses")
            return
        }
        #expect(full.code == .diskFull)
        guard case .fail(let refused) = DownloadRules.reaction(to: .status(400), refreshed: false, refetched: false) else {
            Issue.record("another refusal fails")
            return
        }
        #expect(refused.code == .refused)
    }

    @Test func retriesWaitLongerEachTimeUpToTheLast() {
        let delays: [Duration] = [.seconds(1), .seconds(2), .seconds(3)]
        #expect(DownloadRules.retryDelay(attempt: 0, delays: delays) == .seconds(1))
        #expect(DownloadRules.retryDelay(attempt: 2, delays: delays) == .seconds(3))
        #expect(DownloadRules.retryDelay(attempt: 9, delays: delays) == .seconds(3))
        #expect(DownloadRules.retryDelay(attempt: 0, delays: []) == nil)
    }

    @Test func sizesAreWrittenInDecimalUnits() {
        #expect(Localization.bytes(0) == "0 bytes")
        #expect(Localization.bytes(1) == "1 byte")
        #expect(Localization.bytes(999) == "999 bytes")
        #expect(Localization.bytes(830_000) == "830 kB")
        #expect(Localization.bytes(512_300_000) == "512 MB")
        #expect(Localization.bytes(12_340_000) == "12.3 MB")
        #expect(Localization.bytes(1_234_000_000) == "1.2 GB")
    }

    @Test func fileNamesAreSafe() {
        #expect(BookDownload.fileName(index: 0, id: "af-1", format: "m4b") == "001-af-1.m4b")
        #expect(BookDownload.fileName(index: 11, id: "../../etc/passwd", format: "mp3/../x") == "012-______etc_passwd.mp3x")
    }
}
