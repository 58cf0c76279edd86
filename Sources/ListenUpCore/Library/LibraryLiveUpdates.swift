import Foundation
import ListenUpAPI
import Logging
import ServerSentEvents

/// Follows the server's live events (`/api/v1/sync/events` on REST v1) and applies what it says to the cache:
/// `book.created` and `book.deleted` change the books, progress events the
/// progress; a finished scan or an access change asks for a delta sync
/// (the server announces no edits, contract §11.3). Reconnects with
/// exponential back-off and jitter; each (re)connection asks for a delta
/// sync too, since live events are not replayed.
public struct LibraryLiveUpdates: Sendable {
    /// What happened, for the screen.
    public enum Change: Equatable, Sendable {
        /// The stream is open (run a delta sync: events may have been missed).
        case connected
        /// The stream broke; retrying after `retryIn`.
        case disconnected(retryIn: Duration)
        /// Books were added (or replaced) or removed in the cache: their ids.
        case booksChanged(upserted: [String], deleted: [String])
        /// Listening progress changed in the cache; with the position when
        /// the event gave one (the player's resume point for that book; a
        /// deleted position is position 0 as of the deletion).
        case progressChanged(ListeningPosition?)
        /// The server finished a scan or changed access: run a delta sync.
        case needsDeltaSync
        /// Only these browse domains changed (no book row did): a delta of
        /// them alone brings it.
        case browseChanged(Set<BrowseDomain>)
        /// The account is gone (`user.deleted`), with the server's reason if
        /// it gave one.
        case userDeleted(reason: String?)
        /// The account's playback preferences changed on the server
        /// (`preferences.changed`): read them again.
        case preferencesChanged
        /// Someone started or stopped listening: ask who listens now again.
        case listeningNowChanged
    }

    /// Waits between attempts: 1 s doubling to `maximum`, ±20 % jitter.
    public struct Backoff: Sendable {
        public var initial: Duration = .seconds(1)
        public var maximum: Duration = .seconds(60)

        public init(initial: Duration = .seconds(1), maximum: Duration = .seconds(60)) {
            self.initial = initial
            self.maximum = maximum
        }

        /// The wait before attempt `failures + 1`.
        public func delay(afterFailures failures: Int) -> Duration {
            let base = min(initial * (1 << min(failures, 20)), maximum)
            return base * Double.random(in: 0.8...1.2)
        }
    }

    let server: any ServerConnection
    let store: any LibraryStore
    var backoff: Backoff
    let logger: Logger

    public init(server: any ServerConnection, store: any LibraryStore, backoff: Backoff = Backoff(), logger: Logger) {
        self.server = server
        self.store = store
        self.backoff = backoff
        self.logger = logger
    }

    /// Runs until the task is cancelled or the session ends.
    public func run(onChange: @escaping @Sendable (Change) async -> Void) async {
        var failures = 0
        while !Task.isCancelled {
            do {
                let events = try await server.liveEvents()
                failures = 0
                logger.debug("Live updates connected")
                await onChange(.connected)
                for try await event in events {
                    if let change = apply(event) { await onChange(change) }
                }
                logger.debug("Live updates ended by the server")
            } catch ServerError.sessionLapsed {
                return
            } catch let error as ServerError {
                logger.debug("Live updates broke", metadata: ["code": "\(error.code)"])
            } catch {
                logger.debug("Live updates broke", metadata: ["reason": "\(error)"])
            }
            if Task.isCancelled { return }
            let wait = backoff.delay(afterFailures: failures)
            failures += 1
            await onChange(.disconnected(retryIn: wait))
            do { try await Task.sleep(for: wait) } catch { return }
        }
    }

