import Foundation
import Logging
import Observation

/// The user's shelves and those others share (Home's *My Shelves* and
/// *Shelves from Others*, a book's *Add to Shelf*), and the changes the
/// user makes to them.
///
/// Shelves are read from the library cache (so offline too), off the main
/// actor, and again when a sync or a live event changed it
/// (``cacheChanged()``). A change is sent to the server
/// (``ServerConnection/createShelf(name:description:isPrivate:)`` and the
/// rest); once the server took it, the library syncs (the live event the
/// server sends asks for the same), so the cache, and every list and page,
/// follows the server. Others' shelves are asked for by
/// ``refreshDiscovered()`` (Home's refresh) and kept in the cache.
///
/// The session makes one beside the library (``SignedInSession/shelves``).
/// Main actor only.
@MainActor @Observable
public final class ShelvesModel {
    public enum Intent: Equatable, Sendable {
        /// Makes a shelf, and puts `addingBook` on it when given.
        case create(name: String, description: String, isPrivate: Bool, addingBook: String?)
        /// Renames or redescribes one of the user's shelves.
        case update(id: String, name: String, description: String, isPrivate: Bool)
        case delete(id: String)
        case add(bookID: String, shelfID: String)
        case remove(bookID: String, shelfID: String)
    }

    /// The user's shelves, by name (books: those the cache has, in the shelf's order).
    public private(set) var mine: [Shelf] = []
    /// Other users' public shelves (kept from the last answer), by owner then name.
    public private(set) var discovered: [Shelf] = []
    /// How many reads of the cache ended (tests and the headless front wait on it).
    public private(set) var reads = 0
    /// Why the last change was not made; nil after one that was.
    public private(set) var problem: ShelfProblem?
    /// Changes under way.
    public private(set) var changing = 0

    /// Whether a shelf can be private on this server (kRPC: yes; REST v1: no such flag).
    public var offersPrivacy: Bool { server?.shelvesHavePrivacy ?? false }
    /// The longest name this server takes.
    public var nameLimit: Int { server?.shelfNameLimit ?? 100 }

    @ObservationIgnored private let server: (any ServerConnection)?
    @ObservationIgnored private let store: (any BrowseStore)?
    @ObservationIgnored private weak var library: LibraryModel?
    @ObservationIgnored private let logger: Logger
    @ObservationIgnored private let latest = LatestRead()

    public init(dependencies: Dependencies, server: (any ServerConnection)?, store: (any BrowseStore)?, library: LibraryModel?) {
        self.server = server
        self.store = store
        self.library = library
        logger = dependencies.logger
    }

    /// The user's shelves that hold `bookID`.
    public func shelves(holding bookID: String) -> Set<String> {
        Set(mine.filter { $0.bookIDs.contains(bookID) }.map(\.id))
    }

    /// One of the user's shelves or a discovered one, by id.
    public func shelf(id: String) -> Shelf? {
        mine.first { $0.id == id } ?? discovered.first { $0.id == id }
    }

    /// Carries out `intent`; a refusal is kept in ``problem``.
    public func send(_ intent: Intent) {
        Task { _ = await perform(intent) }
    }

    /// Carries out `intent` and says how it went: the shelf made or
    /// changed (nil for the other changes), or why not.
    @discardableResult
    public func perform(_ intent: Intent) async -> Result<Shelf?, ShelfProblem> {
        guard let server else {
            return finish(.failure(ShelfProblem(.transport(.unreachable("offline")))))
        }
        changing += 1
        defer { changing -= 1 }
        do throws(ServerError) {
            var made: Shelf?
            switch intent {
            case .create(let name, let description, let isPrivate, let book):
                if let problem = ShelfName.problem(name, limit: server.shelfNameLimit) { return finish(.failure(problem)) }
                let shelf = try await server.createShelf(name: ShelfName.cleaned(name), description: description, isPrivate: isPrivate)
                if let book { try await server.addBook(book, toShelf: shelf.id) }
                made = shelf
            case .update(let id, let name, let description, let isPrivate):
                if let problem = ShelfName.problem(name, limit: server.shelfNameLimit) { return finish(.failure(problem)) }
                made = try await server.updateShelf(id: id, name: ShelfName.cleaned(name), description: description,
                                                    isPrivate: isPrivate)
            case .delete(let id):
                try await server.deleteShelf(id: id)
            case .add(let book, let shelf):
                try await server.addBook(book, toShelf: shelf)
            case .remove(let book, let shelf):
                try await server.removeBook(book, fromShelf: shelf)
            }
            // The cache follows the server: a sync of the shelves brings the
            // change (the live event the server sends asks for one too).
            library?.syncBrowse([.shelves, .shelfBooks])
            return finish(.success(made))
        } catch {
            logger.info("A shelf change was refused", metadata: ["code": "\(error.code)"])
            return finish(.failure(ShelfProblem(error)))
        }
    }

    private func finish(_ result: Result<Shelf?, ShelfProblem>) -> Result<Shelf?, ShelfProblem> {
        switch result {
        case .success: problem = nil
        case .failure(let failure): problem = failure
        }
        return result
    }

    /// Asks the server for others' shelves, keeps them for an offline
    /// start and shows them; when it does not answer, the kept ones stay.
    public func refreshDiscovered() async {
        guard let server, let store else { return }
        let logger = logger
        do {
            let found = try await server.discoverShelves()
            await Task.detached {
                do { try store.saveDiscoveredShelves(found) } catch {
                    logger.warning("Could not keep the discovered shelves", metadata: ["reason": "\(error)"])
                }
            }.value
        } catch {
            logger.info("Discovered shelves not read", metadata: ["reason": "\(error)"])
        }
        await reread()?.value
    }

    /// The cache changed (a sync, a live event): the shelves are read again.
    public func cacheChanged() {
        reread()
    }

    /// Reads the shelves from the cache (the first time, and after each change).
    public func start() {
        reread()
    }

    public func stop() {
        latest.cancel()
    }

    @discardableResult
    private func reread() -> Task<Void, Never>? {
        guard let store else { return nil }
        let logger = logger
        return latest.start({ () -> ([Shelf], [Shelf])? in
            do { return (try store.shelves(), try store.discoveredShelves()) } catch {
                logger.warning("Could not read the shelves", metadata: ["reason": "\(error)"])
                return nil
            }
        }, show: { [weak self] read in
            guard let self else { return }
            if let (mine, discovered) = read {
                self.mine = mine.sorted { ($0.name.localizedLowercase, $0.id) < ($1.name.localizedLowercase, $1.id) }
                self.discovered = discovered.sorted {
                    (($0.owner?.name ?? "").localizedLowercase, $0.name.localizedLowercase, $0.id)
                        < (($1.owner?.name ?? "").localizedLowercase, $1.name.localizedLowercase, $1.id)
                }
            }
            self.reads += 1
        })
    }
}
