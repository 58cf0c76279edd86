import Foundation
import ListenUpAPI
import ListenUpCore

/// Listening on REST v1 (contract §10, §11): audio by URL with the Bearer
/// header, progress as listening events.
extension APIClient {
    public func audioAccess(bookID: String, fileIDs: [String], afterRefusal: Bool) async throws(ServerError) -> AudioAccess {
        let token: String
        if afterRefusal {
            let current = try await refresher.requireSession()
            token = try await refresher.refreshed(after: current.accessToken, for: self).accessToken
        } else {
            token = try await refresher.accessToken(for: self)
        }
        var urls: [String: URL] = [:]
        for fileID in fileIDs {
            urls[fileID] = baseURL.appendingAPIPath(RawEndpoint.audio(bookID: bookID, fileID: fileID))
        }
        return AudioAccess(urls: urls, headers: ["Authorization": "Bearer \(token)"])
    }

    public func sendListening(_ spans: [ListeningSpan]) async throws(ServerError) -> ListeningAcknowledgement {
        func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
        let events = spans.map {
            ListeningEventDTO(id: $0.id, bookID: $0.bookID, startPositionMs: $0.start, endPositionMs: $0.end,
                              startedAt: milliseconds($0.startedAt), endedAt: milliseconds($0.endedAt),
                              playbackSpeed: $0.rate, deviceID: $0.deviceID, source: "playback")
        }
        let answer = try await authorized(.listeningEvents(ListeningEventsRequest(events: events)))
        return ListeningAcknowledgement(acknowledged: answer.acknowledged, failed: answer.failed)
    }

    public func listeningPositions(updatedAfter: Date?) async throws(ServerError) -> [ListeningPosition] {
        try await authorized(.listeningProgress(updatedAfter: updatedAfter)).items.map {
            ListeningPosition(bookID: $0.bookID, position: $0.currentPositionMs, updatedAt: $0.lastPlayedAt, finished: $0.isFinished)
        }
    }

    public func continueListening(limit: Int) async throws(ServerError) -> [ContinueListeningItem] {
        try await authorized(.continueListening(limit: limit)).items.map {
            ContinueListeningItem(bookID: $0.bookID, title: $0.title, author: $0.authorName, position: $0.currentPositionMs,
                                  duration: $0.totalDurationMs, progress: $0.progress, lastPlayedAt: $0.lastPlayedAt)
        }
    }

    /// `POST /books/{id}/progress/complete` or `…/restart`: the Go server
    /// keeps no speed or boost in its progress, so the row's other fields
    /// stay on this device.
    public func setFinished(_ finished: Bool, row: ListeningPosition) async throws(ServerError) {
        _ = try await authorized(finished ? .completeBook(row.bookID) : .restartBook(row.bookID))
    }
}
