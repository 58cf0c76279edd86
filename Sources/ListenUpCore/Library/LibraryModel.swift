import Foundation
import Observation

/// The library: the signed-in user's books from the local cache (shown at
/// once, also offline), kept current by syncs (`/api/v1/sync/books`: full
/// once, then deltas) and live events (`/api/v1/sync/events`). Search and
/// sort run in memory over a prepared ``LibraryIndex``; sort and layout are
/// remembered across restarts. The Downloaded filter (``LibraryFilter``)
/// narrows the books to those on this device, and follows the downloads
/// as books finish or are removed.
@MainActor @Observable
public final class LibraryModel: ScreenModel {
    /// Every book, in the chosen order.
    public internal(set) var books: [Book] = []
    /// The books matching ``query`` and ``filter``, in the chosen order.
    public internal(set) var visible: [Book] = []
    public internal(set) var query = ""
    /// Every book, or only those downloaded in full (not remembered across
    /// restarts; see ``LibraryFilter``).
    public internal(set) var filter: LibraryFilter = .all
    /// Only finished books (true), only unfinished ones (false), or both
    /// (nil); not remembered across restarts, like ``filter``.
    public internal(set) var finishedFilter: Bool?
    /// The books downloaded in full (``DownloadsModel/downloadedBookIDs``),
    /// updated only when that set changes, not at every progress tick.
    public private(set) var downloadedBookIDs: Set<String> = []
    public internal(set) var sort: LibrarySort
    public internal(set) var layout: LibraryLayout
    public internal(set) var status: Status = .loading
    /// Who is signed in.
    public let session: Session?
    /// The session's player (the page's Play buttons drive it).
    public let player: PlayerModel?
    /// The session's downloads: what is on this device.
    public let downloads: DownloadsModel?
    public private(set) var signingOut = false
    /// The server could not be reached; the cached books are shown.
    public internal(set) var isOffline = false
    /// The sync running now, if any.
    public internal(set) var syncProgress: SyncProgress?
    /// Live events are flowing.
    public internal(set) var isLive = false
    /// The book whose details are shown.
    public internal(set) var selection: Details?
    /// The cache has been read once (its books, if any, are in ``books``).
    public internal(set) var hasLoadedCache = false
    /// While ``books`` are a large library's first screen, the rest being
    /// read (``LibraryReadAhead/FirstScreen``): how many books it holds.
    public internal(set) var firstScreenOf: Int?
    /// Browsing by series, author, narrator and genre (the session's; a
    /// preview's own; nil when there is none).
    @ObservationIgnored public internal(set) var browse: BrowseModel?
    /// Home (the session's; a preview's own; nil when there is none).
    @ObservationIgnored public internal(set) var home: HomeModel?
    /// A shelves preview's popover or dialog (LibraryModel+ShelfPreviews.swift).
    @ObservationIgnored public internal(set) var shelfPreviewOverlay: ShelfPreviewOverlay?
    /// The session's shelves (*Add to Shelf*, a shelf's page); nil in previews without them.
    @ObservationIgnored public internal(set) var shelves: ShelvesModel?
    /// Covers can be fetched: there is a session (previews have none).
    /// Cells shown before then ask again when this turns true.
    public private(set) var coversAvailable = false

    @ObservationIgnored let dependencies: Dependencies
    @ObservationIgnored let send: @MainActor @Sendable (AuthEvent) -> Void
    @ObservationIgnored private var coverLoader: CoverLoader?
    /// Keeps the cache in step with the server (nil in previews).
    @ObservationIgnored private var syncSession: LibrarySyncSession?
    @ObservationIgnored private var startTask: Task<Void, Never>?
    /// Checking whether the server changed generation (after a refused sync).
    @ObservationIgnored var generationCheck: Task<Void, Never>?
    @ObservationIgnored var store: (any LibraryStore)?
    @ObservationIgnored var index = LibraryIndex([])
    @ObservationIgnored var order: [Int] = []
    @ObservationIgnored var progress: [String: BookProgress] = [:]
    /// Counts what was shown (reads and live changes), so a read that
    /// something newer overtook is not shown over it.
    @ObservationIgnored var cacheVersion = 0
    /// Follows ``downloads`` for the set of downloaded books.
    @ObservationIgnored private var downloadsObservation: StateObservation?
    /// How often the downloaded set changed since the model was made (tests:
    /// progress alone must not count).
    @ObservationIgnored private(set) var downloadedSetChanges = 0

