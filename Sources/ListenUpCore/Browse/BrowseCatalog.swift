import Foundation

/// The lists beside the books: a library page's tabs and the headless
/// `browse` action.
public enum BrowseKind: String, CaseIterable, Sendable, Codable {
    case series
    case authors
    case narrators
    case genres
    case tags
    /// None on REST v1 (the Go server has no moods): the list is empty.
    case moods
    case collections
    /// The user's shelves (Home's *My Shelves*; no tab).
    case shelves

    /// The contributor role the list shows (authors, narrators); nil for
    /// the others.
    public var role: String? {
        switch self {
        case .authors: "author"
        case .narrators: "narrator"
        case .series, .genres, .tags, .moods, .collections, .shelves: nil
        }
    }

    /// The page an item of this list opens.
    public var pageKind: BrowsePageKind {
        switch self {
        case .series: .series
        case .authors, .narrators: .contributor
        case .genres: .genre
        case .tags: .tag
        case .moods: .mood
        case .collections: .collection
        case .shelves: .shelf
        }
    }
}

/// One entry of a browse list: a series, a person or a genre, with how
/// many of the cached books it has.
public struct BrowseItem: Equatable, Hashable, Sendable, Identifiable {
    public var id: String
    public var name: String
    /// What the name sorts by (the server's sort name, else the name), folded.
    public var sortKey: String
    /// The name folded as the search folds it (``SearchKey``), once.
    public var searchKey: String
    public var bookCount: Int
    /// When the newest of its books was added to the library.
    public var newestBookAdded: Date?
    /// How deep in the server's genre tree it is (0: a root, and anything
    /// but a genre).
    public var depth: Int

    public init(id: String, name: String, sortName: String? = nil, bookCount: Int, newestBookAdded: Date? = nil, depth: Int = 0) {
        self.id = id
        self.name = name
        searchKey = SearchKey.fold(name)
        sortKey = sortName.map(SearchKey.fold) ?? searchKey
        self.bookCount = bookCount
        self.newestBookAdded = newestBookAdded
        self.depth = depth
    }
}

/// How a browse list is ordered.
public enum BrowseSort: String, CaseIterable, Sendable, Codable {
    /// By (sort) name, A to Z.
    case name
    /// Most books first.
    case bookCount
    /// The one with the newest book first.
    case recentlyAdded
}

extension Array where Element == BrowseItem {
    /// The items in `sort`'s order; ties by name, then id, so the order is
    /// the same on every run.
    public func sorted(by sort: BrowseSort) -> [BrowseItem] {
        sorted { left, right in
            switch sort {
            case .name:
                break
            case .bookCount:
                if left.bookCount != right.bookCount { return left.bookCount > right.bookCount }
            case .recentlyAdded:
                let (l, r) = (left.newestBookAdded ?? .distantPast, right.newestBookAdded ?? .distantPast)
                if l != r { return l > r }
            }
            if left.sortKey != right.sortKey { return left.sortKey < right.sortKey }
            return left.id < right.id
        }
    }

    /// The items whose name holds every word of `query` (folded as the
    /// books' search is), in this order.
    /// The keys are compared as bytes, as the books' search compares its
    /// own (``ByteSearch``; both sides folded alike): `String.contains`
    /// walked each key by `Character`, and a keystroke searches every
    /// series and person of the library (23,000 at 50,000 books).
    public func matching(_ query: String) -> [BrowseItem] {
        let terms = SearchKey.fold(query).split(whereSeparator: \.isWhitespace).map { [UInt8]($0.utf8) }
        guard !terms.isEmpty else { return self }
        return filter { item in
            func matches(_ key: UnsafeRawBufferPointer) -> Bool { terms.allSatisfy { ByteSearch.contains($0, in: key) } }
            return item.searchKey.utf8.withContiguousStorageIfAvailable { matches(UnsafeRawBufferPointer($0)) }
                ?? [UInt8](item.searchKey.utf8).withUnsafeBytes(matches)
        }
    }
}

