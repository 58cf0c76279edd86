import Foundation
import ListenUpAPI
import Logging

/// What a server says the signed-in user's library holds, to catch a cache
/// that drifted from it (kRPC: `SyncStreamService.digest` of `books`).
public struct LibraryDigest: Equatable, Sendable {
    /// How many books the library holds (deleted ones not counted).
    public var bookCount: Int

    public init(bookCount: Int) {
        self.bookCount = bookCount
    }
}

extension ServerConnection {
    /// A server with no digest (REST v1): drift cannot be checked.
    public func libraryDigest() async throws(APIClientError) -> LibraryDigest? { nil }
}

/// Catches a library cache that drifted from the server: a book the server
/// no longer gives this user, with no tombstone or event to say so (a row
/// removed for good, access taken away, an event missed), or one never
/// received. After a sync it compares the server's digest with the cache;
/// on a mismatch it syncs again (something may simply have changed since),
/// and if the two still differ, pulls every book again and drops the books
/// the server no longer has. Logged at info level when it repairs.
///
/// A value; runs on the task that calls it (the library's sync task).
struct LibraryDriftCheck: Sendable {
    /// What the checks of one library remember between syncs: a difference
    /// a full pull did not mend (a server whose digest counts otherwise) is
    /// not pulled for again until one of the counts moves.
    final class Memory: Sendable {
        let unmended = LockedValue<(cached: Int, server: Int)?>(nil)
        init() {}
    }

    let server: any ServerConnection
    let store: any LibraryStore
    let logger: Logger
    var memory = Memory()

    /// Checks, and repairs a drifted cache; a check that cannot finish (the
    /// network, the session) is logged and left to the next sync.
    /// - Returns: how many books the repair stored or deleted; 0 when the
    ///   cache matched (or the server cannot tell).
    func check() async -> Int {
        do {
            return try await run()
        } catch {
            logger.debug("The library's drift check did not finish", metadata: ["code": "\(error.code)"])
            return 0
        }
    }

    /// Checks, and repairs a drifted cache.
    /// - Returns: as ``check()``.
    func run() async throws(APIClientError) -> Int {
        guard let digest = try await server.libraryDigest(), try cachedCount() != digest.bookCount else { return 0 }
        // Changes may have landed since the sync that just ran: catch up first.
        var changed = try await LibrarySync(server: server, store: store, logger: logger).run()
        guard let again = try await server.libraryDigest() else { return changed }
        let held = try cachedCount()
        guard held != again.bookCount else { return changed }
        if let unmended = memory.unmended.value, unmended == (held, again.bookCount) { return changed }
        logger.info("The library differs from the server's digest; pulling every book again",
                    metadata: ["domain": "books", "cached": "\(held)", "server": "\(again.bookCount)"])
        changed += try await pullEverything()
        let books = try cachedCount()
        logger.info("The library was pulled again", metadata: ["books": "\(books)", "changed": "\(changed)"])
        if let after = try await server.libraryDigest(), after.bookCount != books {
            logger.warning("The library still differs from the server's digest after a full pull; not pulling again until it changes",
                           metadata: ["cached": "\(books)", "server": "\(after.bookCount)"])
            memory.unmended.value = (books, after.bookCount)
        } else {
            memory.unmended.value = nil
        }
        return changed
    }

    private func cachedCount() throws(APIClientError) -> Int {
        do { return try store.count() } catch { throw .protocolMismatch("the library cache could not be read: \(error)") }
    }

    /// A full sync from the start, then every cached book it did not bring
    /// is deleted (the server no longer has it for this user).
    private func pullEverything() async throws(APIClientError) -> Int {
        let before: Set<String>
        do {
            before = Set(try store.listedBooks().map(\.id))
            // Forget where syncs stopped: the next run is a full one (a crash
            // meanwhile resumes it, and the next check repairs what is left).
            try store.apply([], deleting: [], state: LibrarySyncState())
        } catch {
            throw .protocolMismatch("the library cache could not be read: \(error)")
        }
        let recorder = PulledBooks(store)
        var changed = try await LibrarySync(server: server, store: recorder, logger: logger).run()
        let gone = before.subtracting(recorder.pulled)
        guard !gone.isEmpty else { return changed }
        do { try store.delete(Array(gone)) } catch { throw .protocolMismatch("the library cache could not be written: \(error)") }
        changed += gone.count
        return changed
    }
}

/// A library store that notes the ids of the books a sync stores through it.
private final class PulledBooks: LibraryStore {
    private let base: any LibraryStore
    private let ids = LockedValue<Set<String>>([])

    init(_ base: any LibraryStore) { self.base = base }

    /// The books stored so far.
    var pulled: Set<String> { ids.value }

    func books() throws -> [CachedBook] { try base.books() }
    func listedBooks() throws -> [CachedBook] { try base.listedBooks() }
    func book(id: String) throws -> CachedBook? { try base.book(id: id) }
    func count() throws -> Int { try base.count() }
    func upsert(_ books: [SyncBook]) throws { try base.upsert(books) }
    func delete(_ ids: [String]) throws { try base.delete(ids) }
    func progress() throws -> [String: BookProgress] { try base.progress() }
    func setProgress(_ progress: BookProgress?, for bookID: String) throws { try base.setProgress(progress, for: bookID) }
    func syncState() throws -> LibrarySyncState { try base.syncState() }

    func apply(_ books: [SyncBook], deleting deleted: [String], state: LibrarySyncState) throws -> Int {
        let changed = try base.apply(books, deleting: deleted, state: state)
        ids.withLock { $0.formUnion(books.map(\.id)) }
        return changed
    }
}
