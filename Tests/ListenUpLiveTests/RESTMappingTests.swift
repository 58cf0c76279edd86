import Foundation
import ListenUpAPI
import ServerSentEvents
import Testing
@testable import ListenUpCore
@testable import ListenUpLive

/// REST v1's book DTOs and live events in the seam's own types, at the
/// protocol's edge (`RESTMapping.swift`, `RESTLiveEvents.swift`), and what
/// the cache keeps of them: the same columns and details bytes as before
/// the seam had types of its own.
@Suite("REST v1 data mapped into the core's types")
struct RESTMappingTests {
    static let added = Date(timeIntervalSince1970: 1_700_000_000)

    /// A book with two people (one with two roles, credited under another
    /// name), two series (one unnumbered), genres, a tag, two files and
    /// chapters out of order.
    static func book() -> SyncBook {
        var book = SyncBook(createdAt: added, updatedAt: added.addingTimeInterval(60), id: "b1", title: "A Wizard of Earthsea", path: "/b1",
                            audioFiles: [
                                AudioFile(id: "af-1", path: "/b1/1.mp3", filename: "1.mp3", format: "mp3", codec: "mp3", size: 100,
                                          duration: 60_000, bitrate: 64_000, inode: 1, modTime: 0),
                                AudioFile(id: "af-2", path: "/b1/2.mp3", filename: "2.mp3", format: "mp3", codec: nil, size: 200,
                                          duration: 90_000, bitrate: nil, inode: 2, modTime: 0),
                            ],
                            totalDuration: 150_000, totalSize: 300,
                            contributors: [
                                BookContributor(contributorID: "c1", name: "Ursula K. Le Guin", roles: ["author"]),
                                BookContributor(contributorID: "c2", name: "Kobna", roles: ["narrator", "translator"],
                                                creditedAs: "Kobna Holdbrook-Smith"),
                            ])
        book.subtitle = "A Novel"
        book.description = "<p>Hi</p>"
        book.publisher = "Ace"
        book.publishYear = "1969"
        book.coverImage = CoverImage(path: "", filename: "cover.jpg", format: "image/jpeg", size: 1)
        book.series = [SeriesLink(seriesID: "s1", sequence: "1"), SeriesLink(seriesID: "s2")]
        book.seriesInfo = [SeriesInfo(seriesID: "s1", name: "Earthsea", sequence: "1"), SeriesInfo(seriesID: "s2", name: "Hainish Cycle")]
        book.genres = ["Fantasy", "Classics"]
        book.genreIDs = ["g1", "g2"]
        book.tags = [ListenUpAPI.Tag(id: "t1", slug: "slow-burn", bookCount: 3)]
        book.chapters = [
            Chapter(title: "Two", audioFileID: "af-2", index: 1, startTime: 60_000, endTime: 150_000),
            Chapter(title: "One", audioFileID: "af-1", index: 0, startTime: 0, endTime: 60_000),
        ]
        return book
    }

