import Foundation
import JSONToolkit
import ListenUpAPI
import ListenUpKRPC

/// `PlaybackService`, `PlaybackProgressService` and `BookService.getBook`
/// (§3.6–§3.8), with the REST mode's listening rules.
extension DemoKRPCService {
    /// `prepare(bookId, capabilities, forceTranscode)`: signed direct-play
    /// URLs for every file. The demo stores PCM WAV and has no encoder, so
    /// any non-null `capabilities` (none of them names PCM) gives
    /// `transcodeUnavailable` and no `hlsUrl`; null means direct play,
    /// whatever `forceTranscode` says (§6.3).
    func prepare(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let bookID = try call.decode("bookId", as: String.self)
        let capabilities = try call.decodeNullable("capabilities", as: [String].self)
        let forceTranscode = try call.decode("forceTranscode", as: Bool.self)
        if let id = bookID { try call.requireNotBlank(id) }
        if let unknown = capabilities?.first(where: { !CodecCapability.all.contains(CodecCapability(rawValue: $0)) }) {
            throw DemoKRPCCallFailure.undecodable("Unknown CodecCapability '\(unknown)'")
        }
        let id = try call.present(bookID, "bookId")
        _ = try call.present(forceTranscode, "forceTranscode")
        let userID = try call.userID
        guard let book = service.books.first(where: { $0.id == id }) else {
            return .result(DemoKRPCWrap.failure(.notFound(domain: "book", entityId: id)))
        }
        let now = Date()
        let files = book.audioFiles.enumerated().map { index, file in
            PreparedAudioFile(fileId: file.id, index: index, url: signer.audioURL(userID: userID, bookID: id, fileID: file.id, now: now),
                              format: file.format, durationMs: file.duration, sizeBytes: file.size)
        }
        let prepared = PreparedPlayback(bookId: id, audioFiles: files, resumePosition: position(userID: userID, bookID: id),
                                        coverUrl: book.coverImage == nil ? nil : signer.coverURL(userID: userID, bookID: id, now: now),
                                        transcodeUnavailable: capabilities != nil)
        return .result(DemoKRPCWrap.success(prepared.kotlinJSON))
    }

    /// `getPosition(bookId)`: the caller's position, or `null`.
    func getPosition(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let bookID = try call.decode("bookId", as: String.self)
        if let id = bookID { try call.requireNotBlank(id) }
        let id = try call.present(bookID, "bookId")
        guard service.books.contains(where: { $0.id == id }) else {
            return .result(DemoKRPCWrap.failure(.notFound(domain: "book", entityId: id)))
        }
        return .result(DemoKRPCWrap.success(position(userID: try call.userID, bookID: id)?.kotlinJSON ?? "null"))
    }

    /// `recordPosition(request)`: idempotent, the latest `lastPlayedAt` wins
    /// (an older or equal one leaves the stored position as it is).
    func recordPosition(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let request = try call.present(call.decode("request", as: RecordPositionRequest.self, requiredKeys: [
            "bookId", "positionMs", "lastPlayedAt", "finished", "playbackSpeed", "currentChapterId",
        ]), "request")
        try call.requireNotBlank(request.bookId)
        let userID = try call.userID
        guard service.books.contains(where: { $0.id == request.bookId }) else {
            return .result(DemoKRPCWrap.failure(.notFound(domain: "book", entityId: request.bookId)))
        }
        guard request.positionMs >= 0 else {
            return .result(DemoKRPCWrap.failure(.validation("positionMs is outside the book", field: "positionMs")))
        }
        let played = DemoKRPCMapping.date(milliseconds: request.lastPlayedAt)
        let stored = service.state.withLock { state -> PlaybackPositionSyncPayload in
            let now = Date()
            if let existing = state.listening.progress[userID]?[request.bookId], existing.lastPlayedAt >= played {
                let revision = state.ledger.revision(of: .playbackPositions, id: existing.id) ?? 0
                return DemoKRPCMapping.position(existing, bookID: request.bookId, revision: revision)
            }
            var progress = state.listening.progress[userID]?[request.bookId]
                ?? ListeningState.Progress(startedAt: played, lastPlayedAt: played, updatedAt: now, createdAt: now)
            progress.position = request.positionMs
            progress.lastPlayedAt = played
            progress.finishedAt = request.finished ? (progress.finishedAt ?? now) : nil
            progress.finished = request.finished
            progress.playbackSpeed = request.playbackSpeed
            progress.currentChapterID = request.currentChapterId
            progress.volumeBoostDb = request.volumeBoostDb
            progress.measuredGainDb = request.measuredGainDb
            progress.updatedAt = now
            state.storeProgress(progress, userID: userID, bookID: request.bookId, now: now)
            let revision = state.ledger.revision(of: .playbackPositions, id: progress.id) ?? 0
            return DemoKRPCMapping.position(progress, bookID: request.bookId, revision: revision)
        }
        return .result(DemoKRPCWrap.success(stored.kotlinJSON))
    }

