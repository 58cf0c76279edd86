import Foundation
import ListenUpAPI
import ListenUpCore
import Logging
import ServerSentEvents

/// REST v1's live events (`/api/v1/sync/events`, contract §11.3) as the
/// app's ``LibraryEvent``s, at the protocol's edge: `book.created` and
/// `book.deleted`, the progress events, a finished scan or an access change
/// (a delta sync: the server announces no edits), the account's deletion,
/// and the browse domains' hints. Pure; any thread.
public enum RESTLiveEvents {
    /// What `event` says, or nil for one the library does not follow
    /// (`connected`, heartbeats, a scan still under way) or cannot read
    /// (logged, with `logger`).
    public static func event(_ event: ServerSentEvent, logger: Logger? = nil) -> LibraryEvent? {
        let data = Data(event.data.utf8)
        func payload<Payload: Decodable & Sendable>(_ type: Payload.Type) -> Payload? {
            do {
                return try ListenUpJSON.decoder.decode(LiveEvent<Payload>.self, from: data).data
            } catch {
                logger?.warning("Unreadable live event", metadata: ["type": "\(event.type)", "reason": "\(error)"])
                return nil
            }
        }
        switch event.type {
        case "book.created":
            return payload(BookCreatedPayload.self).map { .bookChanged(ServerBook($0.book)) }
        case "book.deleted":
            return payload(BookDeletedPayload.self).map { .bookDeleted(id: $0.bookID) }
        case "listening.progress_updated":
            guard let update = payload(ProgressUpdatedPayload.self) else { return nil }
            let position = update.currentPositionMs.map {
                ListeningPosition(bookID: update.bookID, position: $0, updatedAt: update.lastPlayedAt ?? Date(), finished: update.isFinished,
                                  playbackSpeed: update.playbackSpeed, volumeBoostDb: update.volumeBoostDb,
                                  measuredGainDb: update.measuredGainDb, chapterID: update.currentChapterID)
            }
            return .progressChanged(bookID: update.bookID, progress: BookProgress(fraction: update.progress, finished: update.isFinished),
                                    position: position)
        case "listening.progress_deleted":
            guard let deleted = payload(BookIDPayload.self) else { return nil }
            let deletedAt = (try? ListenUpJSON.decoder.decode(EventTime.self, from: data))?.timestamp ?? Date()
            return .progressDeleted(bookID: deleted.bookID, at: deletedAt)
        case "library.scan_progress":
            guard let scan = payload(ScanProgressPayload.self) else { return nil }
            return scan.phase == "complete" ? .needsDeltaSync : nil
        case "library.access_mode_changed":
            return .needsDeltaSync
        case "user.deleted":
            // Signed out whatever the payload: the reason is a courtesy.
            let reason = (try? ListenUpJSON.decoder.decode(LiveEvent<UserDeletedPayload>.self, from: data))?.data.reason
            return .userDeleted(reason: reason)
        case let type where type.hasPrefix("contributor.") || type.hasPrefix("series."):
            // A person or a series renamed, described, merged or deleted:
            // a delta of the browse domains brings the rows.
            return .needsDeltaSync
        case let type where facetEventPrefixes.contains(where: type.hasPrefix):
            // A tag or collection, or a book's place in one, changed.
            return .needsDeltaSync
        case let type where type.hasPrefix("shelf."):
            // A shelf made, changed or deleted, a book put on or taken off:
            // no book row names its shelves, so the shelves alone.
            return .browseChanged([.shelves, .shelfBooks])
        case let type where type.hasPrefix("activity.") || type.hasPrefix("public_profile."):
            // Someone did something, or a name changed; no book row says so.
            return .browseChanged([.publicProfiles, .activities])
        default:
            return nil
        }
    }

    /// The Go server's facet hints (`tag.created`, `book.tag_added` /
    /// `_removed`, `collection.*`, contract §11.3) and the other facets'
    /// names, should a server send them.
    static let facetEventPrefixes = ["genre.", "tag.", "mood.", "collection.", "book_tag.", "book_mood.", "collection_book.", "book.tag_"]
}

/// When a live event happened (its wrapper's `timestamp`).
private struct EventTime: Decodable, Sendable {
    var timestamp: Date
}
