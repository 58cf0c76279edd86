import Foundation

/// One thing the desktop's search (GNOME Shell's search provider) can find
/// in the library: a book, a series or a person. Its identifier names the
/// kind and the server's id, `book:ID`, `series:ID` or `person:ID`, so the
/// Shell can hand it back (metas, activation) with nothing else to keep.
public struct DesktopSearchResult: Hashable, Sendable {
    public enum Kind: String, CaseIterable, Sendable {
        case book
        case series
        case person
    }

    public var kind: Kind
    public var id: String

    public init(_ kind: Kind, id: String) {
        self.kind = kind
        self.id = id
    }

    /// The result an identifier names; nil for one this app did not make
    /// (an unknown kind, or no id).
    public init?(identifier: String) {
        guard let colon = identifier.firstIndex(of: ":"), let kind = Kind(rawValue: String(identifier[..<colon])) else { return nil }
        let id = String(identifier[identifier.index(after: colon)...])
        guard !id.isEmpty else { return nil }
        self.init(kind, id: id)
    }

    /// `kind:id`, what the Shell is given.
    public var identifier: String { "\(kind.rawValue):\(id)" }
}

/// What the Shell shows for one result: its name, a line under it, and
/// which book's cover stands for it.
public struct DesktopSearchMeta: Equatable, Sendable {
    public var result: DesktopSearchResult
    /// The book's title, the series' or the person's name.
    public var name: String
    /// "Author · 12 h 5 min", "Series · 7 books", "Narrator · 3 books".
    public var description: String
    /// The book whose cached cover is the result's icon (books with a cover
    /// only), and its version (covers are cached per version).
    public var coverBookID: String?
    public var coverVersion: Date?

    public init(result: DesktopSearchResult, name: String, description: String, coverBookID: String? = nil, coverVersion: Date? = nil) {
        self.result = result
        self.name = name
        self.description = description
        self.coverBookID = coverBookID
        self.coverVersion = coverVersion
    }
}

/// The library as the desktop's search looks into it: the cached books
/// (the library's own ``LibraryIndex``), the series and the people, with
/// their folded names as bytes. Built once per change of the cache, off
/// the main actor; every search after that is a scan of bytes in memory
/// (no cache read, no network).
///
/// A search matches every word typed, folded as the library's search folds
/// them (``SearchKey``), and ranks: books whose title has every word, then
/// series, then people, then books found by an author, a narrator or a
/// series name; books in title order, series and people by name. At most
/// ``limit`` results are returned.
public struct DesktopSearchIndex: Sendable {
    /// The most results one search returns (the Shell shows a handful).
    public static let limit = 100

    struct Named: Sendable {
        var id: String
        var name: String
        var key: [UInt8]
        var bookCount: Int
    }

    struct Person: Sendable {
        var id: String
        var name: String
        var key: [UInt8]
        /// Books the person wrote, and read (0: not in that role).
        var authored: Int
        var narrated: Int
    }

    let library: LibraryIndex
    /// Positions in ``library`` in title order.
    let titleOrder: [Int]
    let bookPositions: [String: Int]
    let series: [Named]
    let seriesPositions: [String: Int]
    let people: [Person]
    let peoplePositions: [String: Int]

    /// - Parameters:
    ///   - library: the library's books.
    ///   - titleOrder: `library`'s positions by title, when known already
    ///     (the library sorted by title); computed otherwise.
    ///   - series: the series list (``BrowseStore/browseItems(_:)``).
    ///   - authors: the authors list.
    ///   - narrators: the narrators list.
    public init(library: LibraryIndex, titleOrder: [Int]? = nil, series: [BrowseItem], authors: [BrowseItem], narrators: [BrowseItem]) {
        self.library = library
        let order = titleOrder.flatMap { $0.count == library.count ? $0 : nil } ?? library.order(by: .title)
        self.titleOrder = order
        var bookPositions: [String: Int] = [:]
        bookPositions.reserveCapacity(library.count)
        for (position, entry) in library.entries.enumerated() { bookPositions[entry.book.id] = position }
        self.bookPositions = bookPositions

        let namedSeries = series.sorted(by: .name).map { Named(id: $0.id, name: $0.name, key: Array($0.searchKey.utf8), bookCount: $0.bookCount) }
        self.series = namedSeries
        seriesPositions = Dictionary(namedSeries.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })

