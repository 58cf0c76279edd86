import Foundation
import ListenUpAPI
import KRPCSession
import ListenUpKRPC
import ServerSentEvents
import Testing
@testable import ListenUpCore
@testable import ListenUpLive

/// The kRPC server's data in the app's own types the seam speaks: books,
/// pages, positions, live events and errors.
@Suite("kRPC data mapped into the core's shapes")
struct KRPCMappingTests {
    static func book(id: String = "b1", revision: Int64 = 120, deletedAt: Int64? = nil) -> BookSyncPayload {
        var book = BookSyncPayload(id: id, libraryId: "lib", folderId: "f", title: "Leviathan Wakes", totalDuration: 9_000,
                                   rootRelPath: "Expanse/01", scannedAt: 1_787_300_000_000, revision: revision,
                                   updatedAt: 1_787_300_000_500, createdAt: 1_787_300_000_000)
        book.subtitle = "The Expanse 1"
        book.publishYear = 2011
        book.cover = CoverPayload(source: .embedded, hash: "abc")
        book.contributors = [
            BookContributorPayload(id: "c1", name: "James S. A. Corey", role: .author),
            BookContributorPayload(id: "c2", name: "Jefferson Mays", role: .narrator),
            BookContributorPayload(id: "c1", name: "James S. A. Corey", role: ContributorRole(rawValue: "EDITOR")),
        ]
        book.series = [BookSeriesPayload(id: "s1", name: "The Expanse", sequence: 1.0),
                       BookSeriesPayload(id: "s2", name: "Omnibus", sequence: 2.5)]
        book.audioFiles = [
            BookAudioFilePayload(id: "f2", index: 1, filename: "b.m4a", format: "m4a", codec: "aac", duration: 5_000, size: 50),
            BookAudioFilePayload(id: "f1", index: 0, filename: "a.m4a", format: "m4a", codec: "aac", duration: 4_000, size: 40, bitrate: 64_000),
        ]
        book.chapters = [BookChapterPayload(id: "ch2", title: "Two", duration: 5_000, startTime: 4_000),
                         BookChapterPayload(id: "ch1", title: "One", duration: 4_000, startTime: 0)]
        book.genres = [BookGenrePayload(id: "g-sf", name: "Science Fiction", slug: "science-fiction", path: "fiction/science-fiction"),
                       BookGenrePayload(id: "g-space", name: "Space Opera", slug: "space-opera", path: "fiction/science-fiction/space-opera")]
        book.deletedAt = deletedAt
        return book
    }

    @Test func aBookBecomesAServerBook() {
        let book = KRPCMapping.serverBook(Self.book())
        #expect(book.id == "b1" && book.title == "Leviathan Wakes" && book.revision == 120)
        #expect(book.createdAt == Date(timeIntervalSince1970: 1_787_300_000) && book.updatedAt == Date(timeIntervalSince1970: 1_787_300_000.5))
        #expect(book.audioFiles.map(\.id) == ["f1", "f2"], "play order")
        #expect(book.audioFiles.first?.bitrate == 64_000)
        #expect(book.totalDuration == 9_000 && book.totalSize == 90)
        #expect(book.chapters.map(\.title) == ["One", "Two"])
        #expect(book.chapters.map(\.id) == ["ch1", "ch2"])
        #expect(book.chapters.map(\.endTime) == [4_000, 9_000], "start + duration")
        #expect(book.chapters.map(\.audioFileID) == ["f1", "f2"], "the file each chapter starts in")
        #expect(book.contributors.count == 2)
        #expect(book.contributors.first?.roles == ["author", "editor"], "one entry per person, with every role")
        #expect(book.names(withRole: "narrator") == ["Jefferson Mays"])
        #expect(book.series.map(\.sequence) == ["1", "2.5"])
        #expect(book.series.map(\.id) == ["s1", "s2"])
        #expect(book.series.first?.name == "The Expanse")
        #expect(book.genres.map(\.id) == ["g-sf", "g-space"])
        #expect(book.genres.map(\.path) == ["fiction/science-fiction", "fiction/science-fiction/space-opera"])
        #expect(book.hasCover && book.publishYear == "2011" && book.subtitle == "The Expanse 1")
        let cached = CachedBook(book)
        #expect(cached.authors == "James S. A. Corey" && cached.narrators == "Jefferson Mays" && cached.hasCover)
        #expect(cached.series == "The Expanse #1, Omnibus #2.5")
        #expect(cached.decodedDetails.audioFiles?.map(\.id) == ["f1", "f2"])
        #expect(cached.decodedDetails.chapters.map(\.id) == ["ch1", "ch2"])
        let links = BookLinks(book)
        #expect(links.genres.map(\.path) == ["fiction/science-fiction", "fiction/science-fiction/space-opera"])
        #expect(links.people.map(\.role) == ["author", "editor", "narrator"])
        var bare = Self.book()
        bare.cover = nil
        #expect(!KRPCMapping.serverBook(bare).hasCover)
    }

