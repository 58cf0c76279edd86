import Foundation
import ListenUpAPI
import ListenUpKRPC

/// Someone listening now: the demo's active sessions (upstream
/// `server/.../services/ActiveSessionRepository.kt`). Any unfinished
/// position write starts or refreshes the writer's session on that book;
/// finishing the book ends it, and one not refreshed for 30 minutes is over
/// (addendum §1.1, §3.7). The neighbour's come from a test control.
struct DemoPresence: Sendable {
    var bookID: String
    var startedAt: Date
    var refreshedAt: Date

    /// How long a session lasts after its last position write.
    static let lifetime: TimeInterval = 30 * 60

    func isLive(at now: Date) -> Bool { now.timeIntervalSince(refreshedAt) < Self.lifetime }
}

extension DemoService.State {
    /// A position write of `userID` in `bookID`: an unfinished one starts or
    /// refreshes their session, a finished one ends a session on that book.
    /// Counts the change (``presenceRevision``) when a session starts or ends.
    mutating func notePresence(userID: String, bookID: String, finished: Bool, now: Date) {
        let current = presence[userID]
        if finished {
            guard current?.bookID == bookID else { return }
            presence[userID] = nil
        } else if let current, current.bookID == bookID, current.isLive(at: now) {
            presence[userID]?.refreshedAt = now
            return
        } else {
            presence[userID] = DemoPresence(bookID: bookID, startedAt: now, refreshedAt: now)
        }
        presenceRevision += 1
    }

    /// What `SocialService.currentlyListening` answers `viewer`: one row
    /// per other user, the live sessions first (newest start first), then
    /// each other user's most recent unfinished position ("recent fill",
    /// newest first). `SocialServiceImpl.kt`.
    func currentlyListening(viewer: String, now: Date) -> [CurrentlyListeningSessionDTO] {
        var names: [String: String] = [DemoShelfNeighbour.userID: DemoShelfNeighbour.name]
        for user in users { names[user.id] = user.shownName }
        let live = presence.filter { $0.key != viewer && $0.value.isLive(at: now) && names[$0.key] != nil }
            .sorted { ($0.value.startedAt, $0.key) > ($1.value.startedAt, $1.key) }
            .map { userID, session in
                CurrentlyListeningSessionDTO(userId: userID, displayName: names[userID] ?? "", avatarType: "auto", bookId: session.bookID,
                                             lastActiveAtMs: DemoKRPCMapping.milliseconds(session.startedAt), isLive: true)
            }
        let liveUsers = Set(live.map(\.userId))
        let fill = listening.progress.compactMap { userID, books -> CurrentlyListeningSessionDTO? in
            guard userID != viewer, !liveUsers.contains(userID), let name = names[userID],
                  let (bookID, progress) = books.filter({ !$0.value.finished }).max(by: { $0.value.lastPlayedAt < $1.value.lastPlayedAt })
            else { return nil }
            return CurrentlyListeningSessionDTO(userId: userID, displayName: name, avatarType: "auto", bookId: bookID,
                                                lastActiveAtMs: DemoKRPCMapping.milliseconds(progress.lastPlayedAt), isLive: false)
        }.sorted { ($0.lastActiveAtMs, $0.userId) > ($1.lastActiveAtMs, $1.userId) }
        return live + fill
    }
}

extension DemoService {
    /// `GET /api/v1/social/currently-listening?limit=` as the Go server
    /// answers it (`internal/api/social_handlers.go`): the books others
    /// have a live session on (the caller's own left out), newest first,
    /// `limit` 10 by default and 1…50, each with up to three readers and
    /// the count of all.
    func currentlyListeningREST(_ request: DemoRequest, viewer: String) -> DemoResponse {
        let asked = Int(request.query["limit"] ?? "") ?? 10
        let limit = min(max(asked, 1), 50)
        let books = state.withLock { state -> [CurrentlyListeningResponse.Book] in
            let rows = state.currentlyListening(viewer: viewer, now: Date()).filter(\.isLive)
            let titles = Dictionary(state.books.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
            var order: [String] = []
            var readers: [String: [CurrentlyListeningResponse.Reader]] = [:]
            for row in rows {
                if readers[row.bookId] == nil { order.append(row.bookId) }
                readers[row.bookId, default: []].append(.init(userID: row.userId, displayName: row.displayName))
            }
            return order.prefix(limit).map { id in
                let all = readers[id] ?? []
                return .init(id: id, title: titles[id] ?? "", readers: Array(all.prefix(3)), totalReaderCount: all.count)
            }
        }
        return .envelope(CurrentlyListeningResponse(books: books))
    }
}