    public init(dependencies: Dependencies, session: Session?, player: PlayerModel? = nil, downloads: DownloadsModel? = nil,
                load: Bool = true, send: @escaping @MainActor @Sendable (AuthEvent) -> Void) {
        self.dependencies = dependencies
        self.session = session
        self.player = player
        self.downloads = downloads
        self.send = send
        let settings = dependencies.settings.load()
        sort = LibrarySort(savedIn: settings)
        layout = settings.libraryLayout.flatMap(LibraryLayout.init(rawValue:)) ?? .grid
        if let downloads {
            downloadedBookIDs = downloads.downloadedBookIDs
            downloadsObservation = StateObservation { [weak self, weak downloads] in
                guard let downloads else { return }
                self?.downloadsChanged(downloads.downloadedBookIDs)
            }
        }
        if load { start() }
    }

    public func send(_ intent: Intent) {
        switch intent {
        case .reload: syncSession?.sync(afterRunning: true)
        case .signOut: signOut()
        case .search(let text): search(text)
        case .sort(let sort): changeSort(sort)
        case .layout(let layout): changeLayout(layout)
        case .select(let id): select(id)
        case .filter(let filter): changeFilter(filter)
        case .finished(let finished):
            guard finished != finishedFilter else { return }
            finishedFilter = finished
            refilter()
        case .play(let bookID):
            guard let player else { return }
            handOn(bookID) { [weak player] book in player?.send(book.map { .playBook($0) } ?? .play(bookID: bookID)) }
        case .download(let bookID):
            guard let downloads else { return }
            handOn(bookID) { [weak downloads] book in downloads?.send(book.map { .downloadBook($0) } ?? .download(bookID: bookID)) }
        }
    }

    /// Hands `bookID` on as a value: the book shown in the details at once,
    /// any other read from the cache off the main actor. Unreadable, it is
    /// handed on by id (the receiver reads it and says what is wrong).
    private func handOn(_ bookID: String, to receive: @escaping @MainActor (PlayableBook?) -> Void) {
        if let shown = selection?.playable, shown.id == bookID {
            receive(shown)
            return
        }
        guard let store else {
            receive(nil)
            return
        }
        Task {
            let book = await Task.detached(priority: .userInitiated) { try? PlayableBook.read(bookID, from: store) }.value
            receive(book)
        }
    }

    // MARK: Loading and syncing

    /// Opens the cache and shows it, then syncs. The cache read at start-up
    /// (``LibraryReadAhead``) is taken over; when it is done already the
    /// books are shown now, before the page is first drawn.
    /// - Parameters:
    ///   - store: the session's cache, with `readAhead` the read of it
    ///     under way (``SignedInSession`` passes both); nil: taken or opened here.
    ///   - events: told what the sync learns of the whole session (the
    ///     server back, other devices' positions, …); nil: nobody is.
    func start(store givenStore: (any LibraryStore)? = nil, readAhead givenRead: LibraryReadAhead.Read? = nil,
               events: (any LibrarySessionEvents)? = nil) {
        guard let session else { return }
        let readAhead = givenStore == nil ? dependencies.libraryReadAhead.take(for: session) : givenRead
        let store = givenStore ?? readAhead?.store ?? dependencies.openLibrary(session.serverURL, session.userID)
        self.store = store
        // Read whole already: shown now. Otherwise the start task below
        // shows the first screen, when one is being read, then the whole.
        if let contents = readAhead?.finished { show(contents) }
        let server = session.connection
        coverLoader = CoverLoader(server: server, cache: dependencies.openCoverCache(session.serverURL, session.userID),
                                  logger: dependencies.logger)
        coversAvailable = true
        let syncSession = LibrarySyncSession(server: server, store: store, dependencies: dependencies, screen: self,
                                             events: events, replaysLiveEvents: session.generation == .krpc)
        self.syncSession = syncSession
        let send = send
        startTask = Task { [weak self] in
            // Before anything that needs the thread pool: the whole read
            // holds one of its threads, and a task waiting on the cache,
            // the other.
            if self?.hasLoadedCache == false, self?.isShowingFirstScreen == false,
               let firstScreen = await readAhead?.firstScreen?.value {
                self?.showFirstScreen(firstScreen)
            }
            await server.onSessionLapsed { await MainActor.run { send(.sessionRefused(.sessionEnded)) } }
            if self?.hasLoadedCache == false { await self?.loadCache(readAhead?.contents) }
            guard !Task.isCancelled else { return }
            syncSession.sync()
        }
    }

