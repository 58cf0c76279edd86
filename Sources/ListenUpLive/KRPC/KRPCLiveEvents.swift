import Foundation
import ListenUpAPI
import ListenUpCore
import ListenUpKRPC
import ServerSentEvents

/// `observeEvents` frames (§3.4) as the live events the core's
/// `LibraryLiveUpdates` reads from a REST v1 server (`book.created`,
/// `book.deleted`, `listening.progress_updated`,
/// `listening.progress_deleted`, `contributor.updated`, `series.deleted`,
/// …). Pure; any thread.
enum KRPCLiveEvents {
    /// What one frame means for the stream.
    enum Outcome: Equatable, Sendable {
        /// Events to pass on (none for a heartbeat or a row the library does not keep).
        case emit([ServerSentEvent])
        /// The stream is over (`CursorStale`): end it, so the library syncs and resubscribes.
        case finish
        /// The server says the stream failed.
        case fail(AppError)
    }

    /// Translates `frame`; `duration` gives a book's length (for progress),
    /// `positionBook` the book of a position id (a deleted position's frame
    /// names the position only).
    static func translate(_ frame: SyncFrame, duration: (String) -> Int64?, positionBook: (String) -> String? = { _ in nil },
                          now: Date = Date()) -> Outcome {
        do {
            if frame.isControl { return control(try frame.control()) }
            switch frame.domain {
            case SyncDomain.books.rawValue:
                let event = try frame.event(as: BookSyncPayload.self)
                switch event.change {
                case .created(let payload), .updated(let payload):
                    if payload.isDeleted { return .emit([deleted(payload.id, at: payload.deletedAt ?? event.occurredAt)]) }
                    return .emit([live("book.created", BookCreatedPayload(book: KRPCMapping.syncBook(payload)), at: event.occurredAt)])
                case .deleted:
                    return .emit([deleted(event.id, at: event.occurredAt)])
                case .unknown:
                    return .emit([])
                }
            case SyncDomain.playbackPositions.rawValue:
                let event = try frame.event(as: PlaybackPositionSyncPayload.self)
                if case .deleted = event.change {
                    // Known only when this connection saw the position (or looked it up).
                    guard let bookID = positionBook(event.id) else { return .emit([]) }
                    return .emit([positionDeleted(bookID, at: event.occurredAt)])
                }
                guard let position = event.payload else { return .emit([]) }
                if position.isDeleted { return .emit([positionDeleted(position.bookId, at: position.deletedAt ?? event.occurredAt)]) }
                let length = duration(position.bookId) ?? 0
                let fraction = position.finished ? 1 : (length > 0 ? min(1, Double(position.positionMs) / Double(length)) : 0)
                let payload = ProgressUpdatedPayload(bookID: position.bookId, progress: fraction, isFinished: position.finished,
                                                     currentPositionMs: position.positionMs,
                                                     lastPlayedAt: KRPCMapping.date(position.lastPlayedAt),
                                                     playbackSpeed: position.playbackSpeed, volumeBoostDb: position.volumeBoostDb,
                                                     measuredGainDb: position.measuredGainDb, currentChapterID: position.currentChapterId)
                return .emit([live("listening.progress_updated", payload, at: event.occurredAt)])
            case SyncDomain.contributors.rawValue:
                return .emit(browseChanged("contributor", try frame.event(as: ContributorSyncPayload.self)) { $0.isDeleted })
            case SyncDomain.series.rawValue:
                return .emit(browseChanged("series", try frame.event(as: SeriesSyncPayload.self)) { $0.isDeleted })
            case SyncDomain.genres.rawValue:
                return .emit(browseChanged("genre", try frame.event(as: GenreSyncPayload.self)) { $0.isDeleted })
            case SyncDomain.tags.rawValue, SyncDomain.moods.rawValue:
                let prefix = frame.domain == SyncDomain.tags.rawValue ? "tag" : "mood"
                return .emit(browseChanged(prefix, try frame.event(as: LabelSyncPayload.self)) { $0.isDeleted })
            case SyncDomain.collections.rawValue:
                return .emit(browseChanged("collection", try frame.event(as: CollectionSyncPayload.self)) { $0.isDeleted })
            case SyncDomain.bookTags.rawValue, SyncDomain.bookMoods.rawValue, SyncDomain.collectionBooks.rawValue:
                // `book_tag.updated`, `book_mood.deleted`, `collection_book.updated`, …
                let prefix = String(frame.domain.dropLast())
                return .emit(browseChanged(prefix, try frame.event(as: MembershipSyncPayload.self)) { $0.isDeleted })
            case SyncDomain.shelves.rawValue:
                return .emit(browseChanged("shelf", try frame.event(as: ShelfSyncPayload.self)) { $0.isDeleted })
            case SyncDomain.shelfBooks.rawValue:
                // A book put on or taken off: the shelf changed.
                return .emit(browseChanged("shelf", try frame.event(as: ShelfBookSyncPayload.self)) { _ in false })
            case SyncDomain.publicProfiles.rawValue:
                return .emit(browseChanged("public_profile", try frame.event(as: PublicProfileSyncPayload.self)) { $0.isDeleted })
            case SyncDomain.activities.rawValue:
                return .emit(browseChanged("activity", try frame.event(as: ActivitySyncPayload.self)) { $0.isDeleted })
            default:
                return .emit([])
            }
        } catch {
            // A frame this build cannot read is skipped; the next sync brings its row.
            return .emit([])
        }
    }