    @Test func aPageNamesItsBooksItsTombstonesAndWhereToGoOn() throws {
        let items = try [Self.book(id: "b1", revision: 7), Self.book(id: "b2", revision: 9, deletedAt: 1_787_300_001_000)]
            .map { try KRPCJSON.encode($0) }
        let page = try KRPCMapping.booksPage(SyncPage(domain: "books", items: items, nextCursor: 9, hasMore: true), since: 3)
        #expect(page.books.map(\.id) == ["b1"])
        #expect(page.deletedBookIDs == ["b2"])
        #expect(page.nextCursor == "rev:9" && page.hasMore)
        #expect(KRPCCursor.revision(page.nextCursor) == 9)

        let empty = try KRPCMapping.booksPage(SyncPage(domain: "books", items: [], nextCursor: nil, hasMore: false), since: 9)
        #expect(empty.books.isEmpty && !empty.hasMore && empty.nextCursor == "rev:9", "the last page names the next delta's start")
        let odd = try KRPCMapping.booksPage(SyncPage(domain: "books", items: items, nextCursor: nil, hasMore: true), since: 3)
        #expect(!odd.hasMore, "hasMore without a cursor ends the pull")
        #expect(KRPCCursor.revision("2026-01-01") == nil && KRPCCursor.revision(nil) == nil)
    }

