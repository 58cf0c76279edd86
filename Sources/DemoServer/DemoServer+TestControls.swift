import Foundation
import JSONToolkit
import ListenUpAPI
import ListenUpKRPC

/// In-process test controls, for both protocols unless a control says otherwise.
extension DemoServer {
    /// Every current access token stops working (REST: 401 "Authentication
    /// required"; kRPC: the authed upgrade and covers answer 401).
    public func expireAccessTokens() {
        service.state.withLock { $0.accessTokens.removeAll() }
        krpc?.tokens.expireAccessTokens()
    }

    /// Every session ends: refresh tokens are refused from now on (kRPC:
    /// `InvalidRefreshToken{familyRevoked:false}`; open event streams end
    /// with `SessionExpired` at their next liveness check).
    public func revokeAllSessions() {
        service.state.withLock {
            $0.sessions.removeAll()
            $0.accessTokens.removeAll()
        }
        krpc?.tokens.revokeAll()
    }

    /// Refills the auth rate-limit buckets.
    public func resetRateLimit() {
        service.state.withLock { $0.buckets.removeAll() }
    }

    /// Renames a book (its `updated_at` moves to now; kRPC: a new revision,
    /// a `SyncEvent.Updated` on open event streams).
    public func updateBook(id: String, title: String) {
        service.updateBook(id: id, title: title)
    }

    /// Deletes a book (REST delta syncs report it in `deleted_book_ids`;
    /// kRPC: a tombstone and a `SyncEvent.Deleted`); with `announce`, REST
    /// event streams get `book.deleted` too (the real server sends that
    /// only for access changes).
    public func deleteBook(id: String, announce: Bool = false) {
        let now = service.deleteBook(id: id)
        if announce { service.events.broadcast("book.deleted", BookDeletedPayload(deletedAt: now, bookID: id)) }
    }

    /// REST only: sends `listening.progress_updated` to every event stream.
    public func reportProgress(bookID: String, progress: Double, finished: Bool = false) {
        service.events.broadcast("listening.progress_updated", ProgressUpdatedPayload(bookID: bookID, progress: progress, isFinished: finished))
    }

    /// REST only: sends `library.scan_progress` with phase `complete` (clients run a delta sync).
    public func finishScan() {
        service.events.broadcast("library.scan_progress", ScanProgressPayload(phase: "complete"))
    }

    /// The role of the account `email` as kRPC names it (`ROOT`, `ADMIN`,
    /// `MEMBER`: an invite's role becomes the account's); nil for no such account.
    public func role(ofUser email: String) -> String? {
        service.state.withLock { $0.users.first { $0.email.caseInsensitiveCompare(email) == .orderedSame }?.role }
    }

    /// Open event streams (REST: `/api/v1/sync/events`; kRPC: `observeEvents` calls).
    public var eventStreamCount: Int {
        krpc == nil ? service.events.count : service.state.withLock { $0.ledger.observerCount }
    }

    /// Open kRPC sockets (kRPC mode; 0 otherwise): `dropEventStreams()`
    /// closes them on their event loops, and a test that must not reach an
    /// old one waits for this to fall to 0.
    public var kRPCSocketCount: Int { krpc?.openSocketCount ?? 0 }

    /// REST only: while true, `/api/v1/sync/events` answers 503, as a
    /// proxy restarting in front of the server would; the app keeps trying.
    public var refuseEventStreams: Bool {
        get { service.state.withLock { $0.eventStreamsRefused } }
        set { service.state.withLock { $0.eventStreamsRefused = newValue } }
    }

    /// Closes every event stream, as a restarting server or a dropped
    /// network would (kRPC: every WebSocket is dropped, without a close frame).
    public func dropEventStreams() {
        service.events.dropAll()
        krpc?.dropSockets()
    }

    /// Adds a book; returns its id (kRPC: a `SyncEvent.Created`).
    @discardableResult
    public func addBook(title: String) -> String {
        let book = service.addBook(title: title)
        service.events.broadcast("book.created", BookCreatedPayload(book: book))
        return book.id
    }

