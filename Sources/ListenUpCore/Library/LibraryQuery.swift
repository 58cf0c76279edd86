import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Text folded for matching: lower case, no diacritics, no width variants,
/// composed (NFC), whitespace runs made one space. Search compares folded
/// UTF-8 bytes, so "Éowyn" is found by "eowyn", "ＡＢＣ" by "abc", and CJK,
/// Arabic and emoji by themselves.
public enum SearchKey {
    public static func fold(_ text: String) -> String {
        if let folded = foldPlainASCII(text) { return folded }
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .lowercased()
            .precomposedStringWithCanonicalMapping
        return folded.split(whereSeparator: { $0.isWhitespace && $0 != "\n" }).joined(separator: " ")
    }

    /// The same fold for text of printable ASCII, spaces and `\n` alone
    /// (most titles and names), byte by byte: letters lowered, runs of
    /// spaces made one, spaces at either end dropped. Nil for any other
    /// text (Foundation folds it). A sync folds a key for every book.
    static func foldPlainASCII(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count)
            var space = false
            for byte in bytes {
                switch byte {
                case 0x20:
                    space = !output.isEmpty
                case 0x0A, 0x21...0x7E:
                    if space { output.append(0x20) }
                    space = false
                    output.append((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
                default:
                    return nil
                }
            }
            return String(decoding: output, as: UTF8.self)
        }
    }
}

/// How the library is ordered.
public enum LibrarySort: String, CaseIterable, Codable, Sendable {
    /// A to Z by title.
    case title
    /// A to Z by the first author, then title.
    case author
    /// Newest first.
    case recentlyAdded
    /// Shortest first.
    case duration

    /// The order saved in `settings`, or by title.
    public init(savedIn settings: AppSettings) {
        self = settings.librarySort.flatMap(LibrarySort.init(rawValue:)) ?? .title
    }
}

/// Which books the library shows, besides what the search matches.
///
/// Not remembered across restarts: like the search, a filter is a way of
/// looking for something now, and a library that opens showing two books
/// of a thousand looks as if the rest were lost (GNOME apps remember how a
/// view is laid out and sorted, not what it is narrowed to).
public enum LibraryFilter: String, CaseIterable, Sendable {
    /// Every book.
    case all
    /// The books downloaded in full (``DownloadsModel/downloadedBookIDs``):
    /// those that play with no network. A book still downloading, paused
    /// or failed is not one of them.
    case downloaded
}

/// How the library is laid out.
public enum LibraryLayout: String, CaseIterable, Codable, Sendable {
    case grid
    case list
}

/// The library in memory, ready to be searched and sorted quickly: every
/// book's folded key as bytes, and the order for each sort computed once on
/// plain byte comparisons (no collator calls in the hot path).
public struct LibraryIndex: Sendable {
    public struct Entry: Sendable {
        public var book: CachedBook
        /// `title \n authors \n narrators \n series`, folded, as UTF-8.
        let key: [UInt8]
        let titleKey: ArraySlice<UInt8>
        let authorKey: ArraySlice<UInt8>
    }

    public internal(set) var entries: [Entry]

    public init(_ books: [CachedBook]) {
        entries = books.map { book in
            let key = Array(book.searchKey.utf8)
            let lines = key.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            return Entry(book: book, key: key, titleKey: lines.first ?? [], authorKey: lines.count > 1 ? lines[1] : [])
        }
    }

    /// This index with the books of `ids` taken out and `books` (some of
    /// those ids, as they are now) put in: the entries an index of the
    /// changed library would have, without reading the rest again. Orders
    /// (``order(by:)``) do not depend on where an entry sits.
    public func replacing(_ ids: Set<String>, with books: [CachedBook]) -> LibraryIndex {
        var changed = self
        changed.entries.removeAll { ids.contains($0.book.id) }
        changed.entries += LibraryIndex(books).entries
        return changed
    }

    public var count: Int { entries.count }

    /// Indices into ``entries`` in the order `sort` asks for.
    public func order(by sort: LibrarySort) -> [Int] {
        // Compared in place: indexing the array itself copied both entries
        // (a book's six strings retained and released) at each comparison.
        entries.withUnsafeBufferPointer { entries in
            Array(entries.indices).sorted { Self.precedes(entries[$0], entries[$1], by: sort) }
        }
    }

