import Foundation

/// A book as playing and downloading it need it: the library's listing of
/// it with its audio files and chapters, decoded once from the cache.
///
/// It is made where the book is read (the library's details panel,
/// ``LibraryModel/playable(_:)`` off the main actor) and handed on as a
/// value: the player (``PlayerModel/Intent/playBook(_:)``) and the
/// downloads (``DownloadsModel/Intent/downloadBook(_:)``) read nothing more.
/// Commands that name a book by id (a paired device, the headless front,
/// *Continue listening*) are read into one at that boundary.
public struct PlayableBook: Equatable, Sendable, Identifiable {
    /// The library's row, without its details (they are below, decoded).
    public var listing: CachedBook
    /// The audio files, in play order (empty: the server lists none).
    public var audioFiles: [BookDetails.AudioFileEntry]
    public var chapters: [BookDetails.ChapterEntry]

    public var id: String { listing.id }

    /// `book` as the cache holds it, its details decoded.
    public init(_ book: CachedBook) {
        self.init(book, details: book.decodedDetails)
    }

    /// `book` with `details`, its details decoded already.
    public init(_ book: CachedBook, details: BookDetails) {
        var listing = book
        listing.details = Data()
        self.listing = listing
        audioFiles = details.audioFiles ?? []
        chapters = details.chapters
    }

    /// The book `id` in `store`, or nil (not cached, or unreadable: the
    /// reason is `error`'s).
    static func read(_ id: String, from store: (any LibraryStore)?) throws -> PlayableBook? {
        try store?.book(id: id).map(PlayableBook.init)
    }
}
