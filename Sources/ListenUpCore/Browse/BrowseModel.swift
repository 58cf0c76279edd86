import Foundation
import Observation

/// Browsing the library by series, author, narrator and genre: the lists
/// beside the books, the pages they open, and the series and people a
/// search finds. Everything is read from the library cache (so offline
/// too), one list or page at a time and off the main actor, and read again
/// when a sync or a live event changed the cache (``cacheChanged()``).
///
/// The session makes one beside the library (``SignedInSession/browse``);
/// a list is read the first time it is asked for, so a start that shows
/// only the books reads none. Main actor only.
@MainActor @Observable
public final class BrowseModel {
    public enum Intent: Equatable, Sendable {
        /// Shows a list (nil: the books, no list).
        case show(BrowseKind?)
        /// Shows Home (``HomeModel``) in place of the books and the lists.
        case showHome
        /// Orders a list.
        case sort(BrowseKind, BrowseSort)
        /// The library's search text: the lists and the series and people
        /// matches follow it.
        case search(String)
        /// Opens a page over the pages open.
        case open(BrowsePageKind, id: String)
        /// Closes the page on top.
        case back
        /// Closes every page.
        case closeAll
        /// Plays the first book of the page on top that is not finished.
        case playNextUnfinished
    }

    /// A book on a page: where it stands on the page, and the library's
    /// book (nil while the library has not read it).
    public struct PageBook: Equatable, Sendable, Identifiable {
        public var entry: BrowsePageEntry
        public var book: LibraryModel.Book?
        public var id: String { entry.bookID }
    }

    /// An open page.
    public struct Page: Equatable, Sendable {
        public var contents: BrowsePageContents
        public var books: [PageBook]
        /// The page's kind and id.
        public var key: PageKey { PageKey(kind: contents.kind, id: contents.id) }
    }

    public struct PageKey: Hashable, Sendable {
        public var kind: BrowsePageKind
        public var id: String
    }

    /// The list shown; nil: the books (or Home, with ``showsHome``).
    public private(set) var shown: BrowseKind?
    /// Home is shown, not the books or a list.
    public private(set) var showsHome = false
    /// Each list read so far, in its order (``sorts``) and filtered by
    /// ``query``.
    public private(set) var lists: [BrowseKind: [BrowseItem]] = [:]
    /// The order of each list (by name until changed; not remembered
    /// across restarts yet).
    public private(set) var sorts: [BrowseKind: BrowseSort]
    public private(set) var query = ""
    /// The series whose name matches ``query`` (empty without a query).
    public private(set) var seriesMatches: [BrowseItem] = []
    /// The authors and narrators whose name matches ``query``, once each.
    public private(set) var peopleMatches: [BrowseItem] = []
    /// The pages open, the newest last.
    public private(set) var pages: [Page] = []
    /// How many times the lists or pages were read (tests wait on it).
    public private(set) var reads = 0
    /// The last page asked for that the cache does not have (nothing
    /// cached has that series, person or genre); cleared by the next open.
    public private(set) var missingPage: PageKey?
    /// Pages asked for whose read has not finished (the window waits for
    /// them before a screenshot).
    public private(set) var pagesOpening = 0

    @ObservationIgnored private let store: (any BrowseStore)?
    /// The pages' photos and series covers (``image(for:)``); nil: none shown.
    @ObservationIgnored public var images: BrowseImageLoader?
    @ObservationIgnored private weak var library: LibraryModel?
    @ObservationIgnored private let dependencies: Dependencies
    /// Every item of each list read, unfiltered and unsorted.
    private var all: [BrowseKind: [BrowseItem]] = [:]
    @ObservationIgnored private let latest = LatestRead()
    /// The lists the read under way reads (empty: none under way).
    @ObservationIgnored private var reading: Set<BrowseKind> = []
    @ObservationIgnored private var libraryObservation: StateObservation?