/// What a browse page shows: a series, a contributor, a genre, a tag, a
/// mood or a collection.
public enum BrowsePageKind: String, CaseIterable, Sendable, Codable {
    case series
    case contributor
    case genre
    case tag
    case mood
    case collection
    /// One of the user's shelves, or someone else's (read-only).
    case shelf
}

/// One book on a browse page.
public struct BrowsePageEntry: Equatable, Sendable {
    public var bookID: String
    public var title: String
    /// The book's place in the series (series pages), as the server writes it.
    public var sequence: String?
    /// The contributor's roles on the book (contributor pages).
    public var roles: [String]

    public init(bookID: String, title: String, sequence: String? = nil, roles: [String] = []) {
        self.bookID = bookID
        self.title = title
        self.sequence = sequence
        self.roles = roles
    }
}

/// A series, contributor or genre page as the cache holds it.
public struct BrowsePageContents: Equatable, Sendable {
    public var kind: BrowsePageKind
    public var id: String
    public var name: String
    /// The series' or person's description, plain text.
    public var description: String?
    /// The contributor's photo or the series' cover on the server.
    public var imagePath: String?
    /// The books, in the page's order (``BrowsePageContents/ordered(_:)``).
    public var entries: [BrowsePageEntry]
    /// A genre's parents, the root first (genre pages).
    public var parents: [BrowseItem]
    /// The genres right under a genre of the server's tree that have books,
    /// in the curator's order (genre pages).
    public var children: [BrowseItem]
    /// Who made the shelf when it is not the user's (shelf pages; read-only).
    public var owner: ShelfOwner?
    /// Whether the shelf is private; nil where the server has no such flag.
    public var isPrivate: Bool?

    public init(kind: BrowsePageKind, id: String, name: String, description: String? = nil, imagePath: String? = nil,
                entries: [BrowsePageEntry], parents: [BrowseItem] = [], children: [BrowseItem] = [], owner: ShelfOwner? = nil,
                isPrivate: Bool? = nil) {
        self.kind = kind
        self.id = id
        self.name = name
        self.description = description
        self.imagePath = imagePath
        self.entries = Self.ordered(entries, kind: kind)
        self.parents = parents
        self.children = children
        self.owner = owner
        self.isPrivate = isPrivate
    }

    /// A series in sequence order (numerically: "2" before "10", "1.5"
    /// between 1 and 2), books with no number (or none a number can be read
    /// from) after the numbered ones; a shelf in its own order, as given;
    /// everything else, and ties, by title.
    public static func ordered(_ entries: [BrowsePageEntry], kind: BrowsePageKind) -> [BrowsePageEntry] {
        guard kind != .shelf else { return entries }
        func number(_ entry: BrowsePageEntry) -> Double? {
            guard kind == .series, let text = entry.sequence?.trimmingCharacters(in: .whitespaces),
                  let value = Double(text), value.isFinite else { return nil }
            return value
        }
        return entries.map { (entry: $0, number: number($0), title: SearchKey.fold($0.title)) }.sorted { left, right in
            switch (left.number, right.number) {
            case let (l?, r?) where l != r: return l < r
            case (.some, nil): return true
            case (nil, .some): return false
            default: break
            }
            if left.title != right.title { return left.title < right.title }
            return left.entry.bookID < right.entry.bookID
        }.map(\.entry)
    }
}

/// The part of the library cache that browsing reads and its syncs write:
/// each book's links (people with roles, series with places, genres), kept
/// as the books are stored, and the contributors and series the server
/// describes. Reads are made for one list or page at a time, off the main
/// actor.
public protocol BrowseStore: AnyObject, Sendable {
    /// Every item of `kind` with at least one cached book, in no particular order.
    func browseItems(_ kind: BrowseKind) throws -> [BrowseItem]

    /// The page of `id`; nil when no cached book has it (and, for a series
    /// or a contributor, the server never described it).
    func browsePage(_ kind: BrowsePageKind, id: String) throws -> BrowsePageContents?

    /// Applies one page of a browse domain together with its sync state.
    /// - Returns: how many rows it added, changed or deleted.
    @discardableResult
    func apply(_ rows: BrowseRows, state: LibrarySyncState) throws -> Int

    /// Where the last sync of `domain` stopped.
    func syncState(of domain: BrowseDomain) throws -> LibrarySyncState

