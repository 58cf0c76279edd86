import Foundation

extension LibraryModel {
    public enum Status: Equatable, Sendable {
        /// Nothing cached yet: the first sync is running.
        case loading
        case loaded
        case failed(code: String, message: String)
    }

    /// A sync in progress: books stored so far, and how many the server
    /// said it has (when it said).
    public struct SyncProgress: Equatable, Sendable {
        public var stored: Int
        public var expected: Int?

        /// 0...1 when the total is known.
        public var fraction: Double? {
            guard let expected, expected > 0 else { return nil }
            return min(1, Double(stored) / Double(expected))
        }
    }

    public enum Intent: Equatable, Sendable {
        case reload
        case signOut
        case search(String)
        case sort(LibrarySort)
        case layout(LibraryLayout)
        /// Shows a book's details (`nil` closes them).
        case select(String?)
        /// Shows every book, or only the downloaded ones.
        case filter(LibraryFilter)
        /// Shows only finished books (true), only those not finished
        /// (false), or both (nil).
        case finished(Bool?)
        /// Plays a book on the session's player, handed to it as a value
        /// (``PlayableBook``).
        case play(bookID: String)
        /// Downloads a book, handed to the downloads as a value.
        case download(bookID: String)
    }
}
