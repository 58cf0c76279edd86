import Foundation
import ListenUpAPI

/// Listening progress and audio, with the real server's rules (contract
/// §10, §11.2). Shared by both protocols: the kRPC mode's positions and
/// listening events live here too.
struct ListeningState {
    struct Progress {
        var position: Int64 = 0
        var totalListened: Int64 = 0
        var finished = false
        var finishedAt: Date?
        var startedAt: Date
        var lastPlayedAt: Date
        var updatedAt: Date
        /// The position row's id (kRPC `PlaybackPositionSyncPayload.id`).
        var id = "pos-" + UUID().uuidString.lowercased()
        /// What the kRPC `recordPosition` stores beside the position.
        var playbackSpeed: Double = 1
        var currentChapterID: String?
        var volumeBoostDb: Double = 0
        var measuredGainDb: Double?
        var createdAt = Date()
    }

    /// What a kRPC listening event carries beyond the REST one.
    struct EventDetails: Sendable {
        var tz: String
        var deviceLabel: String?
        var receivedAt: Date
    }

    /// user id → event id → the event (a duplicate id is acknowledged once).
    var events: [String: [String: ListeningEventDTO]] = [:]
    /// Every accepted event, in order (for tests).
    var accepted: [ListeningEventDTO] = []
    /// Event id → its details.
    var details: [String: EventDetails] = [:]
    /// user id → book id → progress.
    var progress: [String: [String: Progress]] = [:]
    /// user id → home time zone (kRPC: the last valid `tz` of their
    /// listening events); the `user_stats` day math uses UTC without one.
    var homeTimeZones: [String: String] = [:]
}

/// Why a listening event is refused.
enum ListeningRefusal: Equatable {
    /// The book is not in the library.
    case unknownBook
    /// `end` is not after `start`.
    case emptyRange
    /// `start` is negative.
    case negativeStart
    /// The speed is outside (0, 4].
    case badSpeed
    /// Another user already sent an event with this id.
    case ownedByAnotherUser
}

/// What became of one listening event.
enum ListeningOutcome {
    /// Applied; the book's progress is now this.
    case accepted(ListeningState.Progress)
    /// Already applied once: acknowledged, not applied again.
    case duplicate
    /// Refused.
    case refused(ListeningRefusal)
}

extension DemoService.State {
    /// The real server's listening rules for one event, shared by both
    /// protocols: a known book, end > start ≥ 0, speed in (0, 4]; an id is
    /// applied once (a duplicate is acknowledged, not applied again); the
    /// position only moves forward (domain/listening.go:82); finished
    /// within 2 minutes of the end. Records the event and the position in
    /// the sync ledger.
    ///
    /// With `movesPosition` false (kRPC) the event is recorded and the
    /// position row left alone, as today's server does: its
    /// `recordListeningEvent` stores the event only, and positions are
    /// written by `recordPosition` (`PlaybackServiceImpl.kt`).
    mutating func acceptListening(_ event: ListeningEventDTO, details: ListeningState.EventDetails, userID: String,
                                  durations: [String: Int64], now: Date, movesPosition: Bool = true) -> ListeningOutcome {
        guard !event.bookID.isEmpty, let total = durations[event.bookID] else { return .refused(.unknownBook) }
        guard event.endPositionMs > event.startPositionMs else { return .refused(.emptyRange) }
        guard event.startPositionMs >= 0 else { return .refused(.negativeStart) }
        guard event.playbackSpeed > 0, event.playbackSpeed <= 4 else { return .refused(.badSpeed) }
        if listening.events.contains(where: { $0.key != userID && $0.value[event.id] != nil }) { return .refused(.ownedByAnotherUser) }
        if listening.events[userID, default: [:]][event.id] != nil { return .duplicate }
        listening.events[userID, default: [:]][event.id] = event
        listening.accepted.append(event)
        listening.details[event.id] = details
        guard movesPosition else {
            ledger.record(.listeningEvents, id: event.id, ownerID: userID, row: .listeningEvent(event, details), at: now)
            refreshUserStats(userID: userID, now: now)
            let untouched = listening.progress[userID]?[event.bookID]
                ?? ListeningState.Progress(startedAt: now, lastPlayedAt: now, updatedAt: now, createdAt: now)
            return .accepted(untouched)
        }
        let ended = Date(timeIntervalSince1970: Double(event.endedAt) / 1_000)
        var progress = listening.progress[userID]?[event.bookID]
            ?? ListeningState.Progress(startedAt: Date(timeIntervalSince1970: Double(event.startedAt) / 1_000),
                                       lastPlayedAt: ended, updatedAt: now, createdAt: now)
        progress.position = max(progress.position, event.endPositionMs)
        progress.totalListened += event.endPositionMs - event.startPositionMs
        progress.lastPlayedAt = max(progress.lastPlayedAt, ended)
        progress.playbackSpeed = event.playbackSpeed
        progress.updatedAt = now
        if !progress.finished, total - progress.position <= 120_000 {
            progress.finished = true
            progress.finishedAt = now
        }
        ledger.record(.listeningEvents, id: event.id, ownerID: userID, row: .listeningEvent(event, details), at: now)
        storeProgress(progress, userID: userID, bookID: event.bookID, now: now)
        refreshUserStats(userID: userID, now: now)
        return .accepted(progress)
    }

    /// Stores a user's progress in a book and records it in the sync
    /// ledger. A finish re-derives the user's stats, as the real server's
    /// completion cascade does; any other position write shows in them at
    /// the next event, finish or heal (`StatsRecorder`).
    mutating func storeProgress(_ progress: ListeningState.Progress, userID: String, bookID: String, now: Date) {
        let before = listening.progress[userID]?[bookID]
        listening.progress[userID, default: [:]][bookID] = progress
        ledger.record(.playbackPositions, id: progress.id, ownerID: userID, row: .position(bookID: bookID, progress), at: now)
        if progress.finished, before?.finished != true { refreshUserStats(userID: userID, now: now) }
        recordProgressActivities(userID: userID, bookID: bookID, before: before, after: progress, now: now)
        notePresence(userID: userID, bookID: bookID, finished: progress.finished, now: now)
    }
}