    /// The links of one cached book (empty when it has none or is not cached).
    func links(ofBook id: String) throws -> BookLinks

    /// The listening stats last read from the server (Home), if any.
    func listeningStats() throws -> ListeningStats?

    /// Keeps the listening stats for the next start.
    func saveListeningStats(_ stats: ListeningStats) throws

    /// The user's shelves, each with the cached books on it in the shelf's order.
    func shelves() throws -> [Shelf]

    /// Others' shelves as last discovered, each with the cached books on it.
    func discoveredShelves() throws -> [Shelf]

    /// Keeps others' shelves (``ServerConnection/discoverShelves()``) for the next start.
    func saveDiscoveredShelves(_ shelves: [Shelf]) throws

    /// The activity feed, newest first, at most `limit` entries shown
    /// (``ActivityFeedEntry/isShown``), each with its user's and book's names.
    func activityFeed(limit: Int) throws -> [ActivityFeedEntry]
}

/// A book's links to the lists beside the books, read from its sync row.
public struct BookLinks: Equatable, Sendable {
    public struct Person: Equatable, Sendable {
        public var id: String
        public var name: String
        public var role: String

        public init(id: String, name: String, role: String) {
            self.id = id
            self.name = name
            self.role = role
        }
    }

    public struct SeriesPlace: Equatable, Sendable {
        public var id: String
        public var name: String
        public var sequence: String?

        public init(id: String, name: String, sequence: String? = nil) {
            self.id = id
            self.name = name
            self.sequence = sequence
        }
    }

    public struct Genre: Equatable, Sendable {
        public var id: String
        public var name: String
        /// The slug path from the root (`fiction/fantasy`); nil when the
        /// server gives names only (REST v1).
        public var path: String?

        public init(id: String, name: String, path: String? = nil) {
            self.id = id
            self.name = name
            self.path = path
        }
    }

    /// A tag, mood or collection the book is in.
    public struct Facet: Equatable, Sendable {
        public var id: String
        public var name: String

        public init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }

    /// One entry per person and role.
    public var people: [Person]
    public var series: [SeriesPlace]
    public var genres: [Genre]
    /// The book's tags: written with the book from the tags it names (REST
    /// v1; the slug made readable); the cache adds those of the `book_tags`
    /// domain (kRPC) when it reads a book's links.
    public var tags: [Facet]
    /// The book's moods and the collections it is in: read by the cache
    /// from their domains, never part of the book's row.
    public var moods: [Facet]
    public var collections: [Facet]

    public init(people: [Person] = [], series: [SeriesPlace] = [], genres: [Genre] = [], tags: [Facet] = [], moods: [Facet] = [],
                collections: [Facet] = []) {
        self.people = people
        self.series = series
        self.genres = genres
        self.tags = tags
        self.moods = moods
        self.collections = collections
    }

    public init(_ book: ServerBook) {
        var people: [Person] = []
        for contributor in book.contributors {
            for role in contributor.roles where !people.contains(where: { $0.id == contributor.id && $0.role == role }) {
                people.append(Person(id: contributor.id, name: contributor.name, role: role))
            }
        }
        self.people = people
        series = book.series
        genres = book.genres
        tags = book.tags.map { Facet(id: $0.id, name: Tag.readableName(slug: $0.slug)) }
        moods = []
        collections = []
    }
}

extension BookLinks {
    /// Every link in one string: two books with the same key have the same
    /// links (a store compares keys to know whether to write them again).
    public var key: String {
        var key = ""
        for person in people { key += "p\u{1F}\(person.id)\u{1F}\(person.name)\u{1F}\(person.role)\u{1E}" }
        for place in series { key += "s\u{1F}\(place.id)\u{1F}\(place.name)\u{1F}\(place.sequence ?? "")\u{1E}" }
        for genre in genres { key += "g\u{1F}\(genre.id)\u{1F}\(genre.name)\u{1F}\(genre.path ?? "")\u{1E}" }
        for tag in tags { key += "t\u{1F}\(tag.id)\u{1F}\(tag.name)\u{1E}" }
        return key
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