    /// Reads the cache off the main actor (or awaits `read`, one already
    /// under way) and shows it. A read that something else was shown
    /// during (another read, a live change) may predate it: it is read
    /// again rather than shown (twice at most, then shown anyway).
    func loadCache(_ read: Task<LibraryReadAhead.Contents, Never>? = nil) async {
        guard let store else { return }
        var pending = read
        for attempt in 0..<3 {
            let version = cacheVersion
            let (sort, logger) = (sort, dependencies.logger)
            let read = pending ?? Task.detached(priority: .userInitiated) {
                LibraryReadAhead.Contents.read(from: store, sort: sort, logger: logger)
            }
            pending = nil
            let contents = await read.value
            guard !Task.isCancelled else { return }
            if version == cacheVersion || attempt == 2 {
                show(contents)
                return
            }
        }
    }

    private func show(_ contents: LibraryReadAhead.Contents) {
        cacheVersion &+= 1
        firstScreenOf = nil
        index = contents.index
        order = contents.sort == sort ? contents.order : index.order(by: sort)
        progress = contents.progress
        books = order.map { book(at: $0) }
        refilter()
        hasLoadedCache = true
        if !books.isEmpty, status == .loading { status = .loaded }
        if let selected = selection?.book.id { select(selected) }
    }

    func book(at position: Int) -> Book {
        book(index.entries[position].book)
    }

    /// `cached` as shown, with its progress.
    func book(_ cached: CachedBook) -> Book {
        Book(id: cached.id, title: cached.title, authors: cached.authors, narrators: cached.narrators,
                    series: cached.series, duration: cached.duration, hasCover: cached.hasCover,
                    version: cached.updatedAt, progress: progress[cached.id])
    }

    func refilter() {
        if query.isEmpty, filter == .all, finishedFilter == nil {
            visible = books
        } else if books.count == order.count {
            // `books` is `order` made into books: what matches is taken from
            // it, not made again (each book's progress looked up by id).
            var ranks = index.ranks(in: order, matching: query)
            if filter == .downloaded {
                let downloaded = downloadedBookIDs
                ranks = ranks.filter { downloaded.contains(books[$0].id) }
            }
            if finishedFilter != nil {
                ranks = ranks.filter { (books[$0].progress?.finished == true) == finishedFilter }
            }
            visible = ranks.count == books.count ? books : ranks.map { books[$0] }
        } else {
            assertionFailure("books (\(books.count)) out of step with their order (\(order.count))")
            books = order.map { book(at: $0) }
            refilter()
            return
        }
        // A cache read, a search or an order makes a new list of up to every
        // book and frees the last one (and a read, the index it replaced):
        // free pages malloc would keep, handed back once typing pauses.
        FreedMemory.release(logger: dependencies.logger)
    }

    // MARK: Search, sort, layout, details

    /// Searches the books, and the series and people beside them.
    func search(_ text: String) {
        browse?.send(.search(text))
        guard text != query else { return }
        query = text
        refilter()
    }

