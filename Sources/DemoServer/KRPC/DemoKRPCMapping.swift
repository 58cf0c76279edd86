import Crypto
import Foundation
import JSONToolkit
import ListenUpAPI
import ListenUpKRPC

/// The demo library's rows as the kRPC contract's payloads (§3.5): the same
/// books, files and chapters the REST mode serves, in the v0.9 shapes.
enum DemoKRPCMapping {
    /// The library and folder every generated book lives in.
    static let folderID = "folder-audiobooks"

    /// Epoch milliseconds of `date`.
    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1_000).rounded())
    }

    /// The date of epoch milliseconds.
    static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1_000)
    }

    /// The cover hash of a book: the `cover.hash` of its payload and its
    /// cover's `ETag`. The generated cover depends on the id alone, so the
    /// hash is computed from the id (hex SHA-256), not from the bytes.
    static func coverHash(bookID: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in SHA256.hash(data: Data("listenup-demo-cover-v1|\(bookID)".utf8)) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// A chapter's id: the REST contract's chapters have none.
    static func chapterID(bookID: String, index: Int) -> String {
        "\(bookID)-ch\(index + 1)"
    }

    /// `book` as a `BookSyncPayload` at `revision`; a tombstone when `deletedAt` is set.
    static func book(_ book: SyncBook, revision: Int64, deletedAt: Date?, libraryID: String) -> BookSyncPayload {
        let created = milliseconds(book.createdAt)
        var payload = BookSyncPayload(
            id: book.id, libraryId: libraryID, folderId: folderID, title: book.title, totalDuration: book.totalDuration,
            rootRelPath: book.path.hasPrefix("/audiobooks/") ? String(book.path.dropFirst("/audiobooks/".count)) : book.path,
            scannedAt: book.scannedAt.map(milliseconds) ?? created, revision: revision, updatedAt: milliseconds(book.updatedAt),
            createdAt: created)
        payload.subtitle = book.subtitle
        payload.description = book.description
        payload.publishYear = book.publishYear.flatMap { Int($0) }
        payload.publisher = book.publisher
        payload.language = book.language
        payload.isbn = book.isbn
        payload.asin = book.asin
        payload.abridged = book.abridged ?? false
        if book.coverImage != nil {
            payload.cover = CoverPayload(source: .filesystem, hash: coverHash(bookID: book.id))
        }
        payload.contributors = book.contributors.flatMap { contributor in
            contributor.roles.map { BookContributorPayload(id: contributor.contributorID, name: contributor.name,
                                                           role: ContributorRole(rawValue: $0), creditedAs: contributor.creditedAs) }
        }
        payload.series = (book.seriesInfo ?? []).map { info in
            BookSeriesPayload(id: info.seriesID, name: info.name, sequence: info.sequence.flatMap { Double($0) })
        }
        payload.genres = zip(book.genreIDs ?? [], book.genres ?? []).map { id, name in
            // The genre's place in the tree the `genres` domain serves.
            BookGenrePayload(id: id, name: name, slug: DemoFacets.slug(name), path: DemoFacets.place(of: name).path)
        }
        payload.audioFiles = book.audioFiles.enumerated().map { index, file in
            BookAudioFilePayload(id: file.id, index: index, filename: file.filename, format: file.format, codec: file.codec ?? "unknown",
                                 duration: file.duration, size: file.size, bitrate: file.bitrate,
                                 sampleRate: file.format == "wav" ? DemoAudio.sampleRate : nil, channels: file.format == "wav" ? 1 : nil)
        }
        payload.chapters = (book.chapters ?? []).map { chapter in
            BookChapterPayload(id: chapterID(bookID: book.id, index: chapter.index), title: chapter.title,
                               duration: chapter.endTime - chapter.startTime, startTime: chapter.startTime)
        }
        payload.deletedAt = deletedAt.map(milliseconds)
        return payload
    }

    /// A contributor as a `ContributorSyncPayload` at `revision`; a tombstone when `deletedAt` is set.
    static func contributor(_ contributor: DemoContributor, revision: Int64, deletedAt: Date?) -> ContributorSyncPayload {
        ContributorSyncPayload(id: contributor.id, name: contributor.name, sortName: contributor.sortName, revision: revision,
                               updatedAt: milliseconds(contributor.updatedAt), createdAt: milliseconds(contributor.createdAt),
                               deletedAt: deletedAt.map(milliseconds), description: contributor.description,
                               imagePath: contributor.imagePath)
    }

    /// A series as a `SeriesSyncPayload` at `revision`; a tombstone when `deletedAt` is set.
    static func series(_ series: DemoSeries, revision: Int64, deletedAt: Date?) -> SeriesSyncPayload {
        SeriesSyncPayload(id: series.id, name: series.name, sortName: series.sortName, revision: revision,
                          updatedAt: milliseconds(series.updatedAt), createdAt: milliseconds(series.createdAt),
                          deletedAt: deletedAt.map(milliseconds), description: series.description, coverPath: series.coverPath)
    }

    /// A user's progress in a book as a `PlaybackPositionSyncPayload`.
    static func position(_ progress: ListeningState.Progress, bookID: String, revision: Int64) -> PlaybackPositionSyncPayload {
        PlaybackPositionSyncPayload(
            id: progress.id, bookId: bookID, positionMs: progress.position, lastPlayedAt: milliseconds(progress.lastPlayedAt),
            finished: progress.finished, playbackSpeed: progress.playbackSpeed, currentChapterId: progress.currentChapterID,
            volumeBoostDb: progress.volumeBoostDb, measuredGainDb: progress.measuredGainDb, revision: revision,
            updatedAt: milliseconds(progress.updatedAt), createdAt: milliseconds(progress.createdAt))
    }

    /// An accepted listening event as a `ListeningEventSyncPayload`.
    static func listeningEvent(_ event: ListeningEventDTO, details: ListeningState.EventDetails,
                               revision: Int64) -> ListeningEventSyncPayload {
        ListeningEventSyncPayload(
            id: event.id, bookId: event.bookID, startPositionMs: event.startPositionMs, endPositionMs: event.endPositionMs,
            startedAt: event.startedAt, endedAt: event.endedAt, playbackSpeed: event.playbackSpeed, tz: details.tz,
            deviceLabel: details.deviceLabel, revision: revision, updatedAt: milliseconds(details.receivedAt),
            createdAt: milliseconds(details.receivedAt))
    }

    /// The row of `change` as its domain's payload JSON, with no `type`
    /// key: an item of a `SyncPage` or the `payload` of a `SyncEvent`.
    static func payloadJSON(_ change: DemoSyncChange, libraryID: String) -> String {
        switch change.row {
        case .book(let book):
            return Self.book(book, revision: change.revision, deletedAt: change.kind == .deleted ? change.occurredAt : nil,
                             libraryID: libraryID).kotlinJSON
        case .contributor(let contributor):
            return Self.contributor(contributor, revision: change.revision,
                                    deletedAt: change.kind == .deleted ? change.occurredAt : nil).kotlinJSON
        case .series(let series):
            return Self.series(series, revision: change.revision, deletedAt: change.kind == .deleted ? change.occurredAt : nil).kotlinJSON
        case .position(let bookID, let progress):
            return position(progress, bookID: bookID, revision: change.revision).kotlinJSON
        case .listeningEvent(let event, let details):
            return listeningEvent(event, details: details, revision: change.revision).kotlinJSON
        case .userStats(var row):
            row.revision = change.revision
            return row.kotlinJSON
        case .shelf(let shelf):
            return json(Self.shelf(shelf, revision: change.revision, deletedAt: change.kind == .deleted ? change.occurredAt : nil))
        case .shelfBook(let row):
            return json(shelfBook(row, revision: change.revision, deletedAt: change.kind == .deleted ? change.occurredAt : nil))
        case .genre, .label, .collection, .membership:
            return facetJSON(change) ?? "{}"
        case .publicProfile, .activity:
            return socialJSON(change)
        }
    }

    /// `change` as a `SyncEvent` (§3.4): Created/Updated with the row,
    /// Deleted without; `clientOpId` omitted (null).
    static func syncEventJSON(_ change: DemoSyncChange, libraryID: String) -> String {
        var object = JSONWriter.object()
        switch change.kind {
        case .created: object.string("type", "SyncEvent.Created")
        case .updated: object.string("type", "SyncEvent.Updated")
        case .deleted: object.string("type", "SyncEvent.Deleted")
        }
        object.string("id", change.id)
        object.integer("revision", change.revision)
        object.integer("occurredAt", milliseconds(change.occurredAt))
        if change.kind != .deleted { object.raw("payload", payloadJSON(change, libraryID: libraryID)) }
        return object.finished()
    }

    /// `change` as the `SyncFrame` an `observeEvents` stream sends.
    static func frameJSON(_ change: DemoSyncChange, libraryID: String) -> String {
        DemoKRPCWrap.frame(domain: change.domain.rawValue, revision: change.revision, json: syncEventJSON(change, libraryID: libraryID))
    }
}
