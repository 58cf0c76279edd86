import Foundation

/// One live change a server announces, in the app's own terms: what
/// ``ServerConnection/liveEvents()`` yields, whichever protocol carried it.
/// REST v1 reads its `text/event-stream` events into it and kRPC its
/// `observeEvents` frames, both at their edge in `ListenUpLive`;
/// ``LibraryLiveUpdates`` applies it to the cache.
public enum LibraryEvent: Equatable, Sendable {
    /// A book was added or changed: its whole row.
    case bookChanged(ServerBook)
    /// A book is gone.
    case bookDeleted(id: String)
    /// A book's listening progress changed, with its position when the
    /// server gave one (the player's resume point for that book).
    case progressChanged(bookID: String, progress: BookProgress, position: ListeningPosition?)
    /// A book's position was deleted at `at`: its resume point goes back to
    /// the start as of then.
    case progressDeleted(bookID: String, at: Date)
    /// Something changed that a delta sync brings: a scan finished, access
    /// changed, a person, series, genre, tag, mood or collection changed.
    case needsDeltaSync
    /// Only these browse domains changed (no book row did).
    case browseChanged(Set<BrowseDomain>)
    /// The account is gone, with the server's reason if it gave one.
    case userDeleted(reason: String?)
    /// The account's playback preferences changed on the server.
    case preferencesChanged
    /// Someone started or stopped listening.
    case listeningNowChanged
}
