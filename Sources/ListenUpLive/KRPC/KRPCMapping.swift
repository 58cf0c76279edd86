import Foundation
import ListenUpCore
import ListenUpKRPC

/// The kRPC server's data (`ListenUpKRPC` DTOs) in the app's own types
/// the seam speaks (``ServerBook``, ``Contributor``, ``ListeningPosition``, …),
/// so no model knows which server it reads.
/// Pure functions; any thread.
enum KRPCMapping {
    /// An epoch-milliseconds time as a `Date`.
    static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
    }

    /// A `Date` as epoch milliseconds.
    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// A series sequence as the app keeps it (REST v1's way): `1.0` → `"1"`, `1.5` → `"1.5"`.
    static func sequence(_ value: Double?) -> String? {
        guard let value, value.isFinite else { return nil }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// One book as the seam's ``ServerBook``: files in play order, chapters
    /// with an end (start + duration) and the file they start in,
    /// contributors merged per person with their roles, series with names
    /// and places, genres with their paths, and a cover when the server has one.
    static func serverBook(_ payload: BookSyncPayload) -> ServerBook {
        let files = payload.audioFiles.sorted { $0.index < $1.index }
        var fileStarts: [(id: String, start: Int64)] = []
        var offset: Int64 = 0
        for file in files {
            fileStarts.append((file.id, offset))
            offset += file.duration
        }
        func fileID(at position: Int64) -> String {
            fileStarts.last { $0.start <= position }?.id ?? files.first?.id ?? ""
        }
        return ServerBook(
            id: payload.id, title: payload.title, createdAt: date(payload.createdAt), updatedAt: date(payload.updatedAt),
            subtitle: payload.subtitle, description: payload.description, publisher: payload.publisher,
            publishYear: payload.publishYear.map(String.init), language: payload.language, isbn: payload.isbn, asin: payload.asin,
            abridged: payload.abridged, hasCover: payload.cover != nil, contributors: contributors(payload),
            series: payload.series.map { ServerBook.SeriesPlace(id: $0.id, name: $0.name, sequence: sequence($0.sequence)) },
            genres: payload.genres.map { ServerBook.Genre(id: $0.id, name: $0.name, path: $0.path) },
            audioFiles: files.map {
                ServerBook.AudioFile(id: $0.id, format: $0.format, codec: $0.codec, size: $0.size, duration: $0.duration, bitrate: $0.bitrate)
            },
            chapters: payload.chapters.sorted { $0.startTime < $1.startTime }.map { chapter in
                ServerBook.Chapter(id: chapter.id, title: chapter.title, audioFileID: fileID(at: chapter.startTime),
                                   startTime: chapter.startTime, endTime: chapter.startTime + max(0, chapter.duration))
            },
            totalDuration: payload.totalDuration, totalSize: files.reduce(0) { $0 + $1.size }, revision: payload.revision)
    }

    /// The book's people, one entry per contributor with every role they
    /// have, in the order they first appear.
    static func contributors(_ payload: BookSyncPayload) -> [ServerBook.Contributor] {
        var merged: [ServerBook.Contributor] = []
        for person in payload.contributors {
            if let index = merged.firstIndex(where: { $0.id == person.id }) {
                if !merged[index].roles.contains(person.role.rawValue) { merged[index].roles.append(person.role.rawValue) }
            } else {
                merged.append(ServerBook.Contributor(id: person.id, name: person.name, roles: [person.role.rawValue],
                                                     creditedAs: person.creditedAs))
            }
        }
        return merged
    }

    /// A `pullDomain("books")` page as the seam's books page: live rows are
    /// books, tombstones deleted ids. `since` is where the page started; the
    /// cursor it gives back is the revision to go on from, on every page,
    /// the last one included (the next delta starts there). A page that says
    /// `hasMore` with no cursor is the last one (§3.4, the official client's
    /// defence), as is an empty page.
    static func booksPage(_ page: SyncPage, since: Int64) throws(KRPCDecodingError) -> ServerBooksPage {
        let payloads = try page.decodeItems(as: BookSyncPayload.self)
        let live = payloads.filter { !$0.isDeleted }.map(serverBook)
        let deleted = payloads.filter(\.isDeleted).map(\.id)
        let next = max(page.nextCursor ?? since, payloads.map(\.revision).max() ?? since, since)
        return ServerBooksPage(books: live, deletedBookIDs: deleted, nextCursor: KRPCCursor.text(next),
                               hasMore: page.hasMore && page.nextCursor != nil && !payloads.isEmpty)
    }

    /// A `contributors` row as the seam's ``Contributor``.
    static func contributor(_ payload: ContributorSyncPayload) -> Contributor {
        Contributor(id: payload.id, name: payload.name, sortName: payload.sortName, description: payload.description,
                    imagePath: payload.imagePath, updatedAt: date(payload.updatedAt))
    }

    /// A `series` row as the seam's ``Series``.
    static func series(_ payload: SeriesSyncPayload) -> Series {
        Series(id: payload.id, name: payload.name, sortName: payload.sortName, description: payload.description,
               coverPath: payload.coverPath, updatedAt: date(payload.updatedAt))
    }

    /// A `pullDomain("contributors")` page, with ``booksPage(_:since:)``'s
    /// rules: tombstones are deleted ids, the cursor the revision to go on
    /// from on every page, `hasMore` only with a cursor and rows.
    static func contributorsPage(_ page: SyncPage, since: Int64) throws(KRPCDecodingError) -> EntityPage<Contributor> {
        let payloads = try page.decodeItems(as: ContributorSyncPayload.self)
        return entityPage(page, since: since, rows: payloads.map { ($0.id, $0.revision, $0.isDeleted) },
                          live: payloads.filter { !$0.isDeleted }.map(contributor))
    }

    /// A `pullDomain("series")` page, with ``booksPage(_:since:)``'s rules.
    static func seriesPage(_ page: SyncPage, since: Int64) throws(KRPCDecodingError) -> EntityPage<Series> {
        let payloads = try page.decodeItems(as: SeriesSyncPayload.self)
        return entityPage(page, since: since, rows: payloads.map { ($0.id, $0.revision, $0.isDeleted) },
                          live: payloads.filter { !$0.isDeleted }.map(series))
    }

    static func entityPage<Entity>(_ page: SyncPage, since: Int64, rows: [(id: String, revision: Int64, deleted: Bool)],
                                           live: [Entity]) -> EntityPage<Entity> {
        let next = max(page.nextCursor ?? since, rows.map { $0.revision }.max() ?? since, since)
        return EntityPage(entities: live, deletedIDs: rows.filter { $0.deleted }.map { $0.id }, nextCursor: KRPCCursor.text(next),
                          hasMore: page.hasMore && page.nextCursor != nil && !rows.isEmpty)
    }

    /// A position row as the player keeps it: every field the server stores.
    static func position(_ payload: PlaybackPositionSyncPayload) -> ListeningPosition {
        ListeningPosition(bookID: payload.bookId, position: payload.positionMs, updatedAt: date(payload.lastPlayedAt),
                          finished: payload.finished, playbackSpeed: payload.playbackSpeed, volumeBoostDb: payload.volumeBoostDb,
                          measuredGainDb: payload.measuredGainDb, chapterID: payload.currentChapterId)
    }

    /// The `recordPosition` request for a span's end: the position and time
    /// it ended, its speed, and what the book's row said then (never a
    /// `finished: false` the row did not say: the server replaces the row
    /// wholesale, addendum §1.1–1.3).
    static func positionRequest(_ span: ListeningSpan) -> RecordPositionRequest {
        let book = span.book ?? ListeningPosition.Facts(finished: false)
        return RecordPositionRequest(bookId: span.bookID, positionMs: span.end, lastPlayedAt: milliseconds(span.endedAt),
                                     finished: book.finished, playbackSpeed: span.rate, currentChapterId: book.chapterID,
                                     volumeBoostDb: book.volumeBoostDb ?? 0, measuredGainDb: book.measuredGainDb)
    }

    /// The `recordPosition` request that writes `row` as it is (*Mark as
    /// finished*, *Mark as not started*): a speed never set is 1, a boost 0,
    /// as the upstream client's blank row (`blank()`).
    static func positionRequest(_ row: ListeningPosition) -> RecordPositionRequest {
        RecordPositionRequest(bookId: row.bookID, positionMs: max(0, row.position), lastPlayedAt: milliseconds(row.updatedAt),
                              finished: row.finished, playbackSpeed: row.playbackSpeed ?? 1, currentChapterId: row.chapterID,
                              volumeBoostDb: row.volumeBoostDb ?? 0, measuredGainDb: row.measuredGainDb)
    }

    /// What a listing needs of a book: its title, authors and length.
    struct BookSummary: Equatable, Sendable {
        var title: String
        var author: String?
        var duration: Int64
    }

    /// The summary of `book`.
    static func summary(_ book: ServerBook) -> BookSummary {
        let authors = book.names(withRole: "author")
        return BookSummary(title: book.title, author: authors.isEmpty ? nil : authors.joined(separator: ", "), duration: book.totalDuration)
    }

    /// A *Continue listening* entry: the position with the book's summary.
    static func continueItem(_ payload: PlaybackPositionSyncPayload, book: BookSummary?) -> ContinueListeningItem {
        let duration = book?.duration ?? 0
        let progress = duration > 0 ? min(1, max(0, Double(payload.positionMs) / Double(duration))) : 0
        return ContinueListeningItem(bookID: payload.bookId, title: book?.title ?? "", author: book?.author,
                                     position: payload.positionMs, duration: duration, progress: progress,
                                     lastPlayedAt: date(payload.lastPlayedAt))
    }

    /// A span as a `recordListeningEvent` request, in time zone `tz`, from
    /// the device named `deviceLabel` (its name, not the installation id
    /// the span keeps for REST v1: the server shows the label to people).
    static func listeningEvent(_ span: ListeningSpan, tz: String, deviceLabel: String?) -> RecordListeningEventRequest {
        RecordListeningEventRequest(id: span.id, bookId: span.bookID, startPositionMs: span.start, endPositionMs: span.end,
                                    startedAt: milliseconds(span.startedAt), endedAt: milliseconds(span.endedAt),
                                    playbackSpeed: span.rate, tz: tz, deviceLabel: deviceLabel)
    }
}

/// The sync cursor a kRPC connection hands the core: `rev:<revision>`,
/// opaque to everyone but this connection.
enum KRPCCursor {
    /// The text for `revision`.
    static func text(_ revision: Int64) -> String { "rev:\(revision)" }

    /// The revision in `text`, or nil for anything this connection did not make.
    static func revision(_ text: String?) -> Int64? {
        guard let text, text.hasPrefix("rev:") else { return nil }
        return Int64(text.dropFirst(4))
    }
}
