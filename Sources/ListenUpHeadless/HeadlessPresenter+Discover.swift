import Foundation
import JSONToolkit
import ListenUpCore

/// Discover headless (signed in only, from any screen):
///
/// - `{"action":"discover"}` prints
///   `{"event":"discover","listeningNow":[{"userId","userName","bookId","live","at"}…],"activities":[{"id","userId","userName","type","bookId","at"}…]}`
///   (who else listens now, live ones first, `at` null where the server
///   gives no time (REST v1); the activity feed, newest first; `userName`
///   null when the user's profile is not kept, `bookId` null for an
///   activity without a book, `at` RFC 3339), then again whenever either
///   changes (a sync, a live event) for the rest of the session.
/// - On REST v1 the feed is the Go server's `/social/feed` as of the last
///   sync (no live event for it). A connection with no feed at all (offline,
///   nothing kept) answers `unsupported`.
extension HeadlessPresenter {
    static func discoverLine(_ entries: [ActivityFeedEntry], listeningNow: [ListeningNow] = []) -> JSONValue {
        ["event": "discover", "listeningNow": .array(listeningNow.map { row in
            ["userId": .string(row.userID), "userName": .string(row.displayName), "bookId": .string(row.bookID), "live": .bool(row.isLive),
             "at": .optional(row.lastActiveAt.map(rfc3339))]
        }), "activities": .array(entries.map { entry in
            ["id": .string(entry.id), "userId": .string(entry.activity.userID), "userName": .optional(entry.userName),
             "type": .string(entry.activity.kind), "bookId": .optional(entry.activity.bookID),
             "at": .string(rfc3339(entry.activity.occurredAt))]
        })]
    }

    func handleDiscover() {
        guard let model = navigator.signedIn?.discover else {
            emitError(code: "notSignedIn", message: "Sign in to see what others listen to.")
            return
        }
        guard model.isAvailable else {
            emitError(code: "unsupported", message: "This server keeps no activity feed.")
            return
        }
        discoverLine = nil
        if let discover, discover.model === model {
            discoverChanged(model)
            return
        }
        discover?.cancel()
        let navigator = navigator
        let follower = ModelFollower({ navigator.signedIn?.discover }, replaced: { [weak self] _ in self?.discoverLine = nil },
                                     follow: { [weak self] in self?.discoverChanged($0) })
        discover = follower
        follower.start()
    }

    /// The feed was read (again): printed when it changed since the last line.
    func discoverChanged(_ model: DiscoverModel) {
        // The model's state is read first: the observation follows what this reads.
        let (entries, reads, listeningNow) = (model.entries, model.reads, model.listeningNow)
        guard reads > 0 else { return }
        let line = Self.discoverLine(entries, listeningNow: listeningNow)
        guard line != discoverLine else { return }
        discoverLine = line
        emit(line)
    }
}