    @Test func aBookKeepsItsPeopleSeriesGenresFilesAndChapters() {
        let book = ServerBook(Self.book())
        #expect(book.id == "b1" && book.title == "A Wizard of Earthsea" && book.subtitle == "A Novel" && book.hasCover)
        #expect(book.createdAt == Self.added && book.updatedAt == Self.added.addingTimeInterval(60) && book.revision == nil)
        #expect(book.contributors == [
            ServerBook.Contributor(id: "c1", name: "Ursula K. Le Guin", roles: ["author"]),
            ServerBook.Contributor(id: "c2", name: "Kobna", roles: ["narrator", "translator"], creditedAs: "Kobna Holdbrook-Smith"),
        ])
        #expect(book.series == [ServerBook.SeriesPlace(id: "s1", name: "Earthsea", sequence: "1"),
                                ServerBook.SeriesPlace(id: "s2", name: "Hainish Cycle")])
        #expect(book.genres == [ServerBook.Genre(id: "g1", name: "Fantasy"), ServerBook.Genre(id: "g2", name: "Classics")])
        #expect(book.tags == [ServerBook.Tag(id: "t1", slug: "slow-burn")])
        #expect(book.audioFiles == [
            ServerBook.AudioFile(id: "af-1", format: "mp3", codec: "mp3", size: 100, duration: 60_000, bitrate: 64_000),
            ServerBook.AudioFile(id: "af-2", format: "mp3", size: 200, duration: 90_000),
        ])
        #expect(book.chapters.map(\.title) == ["Two", "One"], "as the server sent them; the cache orders them")
        #expect(book.chapters.map(\.audioFileID) == ["af-2", "af-1"] && book.chapters.map(\.endTime) == [150_000, 60_000])
        #expect(book.totalDuration == 150_000 && book.totalSize == 300)
        var bare = Self.book()
        bare.coverImage = nil
        #expect(!ServerBook(bare).hasCover)
    }

    @Test func genresPairWithTheirIdsOnlyWhenTheListsLineUp() {
        #expect(ServerBook.genres(names: ["Fantasy", "Horror"], ids: ["g1"]).map(\.id) == ["Fantasy", "Horror"])
        #expect(ServerBook.genres(names: ["Fantasy", "Horror"], ids: ["g1", "g2"])
                    == [ServerBook.Genre(id: "g1", name: "Fantasy"), ServerBook.Genre(id: "g2", name: "Horror")])
    }

    /// The cache's columns and `details` bytes: what a cache written before
    /// the seam had its own types holds, so no resync is needed.
    @Test func theCachedRowIsTheSameBytesAsBefore() throws {
        let row = CachedBook(sortingKeys: ServerBook(Self.book()))
        #expect(row.authors == "Ursula K. Le Guin" && row.narrators == "Kobna" && row.series == "Earthsea #1, Hainish Cycle")
        #expect(row.duration == 150_000 && row.hasCover && row.revision == nil)
        let details = #"{"audioFiles":[{"duration":60000,"format":"mp3","id":"af-1","size":100},"#
            + #"{"duration":90000,"format":"mp3","id":"af-2","size":200}],"#
            + #""chapters":[{"duration":60000,"start":0,"title":"One"},{"duration":90000,"start":60000,"title":"Two"}],"#
            + #""contributors":[{"name":"Ursula K. Le Guin","roles":["author"]},"#
            + #"{"name":"Kobna Holdbrook-Smith","roles":["narrator","translator"]}],"#
            + #""description":"<p>Hi<\/p>","publishYear":"1969","publisher":"Ace","subtitle":"A Novel"}"#
        #expect(String(decoding: row.details, as: UTF8.self) == details)
        let links = BookLinks(ServerBook(Self.book()))
        #expect(links.people.map { "\($0.id):\($0.role)" } == ["c1:author", "c2:narrator", "c2:translator"])
        #expect(links.series.map(\.sequence) == ["1", nil] && links.tags.map(\.name) == ["Slow burn"])
        var flat = Self.book()
        flat.contributors = []
        flat.author = "A. Writer"
        flat.narrator = "A. Reader"
        let plain = CachedBook(sortingKeys: ServerBook(flat))
        #expect(plain.authors == "A. Writer" && plain.narrators == "A. Reader", "the flat credit when no one has the role")
    }

    @Test func aPageKeepsItsCursorAndDeletions() {
        let page = ServerBooksPage(SyncBooksResponse(nextCursor: "Mw==", books: [Self.book()], hasMore: true))
        #expect(page.books.map(\.id) == ["b1"] && page.deletedBookIDs.isEmpty && page.nextCursor == "Mw==" && page.hasMore)
        let delta = ServerBooksPage(SyncBooksResponse(nextCursor: nil, books: [], deletedBookIDs: ["gone"], hasMore: false))
        #expect(delta.deletedBookIDs == ["gone"] && delta.nextCursor == nil && !delta.hasMore)
    }

    static func event(_ type: String, _ data: String) -> ServerSentEvent {
        ServerSentEvent(type: type, data: #"{"timestamp":"2026-05-01T14:05:12Z","data":\#(data),"type":"\#(type)"}"#)
    }

    @Test func liveEventsBecomeLibraryEvents() throws {
        let book = try String(decoding: ListenUpJSON.encoder.encode(BookCreatedPayload(book: Self.book())), as: UTF8.self)
        guard case .bookChanged(let created)? = RESTLiveEvents.event(Self.event("book.created", book)) else {
            Issue.record("book.created is a changed book")
            return
        }
        #expect(created.id == "b1" && created.contributors.count == 2 && created.series.map(\.name) == ["Earthsea", "Hainish Cycle"])
        #expect(RESTLiveEvents.event(Self.event("book.deleted", #"{"deleted_at":"2026-05-01T14:05:12Z","book_id":"b1"}"#))
                    == .bookDeleted(id: "b1"))
        let at = Date(timeIntervalSince1970: 1_777_644_312)
        let progress = #"{"book_id":"b1","progress":0.5,"is_finished":false,"current_position_ms":75000,"last_played_at":"2026-05-01T14:05:12Z","#
            + #""playback_speed":1.5,"current_chapter_id":"ch-2"}"#
        #expect(RESTLiveEvents.event(Self.event("listening.progress_updated", progress))
                    == .progressChanged(bookID: "b1", progress: BookProgress(fraction: 0.5, finished: false),
                                        position: ListeningPosition(bookID: "b1", position: 75_000, updatedAt: at, playbackSpeed: 1.5,
                                                                    chapterID: "ch-2")))
        #expect(RESTLiveEvents.event(Self.event("listening.progress_deleted", #"{"book_id":"b1"}"#)) == .progressDeleted(bookID: "b1", at: at))
        #expect(RESTLiveEvents.event(Self.event("library.access_mode_changed", "{}")) == .needsDeltaSync)
        #expect(RESTLiveEvents.event(Self.event("contributor.updated", #"{"id":"c1"}"#)) == .needsDeltaSync)
        #expect(RESTLiveEvents.event(Self.event("book.tag_added", "{}")) == .needsDeltaSync)
        #expect(RESTLiveEvents.event(Self.event("shelf.created", "{}")) == .browseChanged([.shelves, .shelfBooks]))
        #expect(RESTLiveEvents.event(Self.event("user.deleted", #"{"reason":"Gone"}"#)) == .userDeleted(reason: "Gone"))
        #expect(RESTLiveEvents.event(ServerSentEvent(type: "heartbeat", data: "{}")) == nil)
        #expect(RESTLiveEvents.event(Self.event("book.created", #"{"book":{}}"#)) == nil, "an unreadable book changes nothing")
    }
}
