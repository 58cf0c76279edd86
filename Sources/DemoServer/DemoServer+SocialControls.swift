import Foundation
import ListenUpKRPC

/// Test controls of the social domains (DemoSocial.swift): what another
/// reader of the server does, seen through the kRPC `activities` and
/// `public_profiles` domains and their live events, or REST v1's
/// `GET /api/v1/social/feed` at the next read (the Go server sends no event).
extension DemoServer {
    /// The neighbour (``DemoShelfNeighbour``): the other reader of the demo library.
    public static var neighbourUserID: String { DemoShelfNeighbour.userID }
    /// The neighbour's name, as their profile gives it.
    public static var neighbourName: String { DemoShelfNeighbour.name }

    /// Records an activity of the neighbour, or of the account `email`:
    /// `started_book`, `finished_book`, …; nil for an unknown kind or user.
    /// - Returns: the activity's id.
    @discardableResult
    public func recordActivity(_ kind: String, bookID: String?, byUser email: String? = nil) -> String? {
        guard let kind = ActivityKind(rawValue: kind) else { return nil }
        return service.state.withLock { state -> String? in
            var userID: String? = DemoShelfNeighbour.userID
            if let email { userID = state.users.first { $0.email.caseInsensitiveCompare(email) == .orderedSame }?.id }
            guard let userID else { return nil }
            return state.recordActivity(userID: userID, kind: kind, bookID: bookID, at: Date())
        }
    }

    /// The neighbour (or the account `email`) starts listening to `bookID`
    /// now, as a position write would start their session; nil `bookID`
    /// ends it. kRPC event streams get `SyncControl.ActiveSessionsChanged`;
    /// REST's `currently-listening` says so at the next read.
    /// - Returns: false for an unknown user.
    @discardableResult
    public func setListening(bookID: String?, byUser email: String? = nil) -> Bool {
        let known = service.state.withLock { state -> Bool in
            var userID: String? = DemoShelfNeighbour.userID
            if let email { userID = state.users.first { $0.email.caseInsensitiveCompare(email) == .orderedSame }?.id }
            guard let userID else { return false }
            let now = Date()
            if let bookID {
                state.notePresence(userID: userID, bookID: bookID, finished: false, now: now)
            } else if let current = state.presence[userID] {
                state.notePresence(userID: userID, bookID: current.bookID, finished: true, now: now)
            }
            return true
        }
        krpc?.announcePresenceIfChanged()
        return known
    }

    /// How many activities the server keeps (tombstones included).
    public var activityCount: Int {
        service.state.withLock { $0.ledger.latest[.activities]?.count ?? 0 }
    }
}