        var people: [Person] = []
        var positions: [String: Int] = [:]
        for item in (authors + narrators).sorted(by: .name) {
            if positions[item.id] == nil {
                positions[item.id] = people.count
                people.append(Person(id: item.id, name: item.name, key: Array(item.searchKey.utf8), authored: 0, narrated: 0))
            }
        }
        for author in authors { if let position = positions[author.id] { people[position].authored = author.bookCount } }
        for narrator in narrators { if let position = positions[narrator.id] { people[position].narrated = narrator.bookCount } }
        self.people = people
        peoplePositions = positions
    }

    /// How many books, series and people it holds.
    public var counts: (books: Int, series: Int, people: Int) { (library.count, series.count, people.count) }

    /// The words of `terms` (the Shell's, already split), folded as bytes;
    /// empty when nothing is left to look for.
    static func words(_ terms: [String]) -> [[UInt8]] {
        terms.flatMap { SearchKey.fold($0).split(whereSeparator: \.isWhitespace) }.map { Array($0.utf8) }
    }

    /// The results for `terms`, best first, at most ``limit``.
    public func results(for terms: [String]) -> [DesktopSearchResult] {
        let words = Self.words(terms)
        guard !words.isEmpty else { return [] }
        var byTitle: [DesktopSearchResult] = []
        var byOthers: [DesktopSearchResult] = []
        for position in titleOrder {
            let entry = library.entries[position]
            guard words.allSatisfy({ entry.key.containsBytes($0) }) else { continue }
            if words.allSatisfy({ entry.titleKey.containsBytes($0) }) {
                byTitle.append(DesktopSearchResult(.book, id: entry.book.id))
                if byTitle.count == Self.limit { return byTitle }
            } else if byOthers.count < Self.limit {
                byOthers.append(DesktopSearchResult(.book, id: entry.book.id))
            }
        }
        var results = byTitle
        for item in series where words.allSatisfy({ item.key.containsBytes($0) }) {
            results.append(DesktopSearchResult(.series, id: item.id))
            if results.count == Self.limit { return results }
        }
        for person in people where words.allSatisfy({ person.key.containsBytes($0) }) {
            results.append(DesktopSearchResult(.person, id: person.id))
            if results.count == Self.limit { return results }
        }
        return Array((results + byOthers).prefix(Self.limit))
    }

    /// The results for `terms` among `previous` (the Shell's earlier results,
    /// for terms these extend), their order kept. A full earlier list (it
    /// may have left better matches out) is searched anew.
    public func results(for terms: [String], within previous: [String]) -> [DesktopSearchResult] {
        guard previous.count < Self.limit else { return results(for: terms) }
        let words = Self.words(terms)
        guard !words.isEmpty else { return [] }
        return previous.compactMap(DesktopSearchResult.init(identifier:)).filter { result in
            guard let key = key(of: result) else { return false }
            return words.allSatisfy { key.containsBytes($0) }
        }
    }

    /// The folded text a result is matched on; nil when it is not in the library.
    private func key(of result: DesktopSearchResult) -> [UInt8]? {
        switch result.kind {
        case .book: bookPositions[result.id].map { library.entries[$0].key }
        case .series: seriesPositions[result.id].map { series[$0].key }
        case .person: peoplePositions[result.id].map { people[$0].key }
        }
    }

    /// What the Shell shows for `result`; nil when it is not in the library.
    /// - Parameter personBookCount: a person's books in every role, when
    ///   known (the lists count them per role: a person who wrote and read
    ///   some of the same books is counted from their page).
    public func meta(for result: DesktopSearchResult, personBookCount: Int? = nil) -> DesktopSearchMeta? {
        switch result.kind {
        case .book:
            guard let position = bookPositions[result.id] else { return nil }
            let book = library.entries[position].book
            let length = DurationText.short(book.duration)
            let description = [book.authors, length].filter { !$0.isEmpty }
            // TRANSLATORS: two facts side by side, e.g. a book's author and its length: “Terry Pratchett · 12 h 5 min”.
            let line = description.count == 2 ? tr("%@ · %@", description[0], description[1]) : description.first ?? ""
            return DesktopSearchMeta(result: result, name: book.title, description: line,
                                     coverBookID: book.hasCover ? book.id : nil, coverVersion: book.hasCover ? book.updatedAt : nil)
        case .series:
            guard let position = seriesPositions[result.id] else { return nil }
            let item = series[position]
            // TRANSLATORS: a series found by the desktop's search, then how many books it has: “Series · 7 books”.
            return DesktopSearchMeta(result: result, name: item.name, description: tr("Series · %@", Self.books(item.bookCount)))
        case .person:
            guard let position = peoplePositions[result.id] else { return nil }
            let person = people[position]
            let books = Self.books(personBookCount ?? max(person.authored, person.narrated))
            let description: String
            switch (person.authored > 0, person.narrated > 0) {
            // TRANSLATORS: a person found by the desktop's search, then how many books they have: “Author and narrator · 12 books”.
            case (true, true): description = tr("Author and narrator · %@", books)
            // TRANSLATORS: a person found by the desktop's search: “Narrator · 3 books”.
            case (false, true): description = tr("Narrator · %@", books)
            // TRANSLATORS: a person found by the desktop's search: “Author · 12 books”.
            default: description = tr("Author · %@", books)
            }
            return DesktopSearchMeta(result: result, name: person.name, description: description)
        }
    }

    /// Whether `id` is a person with books in both roles (their total is
    /// read from their page, ``meta(for:personBookCount:)``).
    public func isAuthorAndNarrator(_ id: String) -> Bool {
        guard let position = peoplePositions[id] else { return false }
        return people[position].authored > 0 && people[position].narrated > 0
    }

    static func books(_ count: Int) -> String {
        trn("%@ book", "%@ books", count: count, Localization.number(count))
    }
}
