import Foundation
import ListenUpCore
import ListenUpKRPC

/// `observeEvents` frames (§3.4) as the app's ``LibraryEvent``s, which the
/// core's `LibraryLiveUpdates` applies: a book changed or deleted, a
/// position changed or deleted, a browse domain changed, the controls.
/// Pure; any thread.
enum KRPCLiveEvents {
    /// What one frame means for the stream.
    enum Outcome: Equatable, Sendable {
        /// Events to pass on (none for a heartbeat or a row the library does not keep).
        case emit([LibraryEvent])
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
                    if payload.isDeleted { return .emit([.bookDeleted(id: payload.id)]) }
                    return .emit([.bookChanged(KRPCMapping.serverBook(payload))])
                case .deleted:
                    return .emit([.bookDeleted(id: event.id)])
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
                return .emit([.progressChanged(bookID: position.bookId, progress: BookProgress(fraction: fraction, finished: position.finished),
                                               position: KRPCMapping.position(position))])
            case SyncDomain.contributors.rawValue:
                return .emit(changed(try frame.event(as: ContributorSyncPayload.self), .needsDeltaSync))
            case SyncDomain.series.rawValue:
                return .emit(changed(try frame.event(as: SeriesSyncPayload.self), .needsDeltaSync))
            case SyncDomain.genres.rawValue:
                return .emit(changed(try frame.event(as: GenreSyncPayload.self), .needsDeltaSync))
            case SyncDomain.tags.rawValue, SyncDomain.moods.rawValue:
                return .emit(changed(try frame.event(as: LabelSyncPayload.self), .needsDeltaSync))
            case SyncDomain.collections.rawValue:
                return .emit(changed(try frame.event(as: CollectionSyncPayload.self), .needsDeltaSync))
            case SyncDomain.bookTags.rawValue, SyncDomain.bookMoods.rawValue, SyncDomain.collectionBooks.rawValue:
                // A book tagged, given a mood, put in a collection or taken out.
                return .emit(changed(try frame.event(as: MembershipSyncPayload.self), .needsDeltaSync))
            case SyncDomain.shelves.rawValue:
                return .emit(changed(try frame.event(as: ShelfSyncPayload.self), .browseChanged([.shelves, .shelfBooks])))
            case SyncDomain.shelfBooks.rawValue:
                // A book put on or taken off: the shelf changed.
                return .emit(changed(try frame.event(as: ShelfBookSyncPayload.self), .browseChanged([.shelves, .shelfBooks])))
            case SyncDomain.publicProfiles.rawValue:
                return .emit(changed(try frame.event(as: PublicProfileSyncPayload.self), .browseChanged([.publicProfiles, .activities])))
            case SyncDomain.activities.rawValue:
                return .emit(changed(try frame.event(as: ActivitySyncPayload.self), .browseChanged([.publicProfiles, .activities])))
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
            return .emit([.needsDeltaSync])
        case .userDeleted(let reason):
            return .emit([.userDeleted(reason: reason)])
        case .streamError(let error):
            return .fail(error)
        case .preferencesChanged:
            // Read them again (REST v1 pushes no such change).
            return .emit([.preferencesChanged])
        case .activeSessionsChanged:
            // Who listens now is asked again (REST v1 pushes none either).
            return .emit([.listeningNowChanged])
        case .heartbeat, .activityChanged, .serverInfoChanged, .unknown:
            return .emit([])
        }
    }

    /// `result` for a row's change (created, updated or deleted alike:
    /// the core only needs to know that the domain changed and syncs it);
    /// nothing for a change this build does not know.
    private static func changed<Payload>(_ event: SyncEvent<Payload>, _ result: LibraryEvent) -> [LibraryEvent] {
        if case .unknown = event.change { return [] }
        return [result]
    }

    /// A book's position is gone as of `milliseconds`: its resume point goes back to the start.
    private static func positionDeleted(_ bookID: String, at milliseconds: Int64) -> LibraryEvent {
        .progressDeleted(bookID: bookID, at: KRPCMapping.date(milliseconds))
    }
}

extension PlaybackPositionSyncPayload {
    /// A tombstone.
    var isDeleted: Bool { deletedAt != nil }
}