    /// Every listening event the server accepted, in order (duplicates once).
    public var acceptedListeningEvents: [ListeningEventDTO] {
        service.state.withLock { $0.listening.accepted }
    }

    /// The next `times` audio requests are answered with `status` (403: a
    /// file the user may not play).
    public func refuseAudio(status: Int, times: Int = 1) {
        service.state.withLock { $0.audioRefusal = times > 0 ? (status, times) : nil }
    }

    /// The next audio response stops after `bytes` body bytes and the
    /// connection closes, as a network drop would.
    public func cutNextAudio(after bytes: Int) {
        service.state.withLock { $0.audioCut = bytes }
    }

    /// One audio request as the server saw it and answered it.
    public struct AudioRequest: Sendable, Equatable, CustomStringConvertible {
        /// `GET` or `HEAD`.
        public var method: String
        /// The path asked for, without its query (a kRPC URL's signature is never kept).
        public var path: String
        /// The book of the path.
        public var bookID: String
        /// The audio file of the path.
        public var fileID: String
        /// The `Range` header as sent (`bytes=123-`), or nil for a whole-file request.
        public var range: String?
        /// The status answered (200, 206, 401, 403, 404, 416…).
        public var status: Int

        /// A request; each parameter sets the property of the same name.
        public init(method: String, path: String, bookID: String, fileID: String, range: String?, status: Int) {
            self.method = method
            self.path = path
            self.bookID = bookID
            self.fileID = fileID
            self.range = range
            self.status = status
        }

        /// `GET /api/v1/audio/b/f bytes=123- → 206`.
        public var description: String {
            "\(method) \(path) \(range ?? "(whole)") → \(status)"
        }

        /// The one-line JSON `--report-audio` prints:
        /// `{"event":"audio","bookId":…,"fileId":…,"range":"bytes=123-"|null,"status":206}`.
        public var jsonLine: String {
            var object = JSONWriter.object()
            object.string("event", "audio")
            object.string("bookId", bookID)
            object.string("fileId", fileID)
            object.string("range", range)
            object.integer("status", Int64(status))
            return object.finished()
        }
    }

    /// Every audio request served so far, oldest first, in both protocols
    /// (the last 10,000): how a test sees that a resumed download asked
    /// for the rest of a file (`range == "bytes=N-"`, status 206), not the
    /// whole of it.
    public func audioRequests() -> [AudioRequest] {
        service.state.withLock { $0.audioRequests }
    }

    /// Holds each audio response from now on to `bytesPerSecond`
    /// (at least ``minimumAudioRateLimit``); nil lifts the limit. A
    /// response already streaming keeps the rate it started with.
    public func setAudioRateLimit(_ bytesPerSecond: Int?) {
        service.state.withLock { $0.audioRateLimit = bytesPerSecond.map { max(Self.minimumAudioRateLimit, $0) } }
    }

    /// The slowest ``Configuration/audioRateLimit``: 1 KiB/s.
    public static let minimumAudioRateLimit = 1024

    /// How many requests reached `path` (e.g. `/api/v1/auth/refresh`;
    /// `/api/v1/audio` counts every audio request). kRPC also counts
    /// upgrade attempts by path (`/api/rpc/authed`, refused ones included)
    /// and calls by `Service.method` (e.g. `AuthServicePublic.refreshSession`).
    public func requestCount(_ path: String) -> Int {
        service.state.withLock { $0.requestCounts[path, default: 0] }
    }
}

extension DemoServer {
    /// A book's position row as the server stores it (for tests).
    public struct StoredPosition: Equatable, Sendable {
        public var positionMs: Int64
        public var finished: Bool
        public var playbackSpeed: Double
        public var volumeBoostDb: Double
        public var measuredGainDb: Double?
        public var currentChapterID: String?
        public var lastPlayedAt: Date
    }