    /// Applies one event to the cache; returns what changed.
    func apply(_ event: ServerSentEvent) -> Change? {
        let data = Data(event.data.utf8)
        func payload<Payload: Decodable & Sendable>(_ type: Payload.Type) -> Payload? {
            do {
                return try ListenUpJSON.decoder.decode(LiveEvent<Payload>.self, from: data).data
            } catch {
                logger.warning("Unreadable live event", metadata: ["type": "\(event.type)", "reason": "\(error)"])
                return nil
            }
        }
        do {
            switch event.type {
            case "book.created":
                guard let created = payload(BookCreatedPayload.self) else { return nil }
                try store.upsert([created.book])
                return .booksChanged(upserted: [created.book.id], deleted: [])
            case "book.deleted":
                guard let deleted = payload(BookDeletedPayload.self) else { return nil }
                try store.delete([deleted.bookID])
                return .booksChanged(upserted: [], deleted: [deleted.bookID])
            case "listening.progress_updated":
                guard let update = payload(ProgressUpdatedPayload.self) else { return nil }
                try store.setProgress(BookProgress(fraction: update.progress, finished: update.isFinished), for: update.bookID)
                let position = payload(ProgressPosition.self).flatMap { progress in
                    progress.currentPositionMs.map {
                        ListeningPosition(bookID: progress.bookID, position: $0, updatedAt: progress.lastPlayedAt ?? Date(),
                                          finished: progress.isFinished ?? false, playbackSpeed: progress.playbackSpeed,
                                          volumeBoostDb: progress.volumeBoostDb, measuredGainDb: progress.measuredGainDb,
                                          chapterID: progress.currentChapterID)
                    }
                }
                return .progressChanged(position)
            case "listening.progress_deleted":
                guard let deleted = payload(BookIDPayload.self) else { return nil }
                try store.setProgress(nil, for: deleted.bookID)
                // The resume point goes back to the start as of the deletion
                // (listening here after it still wins: it is newer).
                let deletedAt = (try? ListenUpJSON.decoder.decode(EventTime.self, from: data))?.timestamp ?? Date()
                return .progressChanged(ListeningPosition(bookID: deleted.bookID, position: 0, updatedAt: deletedAt))
            case "library.scan_progress":
                guard let scan = payload(ScanProgressPayload.self) else { return nil }
                return scan.phase == "complete" ? .needsDeltaSync : nil
            case "library.access_mode_changed":
                return .needsDeltaSync
            case "user.deleted":
                // Signed out whatever the payload: the reason is a courtesy.
                let reason = (try? ListenUpJSON.decoder.decode(LiveEvent<UserDeletedPayload>.self, from: data))?.data.reason
                return .userDeleted(reason: reason)
            case LibraryLiveUpdates.preferencesChangedEvent:
                return .preferencesChanged
            case LibraryLiveUpdates.listeningNowChangedEvent:
                return .listeningNowChanged
            case let type where type.hasPrefix("contributor.") || type.hasPrefix("series."):
                // A person or a series renamed, described, merged or
                // deleted: a delta of the browse domains brings the rows.
                return .needsDeltaSync
            case let type where Self.facetEventPrefixes.contains(where: type.hasPrefix):
                // A genre, tag, mood or collection, or a book's place in
                // one, changed: the same delta brings it.
                return .needsDeltaSync
            case let type where type.hasPrefix("shelf."):
                // A shelf made, changed or deleted, a book put on or taken
                // off (the Go server's `shelf.*`, kRPC's shelf domains): no
                // book row names its shelves, so the shelves alone.
                return .browseChanged([.shelves, .shelfBooks])
            case let type where type.hasPrefix("activity.") || type.hasPrefix("public_profile."):
                // kRPC's `activities` and `public_profiles` (KRPCLiveEvents.swift):
                // someone did something, or a name changed; no book row says so.
                return .browseChanged([.publicProfiles, .activities])
            default:
                // connected, heartbeat and events the library does not show.
                return nil
            }
        } catch {
            logger.error("Could not apply a live event to the cache", metadata: ["type": "\(event.type)", "reason": "\(error)"])
            return nil
        }
    }
}

extension LibraryLiveUpdates {
    /// `preferences.changed`: an event type of **this app's own**, not one
    /// of REST v1's (the Go server pushes no such change). The kRPC live
    /// stream turns today's server's `SyncControl.PreferencesChanged` into
    /// it (no payload: the account's preferences are read again).
    public static let preferencesChangedEvent = "preferences.changed"

    /// `listening_now.changed`: this app's own too. The kRPC live stream
    /// turns `SyncControl.ActiveSessionsChanged` (someone started or stopped
    /// listening, addendum §2.3) into it; the Go server pushes none.
    public static let listeningNowChangedEvent = "listening_now.changed"

    /// The facets' live events: kRPC's domain events as the stream names
    /// them (KRPCLiveEvents.swift: `genre.*`, `tag.*`, `mood.*`,
    /// `collection.*`, `book_tag.*`, `book_mood.*`, `collection_book.*`) and
    /// the Go server's hints (`tag.created`, `book.tag_added`/`_removed`,
    /// `collection.*`, REST contract §11.3).
    static let facetEventPrefixes = ["genre.", "tag.", "mood.", "collection.", "book_tag.", "book_mood.", "collection_book.", "book.tag_"]
}

/// When a live event happened (its wrapper's `timestamp`).
private struct EventTime: Decodable, Sendable {
    var timestamp: Date
}

/// The position fields of `listening.progress_updated` (contract §11.3).
private struct ProgressPosition: Decodable, Sendable {
    var bookID: String
    var currentPositionMs: Int64?
    var isFinished: Bool?
    var lastPlayedAt: Date?
    var playbackSpeed: Double?
    var volumeBoostDb: Double?
    var measuredGainDb: Double?
    var currentChapterID: String?

    enum CodingKeys: String, CodingKey {
        case bookID = "book_id"
        case currentPositionMs = "current_position_ms"
        case isFinished = "is_finished"
        case lastPlayedAt = "last_played_at"
        case playbackSpeed = "playback_speed"
        case volumeBoostDb = "volume_boost_db"
        case measuredGainDb = "measured_gain_db"
        case currentChapterID = "current_chapter_id"
    }
}