    private func changeFilter(_ filter: LibraryFilter) {
        guard filter != self.filter else { return }
        self.filter = filter
        refilter()
    }

    /// The downloads changed (progress, status, a book added or removed):
    /// the books shown change only when the downloaded set did.
    private func downloadsChanged(_ downloaded: Set<String>) {
        guard downloaded != downloadedBookIDs else { return }
        downloadedBookIDs = downloaded
        downloadedSetChanges += 1
        if filter == .downloaded { refilter() }
    }

    private func changeSort(_ sort: LibrarySort) {
        guard sort != self.sort else { return }
        self.sort = sort
        order = index.order(by: sort)
        books = order.map { book(at: $0) }
        refilter()
        remember { $0.librarySort = sort.rawValue }
    }

    private func changeLayout(_ layout: LibraryLayout) {
        guard layout != self.layout else { return }
        self.layout = layout
        remember { $0.libraryLayout = layout.rawValue }
    }

    func remember(_ change: (inout AppSettings) -> Void) {
        var settings = dependencies.settings.load()
        change(&settings)
        do {
            try dependencies.settings.save(settings)
        } catch {
            dependencies.logger.warning("Could not save the library settings", metadata: ["reason": "\(error)"])
        }
    }

    func select(_ id: String?) {
        guard let id, let store, let book = books.first(where: { $0.id == id }),
              let cached = try? store.book(id: id) else {
            selection = nil
            return
        }
        let details = cached.decodedDetails
        selection = Details(book: book, subtitle: details.subtitle,
                            description: PlainText.fromHTML(details.description ?? ""),
                            publisher: details.publisher, publishYear: details.publishYear,
                            contributors: details.contributors, chapters: details.chapters,
                            downloadSize: Self.downloadSize(of: details),
                            playable: PlayableBook(cached, details: details), links: (try? store.links(ofBook: id)) ?? BookLinks())
    }

    /// What downloading a book takes: its audio files' sizes as the server
    /// reported them (nil when the cache has none, or one has no size).
    nonisolated static func downloadSize(of details: BookDetails) -> Int64? {
        guard let files = details.audioFiles, !files.isEmpty, files.allSatisfy({ $0.size > 0 }) else { return nil }
        return files.reduce(0) { $0 + $1.size }
    }

    /// The file of a book's cover in the cover cache, when one is there (a
    /// grid copy, else a large one); never fetched here (the desktop's
    /// search shows it).
    func coverFile(bookID: String, version: Date) async -> URL? {
        guard let coverLoader else { return nil }
        if let file = await coverLoader.file(for: bookID, version: version, size: .grid) { return file }
        return await coverLoader.file(for: bookID, version: version, size: .large)
    }

    /// The cover of `book` at `size` (the details panel's is large), or `nil`
    /// (none, or not reachable now). A downloaded book's own copy stands in
    /// when the cache has none and the server cannot be reached (the cache
    /// is disposable; a download is not).
    public func cover(for book: Book, size: CoverSize = .grid) async -> CoverData? {
        guard book.hasCover, let coverLoader else { return nil }
        if let cover = await coverLoader.cover(for: book.id, version: book.version, size: size) { return cover }
        return await downloads?.cover(bookID: book.id).flatMap(CoverData.init(bytes:))
    }

    /// Syncs these browse domains alone (the user changed them; no book row changes with it).
    func syncBrowse(_ domains: Set<BrowseDomain>) { syncSession?.syncDomains(domains) }

    // MARK: Leaving

    func signOut() {
        guard !signingOut else { return }
        signingOut = true
        stopWork()
        let connection = session?.connection
        Task { [weak self] in
            await connection?.logout()
            self?.send(.signedOut)
        }
    }

    private func stopWork() {
        startTask?.cancel()
        startTask = nil
        generationCheck?.cancel()
        generationCheck = nil
        syncSession?.stop()
    }

    public func deactivate() {
        stopWork()
        downloadsObservation?.cancel()
        downloadsObservation = nil
    }
}