    /// Writes every user's row of `bookID` as another device (a phone)
    /// would, and announces it live: on kRPC a whole `recordPosition` row
    /// (a `playback_positions` event), on REST v1 the position and whether
    /// it is finished (`listening.progress_updated`; the Go server keeps
    /// no speed or boost).
    public func recordPositionFromAnotherDevice(bookID: String, positionMs: Int64, finished: Bool, playbackSpeed: Double = 1,
                                                volumeBoostDb: Double = 0, measuredGainDb: Double? = nil, lastPlayedAt: Date = Date()) {
        let total = service.books.first { $0.id == bookID }?.totalDuration ?? 0
        let stored = service.state.withLock { state -> ListeningState.Progress? in
            let now = Date()
            var last: ListeningState.Progress?
            for user in state.users {
                var progress = state.listening.progress[user.id]?[bookID]
                    ?? ListeningState.Progress(startedAt: lastPlayedAt, lastPlayedAt: lastPlayedAt, updatedAt: now, createdAt: now)
                progress.position = positionMs
                progress.finished = finished
                progress.finishedAt = finished ? (progress.finishedAt ?? now) : nil
                progress.lastPlayedAt = lastPlayedAt
                progress.updatedAt = now
                if service.configuration.protocol == .krpc {
                    progress.playbackSpeed = playbackSpeed
                    progress.volumeBoostDb = volumeBoostDb
                    progress.measuredGainDb = measuredGainDb
                }
                state.storeProgress(progress, userID: user.id, bookID: bookID, now: now)
                last = progress
            }
            return last
        }
        guard let stored, service.configuration.protocol == .rest else { return }
        service.events.broadcast("listening.progress_updated", ProgressUpdatedPayload(
            bookID: bookID, progress: total > 0 ? min(1, Double(positionMs) / Double(total)) : 0, isFinished: finished,
            currentPositionMs: positionMs, finishedAt: stored.finishedAt, lastPlayedAt: lastPlayedAt))
    }

    /// The first user's stored row of `bookID` (nil when there is none).
    public func storedPosition(bookID: String) -> StoredPosition? {
        service.state.withLock { state in
            guard let user = state.users.first, let progress = state.listening.progress[user.id]?[bookID] else { return nil }
            return StoredPosition(positionMs: progress.position, finished: progress.finished, playbackSpeed: progress.playbackSpeed,
                                  volumeBoostDb: progress.volumeBoostDb, measuredGainDb: progress.measuredGainDb,
                                  currentChapterID: progress.currentChapterID, lastPlayedAt: progress.lastPlayedAt)
        }
    }
}

extension DemoServer {
    /// kRPC only: changes the account preferences of the user signed up
    /// with `email` (the first user when nil) as another device of theirs
    /// would: merged, clamped and kept as `updateMyPreferences` does, then
    /// `SyncControl.PreferencesChanged` on that user's event streams.
    /// - Returns: the preferences kept, or nil (REST mode, or no such user).
    @discardableResult
    public func updatePreferencesFromAnotherDevice(email: String? = nil, _ request: UpdateUserPreferencesRequest) -> UserPreferencesDto? {
        guard let krpc, let userID = userID(email: email) else { return nil }
        return krpc.updatePreferences(userID: userID, request)
    }

    /// kRPC only: the account preferences the server keeps for the user
    /// signed up with `email` (the first user when nil); the defaults for
    /// one who never set any; nil in REST mode or for no such user.
    public func storedPreferences(email: String? = nil) -> UserPreferencesDto? {
        guard let krpc, let userID = userID(email: email) else { return nil }
        return krpc.storedPreferences(userID: userID)
    }

    /// kRPC only: sends `SyncControl.PreferencesChanged` to the event
    /// streams of the user with id `userID` (none for an unknown id).
    public func publishPreferencesChanged(toUserID userID: String) {
        krpc?.publishControl(DemoKRPCWrap.preferencesChangedFrame, to: userID)
    }

    private func userID(email: String?) -> String? {
        service.state.withLock { state in
            (email.map { address in state.users.first { $0.email.caseInsensitiveCompare(address) == .orderedSame } } ?? state.users.first)?.id
        }
    }
}
