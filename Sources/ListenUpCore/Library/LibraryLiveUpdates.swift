import Foundation
import Logging

/// Follows the server's live events (``LibraryEvent``s, whichever protocol
/// carried them) and applies what they say to the cache: a book changed or
/// deleted changes the books, progress events the progress; a finished
/// scan or an access change asks for a delta sync. Reconnects with
/// exponential back-off and jitter; each (re)connection asks for a delta
/// sync too, since live events are not replayed.
public struct LibraryLiveUpdates: Sendable {
    /// What happened, for the screen.
    public enum Change: Equatable, Sendable {
        /// The stream is open (run a delta sync: events may have been missed).
        case connected
        /// The stream broke; retrying after `retryIn`.
        case disconnected(retryIn: Duration)
        /// Books were added (or replaced) or removed in the cache: their ids.
        case booksChanged(upserted: [String], deleted: [String])
        /// Listening progress changed in the cache; with the position when
        /// the event gave one (the player's resume point for that book; a
        /// deleted position is position 0 as of the deletion).
        case progressChanged(ListeningPosition?)
        /// The server finished a scan or changed access: run a delta sync.
        case needsDeltaSync
        /// Only these browse domains changed (no book row did): a delta of
        /// them alone brings it.
        case browseChanged(Set<BrowseDomain>)
        /// The account is gone (`user.deleted`), with the server's reason if
        /// it gave one.
        case userDeleted(reason: String?)
        /// The account's playback preferences changed on the server
        /// (`preferences.changed`): read them again.
        case preferencesChanged
        /// Someone started or stopped listening: ask who listens now again.
        case listeningNowChanged
    }

    /// Waits between attempts: 1 s doubling to `maximum`, ±20 % jitter.
    public struct Backoff: Sendable {
        public var initial: Duration = .seconds(1)
        public var maximum: Duration = .seconds(60)

        public init(initial: Duration = .seconds(1), maximum: Duration = .seconds(60)) {
            self.initial = initial
            self.maximum = maximum
        }

        /// The wait before attempt `failures + 1`.
        public func delay(afterFailures failures: Int) -> Duration {
            let base = min(initial * (1 << min(failures, 20)), maximum)
            return base * Double.random(in: 0.8...1.2)
        }
    }

    let server: any ServerConnection
    let store: any LibraryStore
    var backoff: Backoff
    let logger: Logger

    public init(server: any ServerConnection, store: any LibraryStore, backoff: Backoff = Backoff(), logger: Logger) {
        self.server = server
        self.store = store
        self.backoff = backoff
        self.logger = logger
    }

    /// Runs until the task is cancelled or the session ends.
    public func run(onChange: @escaping @Sendable (Change) async -> Void) async {
        var failures = 0
        while !Task.isCancelled {
            do {
                let events = try await server.liveEvents()
                failures = 0
                logger.debug("Live updates connected")
                await onChange(.connected)
                for try await event in events {
                    if let change = apply(event) { await onChange(change) }
                }
                logger.debug("Live updates ended by the server")
            } catch ServerError.sessionLapsed {
                return
            } catch let error as ServerError {
                logger.debug("Live updates broke", metadata: ["code": "\(error.code)"])
            } catch {
                logger.debug("Live updates broke", metadata: ["reason": "\(error)"])
            }
            if Task.isCancelled { return }
            let wait = backoff.delay(afterFailures: failures)
            failures += 1
            await onChange(.disconnected(retryIn: wait))
            do { try await Task.sleep(for: wait) } catch { return }
        }
    }

    /// Applies one event to the cache; returns what changed.
    func apply(_ event: LibraryEvent) -> Change? {
        do {
            switch event {
            case .bookChanged(let book):
                try store.upsert([book])
                return .booksChanged(upserted: [book.id], deleted: [])
            case .bookDeleted(let id):
                try store.delete([id])
                return .booksChanged(upserted: [], deleted: [id])
            case .progressChanged(let bookID, let progress, let position):
                try store.setProgress(progress, for: bookID)
                return .progressChanged(position)
            case .progressDeleted(let bookID, let deletedAt):
                try store.setProgress(nil, for: bookID)
                // The resume point goes back to the start as of the deletion
                // (listening here after it still wins: it is newer).
                return .progressChanged(ListeningPosition(bookID: bookID, position: 0, updatedAt: deletedAt))
            case .needsDeltaSync:
                return .needsDeltaSync
            case .browseChanged(let domains):
                return .browseChanged(domains)
            case .userDeleted(let reason):
                return .userDeleted(reason: reason)
            case .preferencesChanged:
                return .preferencesChanged
            case .listeningNowChanged:
                return .listeningNowChanged
            }
        } catch {
            logger.error("Could not apply a live event to the cache", metadata: ["event": "\(event.kind)", "reason": "\(error)"])
            return nil
        }
    }
}

extension LibraryEvent {
    /// The event's kind, for logs and tests (never a book's or a
    /// person's data): its case's name.
    public var kind: String {
        switch self {
        case .bookChanged: "bookChanged"
        case .bookDeleted: "bookDeleted"
        case .progressChanged: "progressChanged"
        case .progressDeleted: "progressDeleted"
        case .needsDeltaSync: "needsDeltaSync"
        case .browseChanged: "browseChanged"
        case .userDeleted: "userDeleted"
        case .preferencesChanged: "preferencesChanged"
        case .listeningNowChanged: "listeningNowChanged"
        }
    }
}