    private static func control(_ control: SyncControl) -> Outcome {
        switch control {
        case .cursorStale:
            return .finish
        case .accessChanged, .libraryDataChanged:
            return .emit([ServerSentEvent(type: "library.access_mode_changed", data: "{}")])
        case .userDeleted(let reason):
            return .emit([live("user.deleted", UserDeletedPayload(reason: reason), at: Int64(Date().timeIntervalSince1970 * 1000))])
        case .streamError(let error):
            return .fail(error)
        case .preferencesChanged:
            // This app's own event type (REST v1 has none): read them again.
            return .emit([ServerSentEvent(type: LibraryLiveUpdates.preferencesChangedEvent, data: "{}")])
        case .activeSessionsChanged:
            // This app's own event type too: who listens now is asked again.
            return .emit([ServerSentEvent(type: LibraryLiveUpdates.listeningNowChangedEvent, data: "{}")])
        case .heartbeat, .activityChanged, .serverInfoChanged, .unknown:
            return .emit([])
        }
    }

    /// A browse row's change as REST v1 names it (`contributor.updated`,
    /// `series.deleted`, …; created counts as updated) with `{"id":…}`:
    /// the core only needs to know that the domain changed and syncs it.
    private static func browseChanged<Payload>(_ prefix: String, _ event: SyncEvent<Payload>,
                                               isDeleted: (Payload) -> Bool) -> [ServerSentEvent] {
        let deleted: Bool
        switch event.change {
        case .created(let payload), .updated(let payload): deleted = isDeleted(payload)
        case .deleted: deleted = true
        case .unknown: return []
        }
        let data = (try? ListenUpJSON.encoder.encode(["id": event.id])).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return [ServerSentEvent(type: "\(prefix).\(deleted ? "deleted" : "updated")", data: data)]
    }

    /// `listening.progress_deleted`: the book's position is gone (its resume point goes back to the start).
    private static func positionDeleted(_ bookID: String, at milliseconds: Int64) -> ServerSentEvent {
        live("listening.progress_deleted", BookIDPayload(bookID: bookID), at: milliseconds)
    }

    private static func deleted(_ id: String, at milliseconds: Int64) -> ServerSentEvent {
        live("book.deleted", BookDeletedPayload(deletedAt: KRPCMapping.date(milliseconds), bookID: id), at: milliseconds)
    }

    /// An event in REST's wrapper: `{"timestamp":…,"data":…,"type":…}`.
    private static func live<Payload: Encodable>(_ type: String, _ payload: Payload, at milliseconds: Int64) -> ServerSentEvent {
        let wrapped = Wrapper(timestamp: KRPCMapping.date(milliseconds), data: payload, type: type)
        let data = (try? ListenUpJSON.encoder.encode(wrapped)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return ServerSentEvent(type: type, data: data)
    }

    private struct Wrapper<Payload: Encodable>: Encodable {
        var timestamp: Date
        var data: Payload
        var type: String
    }
}

extension PlaybackPositionSyncPayload {
    /// A tombstone.
    var isDeleted: Bool { deletedAt != nil }
}
