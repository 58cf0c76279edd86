import Foundation
import Logging

/// The cached library of the saved session, read at start-up while GTK
/// builds the window.
///
/// At launch the main thread belongs to GTK for a good 100 ms (it starts,
/// builds the window and draws it), and work queued on the main actor waits
/// for it. So ``AppNavigator/start(server:)`` loads the saved session and
/// starts reading its library from here, off the main actor. The library's
/// model takes the read (``take(for:)``); when it is already done, as it
/// usually is by then, the books are there from the page's first frame.
public final class LibraryReadAhead: Sendable {
    /// The cache as read: its books indexed, their order, and the progress.
    public struct Contents: Sendable {
        public let index: LibraryIndex
        /// The order ``order`` is in.
        public let sort: LibrarySort
        /// Positions in ``index``, sorted by ``sort``.
        public let order: [Int]
        public let progress: [String: BookProgress]

        /// Reads the list (without each book's details) from `store` and
        /// orders it by `sort`. An unreadable store reads as empty.
        public static func read(from store: any LibraryStore, sort: LibrarySort, logger: Logger) -> Contents {
            let started = ContinuousClock.now
            let index = LibraryIndex((try? store.listedBooks()) ?? [])
            let contents = Contents(index: index, sort: sort, order: index.order(by: sort),
                                    progress: (try? store.progress()) ?? [:])
            logger.debug("Library cache read", metadata: [
                "books": "\(index.entries.count)", "ms": "\(Int((ContinuousClock.now - started).milliseconds))",
            ])
            return contents
        }
    }

    /// A read handed over: the store it reads (the model keeps it), the
    /// read itself, and its contents if it was done when handed over.
    public struct Read: Sendable {
        public let store: any LibraryStore
        public let contents: Task<Contents, Never>
        public let finished: Contents?
    }

    private struct Pending: Sendable {
        let session: Session
        let store: any LibraryStore
        let contents: Task<Contents, Never>
        var finished: Contents?
    }

    private let pending = LockedValue<Pending?>(nil)

    public init() {}

    /// Opens the library of `session` with `open` and starts reading it on
    /// a task of its own. A read started before and not taken is dropped.
    public func start(for session: Session, sort: LibrarySort, logger: Logger,
                      open: @Sendable (_ server: URL, _ userID: String) -> any LibraryStore) {
        let store = open(session.serverURL, session.userID)
        // Made under the lock, so the read, however quick, finds itself
        // pending when it is done.
        pending.withLock { current in
            let contents = Task.detached(priority: .userInitiated) { [pending] in
                let contents = Contents.read(from: store, sort: sort, logger: logger)
                pending.withLock { current in
                    if current?.store === store { current?.finished = contents }
                }
                return contents
            }
            current = Pending(session: session, store: store, contents: contents)
        }
    }

    /// A read is pending and done (tests).
    var isFinished: Bool { pending.value?.finished != nil }

    /// The read started for `session`, if any (once: a second call gets
    /// nil). A read for another session is dropped.
    public func take(for session: Session) -> Read? {
        let taken = pending.withLock { current in
            defer { current = nil }
            return current
        }
        guard let taken, taken.session.serverURL == session.serverURL, taken.session.userID == session.userID else { return nil }
        return Read(store: taken.store, contents: taken.contents, finished: taken.finished)
    }
}