    /// Whether `x` comes before `y` in the order `sort` asks for: a total
    /// order (ties fall back to the title, then the id), so each book has
    /// one place in it and a binary search finds it.
    static func precedes(_ x: Entry, _ y: Entry, by sort: LibrarySort) -> Bool {
        func titleThenID() -> Bool {
            let titles = ByteSearch.compare(x.titleKey, y.titleKey)
            if titles != 0 { return titles < 0 }
            return x.book.id < y.book.id
        }
        switch sort {
        case .title:
            return titleThenID()
        case .author:
            // Books without an author go last.
            if x.authorKey.isEmpty != y.authorKey.isEmpty { return !x.authorKey.isEmpty }
            let authors = ByteSearch.compare(x.authorKey, y.authorKey)
            if authors != 0 { return authors < 0 }
            return titleThenID()
        case .recentlyAdded:
            if x.book.createdAt != y.book.createdAt { return x.book.createdAt > y.book.createdAt }
            return titleThenID()
        case .duration:
            if x.book.duration != y.book.duration { return x.book.duration < y.book.duration }
            return titleThenID()
        }
    }

    /// The indices of `order` whose book matches every word of `query`
    /// (title, authors, narrators or series), order kept. An empty query
    /// matches everything.
    public func filter(_ order: [Int], query: String) -> [Int] {
        ranks(in: order, matching: query).map { order[$0] }
    }

    /// The places in `order` (0 for its first book) whose book matches
    /// every word of `query`, in order: what a list aligned with `order`
    /// (``LibraryModel/books``) keeps of itself.
    public func ranks(in order: [Int], matching query: String) -> [Int] {
        let terms = SearchKey.fold(query).split(whereSeparator: \.isWhitespace).map { Array($0.utf8) }
        guard !terms.isEmpty else { return Array(order.indices) }
        return entries.withUnsafeBufferPointer { entries in
            order.indices.filter { rank in
                let key = entries[order[rank]].key
                return terms.allSatisfy { key.containsBytes($0) }
            }
        }
    }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs in these bytes (``ByteSearch``).
    func containsBytes(_ needle: [UInt8]) -> Bool {
        withUnsafeBytes { ByteSearch.contains(needle, in: $0) }
    }
}

extension ArraySlice where Element == UInt8 {
    /// Whether `needle` occurs in these bytes (``ByteSearch``).
    func containsBytes(_ needle: [UInt8]) -> Bool {
        withUnsafeBytes { ByteSearch.contains(needle, in: $0) }
    }
}

enum ByteSearch {
    /// `a` against `b` byte by byte, as `lexicographicallyPrecedes` orders
    /// them (memcmp compares unsigned bytes): negative, zero or positive.
    static func compare(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Int {
        a.withUnsafeBytes { a in
            b.withUnsafeBytes { b in
                let common = min(a.count, b.count)
                if common > 0, let x = a.baseAddress, let y = b.baseAddress {
                    let bytes = memcmp(x, y, common)
                    if bytes != 0 { return Int(bytes) }
                }
                return a.count - b.count
            }
        }
    }

    /// Whether `needle` occurs in `haystack`: memchr for the first byte,
    /// memcmp for the rest (glibc's memmem is not exported to Swift).
    static func contains(_ needle: [UInt8], in haystack: UnsafeRawBufferPointer) -> Bool {
        guard !needle.isEmpty else { return true }
        guard needle.count <= haystack.count else { return false }
        return needle.withUnsafeBytes { needle in
            guard let start = haystack.baseAddress, let wanted = needle.baseAddress else { return false }
            let first = Int32(needle[0])
            let lastStart = haystack.count - needle.count
            var offset = 0
            while offset <= lastStart {
                guard let found = memchr(start + offset, first, lastStart - offset + 1) else { return false }
                let position = start.distance(to: UnsafeRawPointer(found))
                if memcmp(start + position, wanted, needle.count) == 0 { return true }
                offset = position + 1
            }
            return false
        }
    }
}
