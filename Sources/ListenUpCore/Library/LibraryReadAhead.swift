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
        /// How many books the library holds: more than ``index`` holds when
        /// these are its first screen.
        public let libraryCount: Int

        /// Reads the list (without each book's details) from `store` and
        /// orders it by `sort`. An unreadable store reads as empty.
        public static func read(from store: any LibraryStore, sort: LibrarySort, logger: Logger) -> Contents {
            let started = ContinuousClock.now
            let index = LibraryIndex((try? store.listedBooks()) ?? [])
            let contents = Contents(index: index, sort: sort, order: index.order(by: sort),
                                    progress: (try? store.progress()) ?? [:], libraryCount: index.count)
            logger.debug("Library cache read", metadata: [
                "books": "\(index.entries.count)", "ms": "\(Int((ContinuousClock.now - started).milliseconds))",
            ])
            return contents
        }

        /// The first books of the library in `sort`'s order, when it holds
        /// more than `screen` says is worth reading in two steps; nil
        /// otherwise, or when the store cannot read them on their own.
        static func readFirst(_ screen: FirstScreen, from store: any LibraryStore, sort: LibrarySort,
                              logger: Logger) -> Contents? {
            let started = ContinuousClock.now
            guard let count = try? store.count(), count > screen.above,
                  let books = try? store.firstListedBooks(screen.books, by: sort) else { return nil }
            let index = LibraryIndex(books)
            let contents = Contents(index: index, sort: sort, order: index.order(by: sort),
                                    progress: (try? store.progress()) ?? [:], libraryCount: count)
            logger.debug("Library first screen read", metadata: [
                "books": "\(index.entries.count)", "of": "\(count)",
                "ms": "\(Int((ContinuousClock.now - started).milliseconds))",
            ])
            return contents
        }
    }

    /// How a window starts with a large library: the first `books` of its
    /// order are read on their own and drawn, and the whole library, read
    /// right after, replaces them. At 50,000 books the whole read ends
    /// about 150 ms after GTK is ready to draw; the first screen takes a
    /// few milliseconds (docs/performance.md). Only for caches of more than
    /// `above` books: a smaller one is read whole before GTK is ready (10,000
    /// books in about 30 ms), and reading it in two steps only drew the
    /// page twice, the second time before its first frame.
    public struct FirstScreen: Sendable {
        public var books: Int
        public var above: Int

        /// More books than any window shows at once (the list's rows are
        /// the smallest: 200 is 8,000 pixels of them).
        public static let window = FirstScreen(books: 200, above: 20_000)

        public init(books: Int, above: Int) {
            self.books = books
            self.above = above
        }
    }

    /// A read handed over: the store it reads (the model keeps it), the
    /// read itself, its contents if it was done when handed over, and the
    /// first screen's read when one was asked for (nil from it: the whole
    /// library is read at once).
    public struct Read: Sendable {
        public let store: any LibraryStore
        public let contents: Task<Contents, Never>
        public let finished: Contents?
        public let firstScreen: Task<Contents?, Never>?
    }

    private struct Pending: Sendable {
        let session: Session
        let store: any LibraryStore
        let contents: Task<Contents, Never>
        let firstScreen: Task<Contents?, Never>?
        var finished: Contents?
    }

    private let pending = LockedValue<Pending?>(nil)

    public init() {}

    /// Opens the library of `session` with `open` and starts reading it on
    /// a task of its own; with `firstScreen`, its first books before the
    /// rest. A read started before and not taken is dropped.
    public func start(for session: Session, sort: LibrarySort, firstScreen: FirstScreen? = nil, logger: Logger,
                      open: @Sendable (_ server: URL, _ userID: String) -> any LibraryStore) {
        let store = open(session.serverURL, session.userID)
        // Made under the lock, so the reads, however quick, find themselves
        // pending when they are done.
        pending.withLock { current in
            let first = firstScreen.map { screen in
                Task.detached(priority: .userInitiated) { Contents.readFirst(screen, from: store, sort: sort, logger: logger) }
            }
            let contents = Task.detached(priority: .userInitiated) { [pending] in
                // One read at a time: the first screen is what the window waits for.
                _ = await first?.value
                let contents = Contents.read(from: store, sort: sort, logger: logger)
                pending.withLock { current in
                    if current?.store === store { current?.finished = contents }
                }
                return contents
            }
            current = Pending(session: session, store: store, contents: contents, firstScreen: first)
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
        return Read(store: taken.store, contents: taken.contents, finished: taken.finished, firstScreen: taken.firstScreen)
    }
}
