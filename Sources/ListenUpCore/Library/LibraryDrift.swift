import Foundation
import Logging

/// What a server says the signed-in user's library holds, to catch a cache
/// that drifted from it (kRPC: `SyncStreamService.digest` of `books`, §3.4).
/// The count alone misses a book swapped for another, or one changed
/// without an event; the hash covers every book's id and revision.
public struct LibraryDigest: Equatable, Sendable {
    /// How many books the library holds (deleted ones not counted).
    public var bookCount: Int
    /// The server's hash of those books' ids and revisions (kRPC:
    /// `"sha256:" + hex(SHA-256(sorted "<id>|<revision>\n"))`); nil when the
    /// server gives none (then only the count is compared).
    public var hash: String?

    /// A digest; each parameter sets the property of the same name.
    public init(bookCount: Int, hash: String? = nil) {
        self.bookCount = bookCount
        self.hash = hash
    }
}

extension ServerConnection {
    /// A server with no digest (REST v1): drift cannot be checked.
    public func libraryDigest() async throws(ServerError) -> LibraryDigest? { nil }

    /// A server with no digest hash (REST v1): nil.
    public func libraryHash(of revisions: [String: Int64]) -> String? { nil }
}

extension LibraryStore {
    /// The revisions of ``books()`` (a store with a cheaper way overrides it).
    public func bookRevisions() throws -> [String: Int64] {
        try books().reduce(into: [:]) { revisions, book in
            if let revision = book.revision { revisions[book.id] = revision }
        }
    }
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
    /// not pulled for again until the cache or the server's digest moves.
    final class Memory: Sendable {
        let unmended = LockedValue<Comparison?>(nil)
        init() {}
    }

    /// The cache beside the server's digest.
    struct Comparison: Equatable, Sendable {
        /// How many books the cache holds.
        var cachedCount: Int
        /// The cache's hash as the server would write it; nil when the
        /// server has none, or a cached book has no revision.
        var cachedHash: String?
        /// The server's digest.
        var server: LibraryDigest

        /// Whether the cache differs from the server: another count, or,
        /// when the server gives a hash, another hash.
        var differs: Bool {
            if cachedCount != server.bookCount { return true }
            guard let hash = server.hash else { return false }
            return cachedHash != hash
        }
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
    func run() async throws(ServerError) -> Int {
        guard let digest = try await server.libraryDigest(), try compare(with: digest).differs else { return 0 }
        // Changes may have landed since the sync that just ran: catch up first.
        var changed = try await LibrarySync(server: server, store: store, logger: logger).run()
        guard let again = try await server.libraryDigest() else { return changed }
        let before = try compare(with: again)
        guard before.differs else { return changed }
        if let unmended = memory.unmended.value, unmended == before { return changed }
        logger.info("The library differs from the server's digest; pulling every book again",
                    metadata: ["domain": "books", "cached": "\(before.cachedCount)", "server": "\(again.bookCount)",
                               "sameCount": "\(before.cachedCount == again.bookCount)"])
        changed += try await pullEverything()
        let books = try cachedCount()
        logger.info("The library was pulled again", metadata: ["books": "\(books)", "changed": "\(changed)"])
        memory.unmended.value = nil
        if let after = try await server.libraryDigest() {
            let comparison = try compare(with: after)
            if comparison.differs {
                logger.warning("The library still differs from the server's digest after a full pull; not pulling again until it changes",
                               metadata: ["cached": "\(comparison.cachedCount)", "server": "\(after.bookCount)"])
                memory.unmended.value = comparison
            }
        }
        return changed
    }

    /// The cache beside `digest`: its count, and its hash when the server gives one.
    private func compare(with digest: LibraryDigest) throws(ServerError) -> Comparison {
        let held = try cachedCount()
        guard digest.hash != nil, held == digest.bookCount else { return Comparison(cachedCount: held, cachedHash: nil, server: digest) }
        let revisions: [String: Int64]
        do { revisions = try store.bookRevisions() } catch { throw .protocolMismatch("the library cache could not be read: \(error)") }
        // A book cached without its revision cannot be hashed: the cache differs.
        let hash = revisions.count == held ? server.libraryHash(of: revisions) : nil
        return Comparison(cachedCount: held, cachedHash: hash, server: digest)
    }

    private func cachedCount() throws(ServerError) -> Int {
        do { return try store.count() } catch { throw .protocolMismatch("the library cache could not be read: \(error)") }
    }

    /// A full sync from the start, then every cached book it did not bring
    /// is deleted (the server no longer has it for this user).
    private func pullEverything() async throws(ServerError) -> Int {
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
private final class PulledBooks: ForwardingLibraryStore {
    let base: any LibraryStore
    private let ids = LockedValue<Set<String>>([])

    init(_ base: any LibraryStore) { self.base = base }

    /// The books stored so far.
    var pulled: Set<String> { ids.value }

    func apply(_ books: [ServerBook], deleting deleted: [String], state: LibrarySyncState) throws -> Int {
        let changed = try base.apply(books, deleting: deleted, state: state)
        ids.withLock { $0.formUnion(books.map(\.id)) }
        return changed
    }
}
