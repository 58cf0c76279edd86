import Foundation

extension LibraryModel {
    /// One book as the page shows it.
    public struct Book: Equatable, Sendable, Identifiable {
        public var id: String
        public var title: String
        public var authors: String
        public var narrators: String
        /// `Series #sequence`, comma-separated.
        public var series: String
        /// Milliseconds.
        public var duration: Int64
        public var hasCover: Bool
        /// Changes when the book does (the cover is fetched again).
        public var version: Date
        public var progress: BookProgress?

        public init(id: String, title: String, authors: String, narrators: String = "", series: String = "",
                    duration: Int64 = 0, hasCover: Bool = false, version: Date = Date(timeIntervalSince1970: 0),
                    progress: BookProgress? = nil) {
            self.id = id
            self.title = title
            self.authors = authors
            self.narrators = narrators
            self.series = series
            self.duration = duration
            self.hasCover = hasCover
            self.version = version
            self.progress = progress
        }
    }

    /// The book the details panel shows.
    public struct Details: Equatable, Sendable {
        public var book: Book
        public var subtitle: String?
        /// The description as plain text (HTML stripped).
        public var description: String
        public var publisher: String?
        public var publishYear: String?
        public var contributors: [BookDetails.Person]
        public var chapters: [BookDetails.ChapterEntry]
        /// Bytes a download of the book takes (its audio files as the
        /// server reported them), when known.
        public var downloadSize: Int64?
        /// The book as Play and Download hand it on (nil in previews).
        public var playable: PlayableBook?
        /// Its people, series and genres, each of which opens a page.
        public var links = BookLinks()
    }
}

extension LibraryModel {
    /// The cached books among `ids`, by id (one pass over the library:
    /// for a few dozen rows that show covers, such as Discover's).
    public func books(ids: Set<String>) -> [String: Book] {
        var found: [String: Book] = [:]
        guard !ids.isEmpty else { return found }
        for position in index.entries.indices where ids.contains(index.entries[position].book.id) {
            let book = book(at: position)
            found[book.id] = book
        }
        return found
    }
}