    public init(dependencies: Dependencies, store: (any BrowseStore)?, library: LibraryModel?) {
        self.dependencies = dependencies
        self.store = store
        self.library = library
        // Each list's order as it was left (a list never ordered is by name).
        let kept = dependencies.settings.load().browseSorts
        sorts = Dictionary(uniqueKeysWithValues: BrowseKind.allCases.map { kind in
            (kind, kept[kind.rawValue].flatMap(BrowseSort.init(rawValue:)) ?? .name)
        })
        if let library {
            libraryObservation = StateObservation { [weak self, weak library] in
                guard let books = library?.books else { return }
                self?.libraryBooksChanged(books)
            }
        }
    }

    public func send(_ intent: Intent) {
        switch intent {
        case .showHome:
            shown = nil
            showsHome = true
        case .show(let kind):
            shown = kind
            showsHome = false
            if let kind, unread([kind]) { reread() }
        case .sort(let kind, let sort):
            guard sorts[kind] != sort else { return }
            sorts[kind] = sort
            refilter()
            rememberSorts()
        case .search(let text):
            guard text != query else { return }
            query = text
            if !text.isEmpty, unread([.series, .authors, .narrators]) {
                reread()
            } else {
                refilter()
            }
        case .open(let kind, let id):
            if let top = pages.last?.key, top == PageKey(kind: kind, id: id) { return }
            open(PageKey(kind: kind, id: id))
        case .back:
            if !pages.isEmpty { pages.removeLast() }
        case .closeAll:
            pages = []
        case .playNextUnfinished:
            guard let page = pages.last else { return }
            let next = page.books.first { $0.book?.progress?.finished != true } ?? page.books.first
            if let next { library?.send(.play(bookID: next.id)) }
        }
    }

    /// The cache changed (a sync, a live event): the lists read and the
    /// pages open are read again.
    public func cacheChanged() {
        guard !all.isEmpty || !pages.isEmpty else { return }
        reread()
    }

    /// Every item of `kind` in its order (``sorts``), whatever the query;
    /// nil until the list has been read (``Intent/show(_:)`` reads it).
    public func items(_ kind: BrowseKind) -> [BrowseItem]? {
        let sort = sorts[kind] ?? .name
        if let ordered = ordered[kind], ordered.sort == sort { return ordered.items }
        return all[kind]?.sorted(by: sort)
    }

    /// Stops reading.
    public func stop() {
        latest.cancel()
        reading = []
        libraryObservation?.cancel()
        libraryObservation = nil
    }

    // MARK: Reading

    /// The lists a reading needs now: those read before, the one shown,
    /// and with a search every list it searches.
    private var wantedKinds: Set<BrowseKind> {
        var kinds = Set(all.keys)
        if let shown { kinds.insert(shown) }
        // The facets' lists share a tab, which offers moods only when there are some.
        if let shown, Self.facetKinds.contains(shown) { kinds.insert(.moods) }
        if !query.isEmpty { kinds.formUnion([.series, .authors, .narrators]) }
        return kinds
    }

    /// The lists of the library's Genres tab: genres, tags, moods, collections.
    public static let facetKinds: [BrowseKind] = [.genres, .tags, .moods, .collections]

    /// Whether one of `kinds` is neither read nor being read. A keystroke
    /// or a tab asks for a list only then: at 50,000 books reading the
    /// series and people lists takes longer than the gap between two keys,
    /// and each key started another whole read of them (a dozen at once
    /// after a word, each holding its own copy of ~23,000 items).
    private func unread(_ kinds: [BrowseKind]) -> Bool {
        kinds.contains { all[$0] == nil && !reading.contains($0) }
    }