    @Test func positionsAndContinueListening() {
        let position = PlaybackPositionSyncPayload(id: "p1", bookId: "b1", positionMs: 4_500, lastPlayedAt: 1_787_401_000_000, finished: false,
                                                   playbackSpeed: 1.25, currentChapterId: nil, revision: 5, updatedAt: 1, createdAt: 1)
        #expect(KRPCMapping.position(position) == ListeningPosition(bookID: "b1", position: 4_500,
                                                                    updatedAt: Date(timeIntervalSince1970: 1_787_401_000),
                                                                    playbackSpeed: 1.25, volumeBoostDb: 0))
        let item = KRPCMapping.continueItem(position, book: KRPCMapping.summary(KRPCMapping.serverBook(Self.book())))
        #expect(item.title == "Leviathan Wakes" && item.author == "James S. A. Corey" && item.duration == 9_000)
        #expect(item.progress == 0.5 && item.position == 4_500)
        let span = ListeningSpan(id: "s1", bookID: "b1", start: 1_000, end: 2_000, startedAt: Date(timeIntervalSince1970: 10),
                                 endedAt: Date(timeIntervalSince1970: 11), rate: 1, deviceID: "dev")
        let event = KRPCMapping.listeningEvent(span, tz: "Europe/Berlin", deviceLabel: "ada-laptop")
        #expect(event.startedAt == 10_000 && event.endedAt == 11_000 && event.tz == "Europe/Berlin")
        #expect(event.deviceLabel == "ada-laptop", "the device's name, not the installation id")
    }

    static func frame(_ domain: String, revision: Int64?, _ json: String) -> SyncFrame {
        SyncFrame(domain: domain, revision: revision, json: json)
    }

    @Test func liveFramesBecomeTheEventsTheLibraryFollows() throws {
        let payload = try KRPCJSON.encode(Self.book(id: "b9", revision: 30))
        let created = Self.frame("books", revision: 30,
                                 #"{"type":"SyncEvent.Created","id":"b9","revision":30,"occurredAt":1787400000000,"payload":"# + payload + "}")
        guard case .emit(let events) = KRPCLiveEvents.translate(created, duration: { _ in nil }), let event = events.first else {
            Issue.record("no event")
            return
        }
        guard case .bookChanged(let book) = event else {
            Issue.record("a book changed: \(event)")
            return
        }
        #expect(book == KRPCMapping.serverBook(Self.book(id: "b9", revision: 30)))
        #expect(book.audioFiles.count == 2)

        let deleted = Self.frame("books", revision: 31, #"{"type":"SyncEvent.Deleted","id":"b9","revision":31,"occurredAt":1787400000000}"#)
        #expect(KRPCLiveEvents.translate(deleted, duration: { _ in nil }) == .emit([.bookDeleted(id: "b9")]))

        let position = Self.frame("playback_positions", revision: 32, #"""
        {"type":"SyncEvent.Updated","id":"p1","revision":32,"occurredAt":1787401000123,"payload":{"id":"p1","bookId":"b9","positionMs":2250,"lastPlayedAt":1787401000000,"finished":false,"playbackSpeed":1.25,"currentChapterId":null,"revision":32,"updatedAt":1787401000123,"createdAt":1787300000000,"deletedAt":null}}
        """#)
        let played = ListeningPosition(bookID: "b9", position: 2_250, updatedAt: Date(timeIntervalSince1970: 1_787_401_000), playbackSpeed: 1.25,
                                       volumeBoostDb: 0)
        #expect(KRPCLiveEvents.translate(position, duration: { $0 == "b9" ? 9_000 : nil })
                    == .emit([.progressChanged(bookID: "b9", progress: BookProgress(fraction: 0.25, finished: false), position: played)]))

        let heartbeat = Self.frame("control", revision: nil, #"{"type":"SyncControl.Heartbeat"}"#)
        #expect(KRPCLiveEvents.translate(heartbeat, duration: { _ in nil }) == .emit([]))
        let stale = Self.frame("control", revision: nil, #"{"type":"SyncControl.CursorStale","lastKnownRevision":4}"#)
        #expect(KRPCLiveEvents.translate(stale, duration: { _ in nil }) == .finish)
        let access = Self.frame("control", revision: nil, #"{"type":"SyncControl.AccessChanged"}"#)
        #expect(KRPCLiveEvents.translate(access, duration: { _ in nil }) == .emit([.needsDeltaSync]))
        let other = Self.frame("library_folders", revision: 33, #"{"type":"SyncEvent.Deleted","id":"t","revision":33,"occurredAt":1}"#)
        #expect(KRPCLiveEvents.translate(other, duration: { _ in nil }) == .emit([]), "a domain the library does not keep")
        let activity = Self.frame("activities", revision: 33, #"{"type":"SyncEvent.Deleted","id":"t","revision":33,"occurredAt":1}"#)
        #expect(KRPCLiveEvents.translate(activity, duration: { _ in nil })
                    == .emit([.browseChanged([.publicProfiles, .activities])]), "the feed (Discover) follows it")
        let tag = Self.frame("tags", revision: 33, #"{"type":"SyncEvent.Deleted","id":"t","revision":33,"occurredAt":1}"#)
        #expect(KRPCLiveEvents.translate(tag, duration: { _ in nil }) == .emit([.needsDeltaSync]))
        let shelf = Self.frame("shelves", revision: 34, #"{"type":"SyncEvent.Deleted","id":"s","revision":34,"occurredAt":1}"#)
        #expect(KRPCLiveEvents.translate(shelf, duration: { _ in nil }) == .emit([.browseChanged([.shelves, .shelfBooks])]))
    }

    @Test func errorsReadAsTheScreensExpect() {
        #expect(KRPCErrorMapping.error(AppError(type: "AuthError.InvalidCredentials")).code == "invalidCredentials")
        let limited = KRPCErrorMapping.error(AppError(type: "AuthError.RateLimited", fields: ["retryAfterSeconds": .integer(6)]))
        #expect(limited == .rateLimitedFor(seconds: 6) && limited.code == "rateLimited")
        #expect(limited.userMessage.contains("6 seconds"))
        #expect(KRPCErrorMapping.error(AppError(type: "AuthError.SetupAlreadyComplete")).code == "conflict")
        #expect(KRPCErrorMapping.error(AppError(type: "AuthError.InvalidRefreshToken", fields: ["familyRevoked": .bool(true)])) == .sessionLapsed)
        let newer = KRPCErrorMapping.error(AppError(type: "QuotaError.Exceeded"))
        #expect(newer == .serverNewer("QuotaError.Exceeded") && newer.userMessage.contains("newer than the app"))
        #expect(KRPCErrorMapping.error(KRPCSessionError.timedOut(method: "pullDomain")) == .transport(.timedOut))
        #expect(KRPCErrorMapping.error(AppError(type: "AppError.InternalError")).code == "serverError")
    }
}
