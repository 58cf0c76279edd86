import Foundation
import ListenUpAPI
import ListenUpKRPC

/// Test controls of the listening stats, for both protocols.
extension DemoServer {
    /// Records `minutes` minutes of listening to `bookID` (the first book
    /// when nil) at speed 1, ending at `end`, as another device of the user
    /// signed up with `email` (the first user when nil) would send it: one
    /// listening event (content and wall-clock time alike), from position
    /// 0, through the server's listening rules. The user's position is left
    /// alone, so a seed never finishes a book. REST answers it in
    /// `/api/v1/listening/stats`; kRPC re-derives the `user_stats` row (a
    /// new revision, an event on the user's open streams) and serves the
    /// event in `listening_events`.
    /// - Returns: the event's id, or nil (no such user or book, or `minutes` < 1).
    @discardableResult
    public func seedListening(email: String? = nil, bookID: String? = nil, minutes: Int, endingAt end: Date = Date()) -> String? {
        guard minutes >= 1, let book = bookID ?? service.books.first?.id else { return nil }
        let durations = Dictionary(service.books.map { ($0.id, $0.totalDuration) }, uniquingKeysWith: { first, _ in first })
        let endedAt = Int64((end.timeIntervalSince1970 * 1000).rounded(.down))
        let span = Int64(minutes) * 60_000
        let event = ListeningEventDTO(id: "seed-" + UUID().uuidString.lowercased(), bookID: book, startPositionMs: 0, endPositionMs: span,
                                      startedAt: endedAt - span, endedAt: endedAt, playbackSpeed: 1, deviceID: "another-device",
                                      source: "seed")
        return service.state.withLock { state -> String? in
            let address = email
            guard let user = address.map({ address in state.users.first { $0.email.caseInsensitiveCompare(address) == .orderedSame } })
                ?? state.users.first else { return nil }
            let now = Date()
            let details = ListeningState.EventDetails(tz: "UTC", deviceLabel: "another-device", receivedAt: now)
            guard case .accepted = state.acceptListening(event, details: details, userID: user.id, durations: durations, now: now,
                                                         movesPosition: false) else { return nil }
            return event.id
        }
    }

    /// kRPC: the `user_stats` row the server keeps for the user signed up
    /// with `email` (the first user when nil), as `getStats` answers it;
    /// nil before their first listening or in REST mode.
    public func storedUserStats(email: String? = nil) -> UserStatsSyncPayload? {
        guard krpc != nil else { return nil }
        return service.state.withLock { state in
            guard let user = email.map({ address in state.users.first { $0.email.caseInsensitiveCompare(address) == .orderedSame } })
                ?? state.users.first else { return nil }
            return state.storedUserStats(userID: user.id)
        }
    }
}
