import Foundation
import ListenUpAPI
import ListenUpCore

/// Discover over REST v1: the Go server has no sync feed for profiles or
/// activities (contract addendum §7), so each library sync reads the newest
/// 50 of `GET /api/v1/social/feed` (`internal/api/social_handlers.go`) and
/// hands them to the cache as the whole feed (`EntityPage.replacesAll`), and
/// the names it carries as profiles. No live event says the feed changed:
/// it follows at the next sync.
extension APIClient {
    /// True: `GET /api/v1/social/feed`.
    public nonisolated var hasActivityFeed: Bool { true }

    /// The feed's rows as `domain` (`activities` or `public_profiles`); a
    /// server without the route (404) has an empty feed.
    func syncSocial(_ domain: BrowseDomain) async throws(ServerError) -> BrowseRows {
        let feed: ActivityFeedResponse
        do {
            feed = try await authorized(.activityFeed(limit: 50))
        } catch .server(status: 404, _) {
            return .empty(domain)
        }
        return RESTSocialMapping.rows(domain, feed)
    }
}

extension APIClient {
    /// `GET /api/v1/social/currently-listening` (`internal/api/social_handlers.go`):
    /// the books others have an active session on, each reader a row, all
    /// live and undated; a server without the route (404) has none.
    public func currentlyListening() async throws(ServerError) -> [ListeningNow] {
        let answer: CurrentlyListeningResponse
        do {
            answer = try await authorized(.currentlyListening(limit: 50))
        } catch .server(status: 404, _) {
            return []
        }
        var seen = Set<String>()
        return answer.books.flatMap { book in
            book.readers.map { ListeningNow(userID: $0.userID, displayName: $0.displayName, bookID: book.id, lastActiveAt: nil, isLive: true) }
        }.filter { seen.insert($0.userID).inserted }
    }
}

/// The Go server's feed as the seam's rows. Pure functions; any thread.
enum RESTSocialMapping {
    static func rows(_ domain: BrowseDomain, _ feed: ActivityFeedResponse) -> BrowseRows {
        let dated = feed.activities.compactMap { row in RFC3339.date(from: row.createdAt).map { (row, $0) } }
        switch domain {
        case .publicProfiles:
            // A profile per user, dated by their newest activity (so an
            // unchanged feed is no change to the cache).
            var profiles: [String: PublicProfile] = [:]
            for (row, date) in dated where !row.userID.isEmpty && (profiles[row.userID]?.updatedAt ?? .distantPast) < date {
                profiles[row.userID] = PublicProfile(id: row.userID, displayName: row.userDisplayName, avatarType: row.userAvatarType ?? "auto",
                                                     updatedAt: date)
            }
            return .publicProfiles(EntityPage(entities: profiles.values.sorted { $0.id < $1.id }))
        case .activities:
            return .activities(EntityPage(entities: dated.filter { !$0.0.id.isEmpty && !$0.0.userID.isEmpty }.map { row, date in
                Activity(id: row.id, userID: row.userID, kind: row.type, bookID: row.bookID.flatMap { $0.isEmpty ? nil : $0 },
                         isReread: row.isReread ?? false, milestoneValue: row.milestoneValue ?? 0, milestoneUnit: row.milestoneUnit,
                         shelfName: row.shelfName, occurredAt: date)
            }, replacesAll: true))
        default:
            return .empty(domain)
        }
    }
}
