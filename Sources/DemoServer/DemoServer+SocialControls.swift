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

    /// How many activities the server keeps (tombstones included).
    public var activityCount: Int {
        service.state.withLock { $0.ledger.latest[.activities]?.count ?? 0 }
    }
}