    /// `recordListeningEvent(request)`: the REST mode's rules (end > start,
    /// applied once per id, the position only moves forward); a repeated id
    /// answers the stored event.
    func recordListeningEvent(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let request = try call.present(call.decode("request", as: RecordListeningEventRequest.self, requiredKeys: [
            "id", "bookId", "startPositionMs", "endPositionMs", "startedAt", "endedAt", "playbackSpeed", "tz", "deviceLabel",
        ]), "request")
        try call.requireNotBlank(request.bookId)
        let userID = try call.userID
        guard !RequestLimits.isBlank(request.id) else { return .result(DemoKRPCWrap.failure(.validation("id is blank", field: "id"))) }
        let durations = Dictionary(service.books.map { ($0.id, $0.totalDuration) }, uniquingKeysWith: { first, _ in first })
        let event = ListeningEventDTO(id: request.id, bookID: request.bookId, startPositionMs: request.startPositionMs,
                                      endPositionMs: request.endPositionMs, startedAt: request.startedAt, endedAt: request.endedAt,
                                      playbackSpeed: request.playbackSpeed, deviceID: request.deviceLabel ?? "", source: "krpc")
        let answer = service.state.withLock { state -> Result<ListeningEventSyncPayload, DemoAppFailure> in
            let now = Date()
            let details = ListeningState.EventDetails(tz: request.tz, deviceLabel: request.deviceLabel, receivedAt: now)
            // A non-blank, valid `tz` becomes the user's home time zone (`PlaybackServiceImpl.recordListeningEvent`).
            if TimeZone(identifier: request.tz) != nil, state.listening.events[userID]?[request.id] == nil {
                state.listening.homeTimeZones[userID] = request.tz
            }
            switch state.acceptListening(event, details: details, userID: userID, durations: durations, now: now, movesPosition: false) {
            case .accepted, .duplicate:
                guard let stored = state.listening.events[userID]?[request.id], let storedDetails = state.listening.details[request.id] else {
                    return .failure(.internalError)
                }
                let revision = state.ledger.revision(of: .listeningEvents, id: request.id) ?? 0
                return .success(DemoKRPCMapping.listeningEvent(stored, details: storedDetails, revision: revision))
            case .refused(let reason):
                return .failure(Self.failure(for: reason, request: request))
            }
        }
        switch answer {
        case .success(let payload): return .result(DemoKRPCWrap.success(payload.kotlinJSON))
        case .failure(let failure): return .result(DemoKRPCWrap.failure(failure))
        }
    }

    /// Which `PlaybackProgressService` list.
    enum PositionList {
        /// `getRecentlyListened(limit)`: started, not finished, latest first; 1…100.
        case recentlyListened
        /// `getCompletedBooks(limit)`: finished, latest first; 1…500.
        case completed
        /// `listProgress(limit)`: every position; 1…500.
        case all
    }

    /// One of the `PlaybackProgressService` lists, for the caller only.
    func positionList(_ call: DemoKRPCCall, kind: PositionList) throws -> DemoKRPCOutcome {
        let limit = try call.present(call.decode("limit", as: Int.self), "limit")
        let userID = try call.userID
        let upper = kind == .recentlyListened ? 100 : 500
        let count = min(max(limit, 1), upper)
        let positions = service.state.withLock { state in
            (state.listening.progress[userID] ?? [:]).map { bookID, progress in
                DemoKRPCMapping.position(progress, bookID: bookID,
                                         revision: state.ledger.revision(of: .playbackPositions, id: progress.id) ?? 0)
            }
        }
        let chosen: [PlaybackPositionSyncPayload]
        switch kind {
        case .recentlyListened:
            chosen = positions.filter { !$0.finished && $0.positionMs > 0 }.sorted { $0.lastPlayedAt > $1.lastPlayedAt }
        case .completed:
            chosen = positions.filter(\.finished).sorted { $0.lastPlayedAt > $1.lastPlayedAt }
        case .all:
            chosen = positions.sorted { $0.bookId < $1.bookId }
        }
        return .result(DemoKRPCWrap.success(JSONWriter.array(chosen.prefix(count).map(\.kotlinJSON))))
    }

    /// `getProgressBatch(bookIds)`: sparse, books without a position are left out.
    func getProgressBatch(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let ids = try call.present(call.decode("bookIds", as: [String].self), "bookIds")
        for id in ids { try call.requireNotBlank(id) }
        let userID = try call.userID
        let found = ids.compactMap { position(userID: userID, bookID: $0) }
        return .result(DemoKRPCWrap.success(JSONWriter.array(found.map(\.kotlinJSON))))
    }

    /// `BookService.getBook(id)`: one book, or `SyncError.NotFound{domain:"book"}`.
    func getBook(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let bookID = try call.decode("id", as: String.self)
        if let id = bookID { try call.requireNotBlank(id) }
        let id = try call.present(bookID, "id")
        let change = service.state.withLock { $0.ledger.latest[.books]?[id] }
        guard let change, change.kind != .deleted else {
            return .result(DemoKRPCWrap.failure(.notFound(domain: "book", entityId: id)))
        }
        return .result(DemoKRPCWrap.success(DemoKRPCMapping.payloadJSON(change, libraryID: libraryID)))
    }

    /// The caller's position in a book, if any.
    private func position(userID: String, bookID: String) -> PlaybackPositionSyncPayload? {
        service.state.withLock { state in
            guard let progress = state.listening.progress[userID]?[bookID] else { return nil }
            return DemoKRPCMapping.position(progress, bookID: bookID,
                                            revision: state.ledger.revision(of: .playbackPositions, id: progress.id) ?? 0)
        }
    }

    private static func failure(for reason: ListeningRefusal, request: RecordListeningEventRequest) -> DemoAppFailure {
        switch reason {
        case .unknownBook: return .notFound(domain: "book", entityId: request.bookId)
        case .emptyRange: return .validation("endPositionMs must be greater than startPositionMs", field: "endPositionMs")
        case .negativeStart: return .validation("startPositionMs must not be negative", field: "startPositionMs")
        case .badSpeed: return .validation("playbackSpeed must be in (0, 4]", field: "playbackSpeed")
        case .ownedByAnotherUser: return .validation("id is already used", field: "id")
        }
    }
}