    /// Reads the wanted lists and the open pages again, off the main actor.
    private func reread() {
        guard let store else { return }
        let (kinds, keys, logger) = (wantedKinds, pages.map(\.key), dependencies.logger)
        reading = kinds
        latest.start({ () -> ([BrowseKind: [BrowseItem]], [PageKey: BrowsePageContents]) in
            var lists: [BrowseKind: [BrowseItem]] = [:]
            var pages: [PageKey: BrowsePageContents] = [:]
            do {
                for kind in kinds { lists[kind] = try store.browseItems(kind) }
                for key in keys { pages[key] = try store.browsePage(key.kind, id: key.id) }
            } catch {
                logger.warning("Could not read the browse lists", metadata: ["reason": "\(error)"])
            }
            return (lists, pages)
        }, show: { [weak self] read in
            guard let self else { return }
            self.reading = []
            self.all.merge(read.0) { $1 }
            for kind in read.0.keys { self.ordered[kind] = nil }
            self.people = nil
            // A page whose subject is gone from the cache closes.
            self.pages = self.pages.compactMap { page in read.1[page.key].map { self.resolved($0) } }
            self.refilter()
            self.reads += 1
            // A read decodes every row of its lists and frees the lists it
            // replaces: free pages malloc would keep, handed back once the
            // tabs settle.
            FreedMemory.release(logger: self.dependencies.logger)
        })
    }

    private func open(_ key: PageKey) {
        missingPage = nil
        guard let store else { return }
        let logger = dependencies.logger
        pagesOpening += 1
        Task { [weak self] in
            let contents = await Task.detached(priority: .userInitiated) { () -> BrowsePageContents? in
                do { return try store.browsePage(key.kind, id: key.id) } catch {
                    logger.warning("Could not read a browse page", metadata: ["kind": "\(key.kind.rawValue)", "reason": "\(error)"])
                    return nil
                }
            }.value
            guard let self else { return }
            self.pagesOpening -= 1
            guard let contents else {
                self.missingPage = key
                return
            }
            self.pages.append(self.resolved(contents))
            self.reads += 1
        }
    }

    /// `contents` with the library's books.
    private func resolved(_ contents: BrowsePageContents) -> Page {
        let books = library?.booksByID(Set(contents.entries.map(\.bookID))) ?? [:]
        return Page(contents: contents, books: contents.entries.map { PageBook(entry: $0, book: books[$0.bookID]) })
    }

    private func libraryBooksChanged(_ books: [LibraryModel.Book]) {
        guard !pages.isEmpty else { return }
        pages = pages.map { resolved($0.contents) }
    }

    /// Each list read, in its order: sorted once per read or order
    /// change, so a keystroke only filters.
    @ObservationIgnored private var ordered: [BrowseKind: (sort: BrowseSort, items: [BrowseItem])] = [:]

    /// The authors and narrators, each once, by name: the search's people
    /// matches are these filtered (sorted once per read, not per key).
    @ObservationIgnored private var people: [BrowseItem]?

    private func refilter() {
        var lists: [BrowseKind: [BrowseItem]] = [:]
        for (kind, items) in all {
            let sort = sorts[kind] ?? .name
            if ordered[kind]?.sort != sort {
                ordered[kind] = (sort, items.sorted(by: sort))
            }
            lists[kind] = ordered[kind]?.items.matching(query) ?? []
        }
        self.lists = lists
        if query.isEmpty {
            seriesMatches = []
            peopleMatches = []
        } else {
            seriesMatches = lists[.series] ?? []
            let people = self.people ?? {
                var seen = Set<String>()
                return ((all[.authors] ?? []) + (all[.narrators] ?? [])).filter { seen.insert($0.id).inserted }.sorted(by: .name)
            }()
            self.people = people
            peopleMatches = people.matching(query)
        }
    }
}

extension LibraryModel {
    /// The books among `ids`, by id.
    func booksByID(_ ids: Set<String>) -> [String: Book] {
        var found: [String: Book] = [:]
        for book in books where ids.contains(book.id) { found[book.id] = book }
        return found
    }
}

extension BrowseModel {
    /// Keeps the lists' orders for the next run (a list by name is not named).
    fileprivate func rememberSorts() {
        var settings = dependencies.settings.load()
        settings.browseSorts = Dictionary(uniqueKeysWithValues: sorts.filter { $0.value != .name }.map { ($0.key.rawValue, $0.value.rawValue) })
        do {
            try dependencies.settings.save(settings)
        } catch {
            dependencies.logger.warning("Could not save the browse lists' order", metadata: ["reason": "\(error)"])
        }
    }
}
