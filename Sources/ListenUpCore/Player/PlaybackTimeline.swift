import Foundation

/// One book as the player plays it: its audio files, in order, on one
/// timeline. Positions everywhere in the player are book positions in
/// milliseconds; the timeline maps them to a file and an offset in it.
public struct PlaybackTimeline: Equatable, Sendable {
    /// One audio file: where it sits on the book's timeline.
    public struct File: Equatable, Sendable {
        /// The server's id (`audio_files[].id`).
        public var id: String
        /// Where to read it: `http(s)` (with ``PlaybackTimeline/headers``)
        /// or `file` (a download).
        public var url: URL
        /// Milliseconds from the start of the book.
        public var start: Int64
        public var duration: Int64

        public init(id: String, url: URL, start: Int64, duration: Int64) {
            self.id = id
            self.url = url
            self.start = start
            self.duration = duration
        }

        public var end: Int64 { start + duration }
    }

    /// One chapter, from the book's data (never from tags). Codable: a
    /// download's manifest keeps the chapters (``BookDownload``).
    public struct Chapter: Codable, Equatable, Sendable {
        public var title: String
        /// Milliseconds from the start of the book.
        public var start: Int64
        public var end: Int64
        /// The server's id of the chapter (a position's `currentChapterId`);
        /// nil where the server gives none (REST v1).
        public var id: String?

        public init(title: String, start: Int64, end: Int64, id: String? = nil) {
            self.title = title
            self.start = start
            self.end = end
            self.id = id
        }

        /// A chapter as the library keeps it (a start and a duration).
        public init(_ entry: BookDetails.ChapterEntry) {
            self.init(title: entry.title, start: entry.start, end: entry.start + entry.duration, id: entry.id)
        }

        public var duration: Int64 { max(0, end - start) }
    }

    public var bookID: String
    public var files: [File]
    /// In order; gaps and overlaps in the server's data are smoothed out by
    /// ``init(bookID:files:chapters:headers:)``.
    public var chapters: [Chapter]
    /// HTTP headers every `http(s)` file is fetched with (the Bearer
    /// header): never a token in a query string.
    public var headers: [String: String]

    /// - Parameters:
    ///   - files: in play order, `start` ignored: each file starts where the
    ///     one before ends.
    ///   - chapters: when empty, one chapter per file (titled by the caller
    ///     later if it likes); otherwise sorted by start and each one ending
    ///     where the next begins.
    public init(bookID: String, files: [File], chapters: [Chapter], headers: [String: String] = [:]) {
        self.bookID = bookID
        var start: Int64 = 0
        self.files = files.map { file in
            var placed = file
            placed.start = start
            start += max(0, file.duration)
            return placed
        }
        let total = start
        let sorted = chapters.sorted { $0.start < $1.start }
        if sorted.isEmpty {
            self.chapters = self.files.enumerated().map { Chapter(title: "\($0.offset + 1)", start: $0.element.start, end: $0.element.end) }
        } else {
            self.chapters = sorted.enumerated().map { index, chapter in
                let next = index + 1 < sorted.count ? sorted[index + 1].start : total
                return Chapter(title: chapter.title, start: max(0, chapter.start), end: max(chapter.start, next), id: chapter.id)
            }
        }
        self.headers = headers
    }

    /// The whole book, in milliseconds.
    public var duration: Int64 { files.last?.end ?? 0 }

    /// `position` kept inside the book.
    public func clamp(_ position: Int64) -> Int64 {
        min(max(0, position), duration)
    }

    /// The file that plays at `position` and the offset into it; the end of
    /// the book is the end of the last file.
    public func locate(_ position: Int64) -> (file: Int, offset: Int64)? {
        guard !files.isEmpty else { return nil }
        let position = clamp(position)
        let index = files.lastIndex { $0.start <= position && $0.duration > 0 } ?? 0
        return (index, position - files[index].start)
    }

    /// The chapter playing at `position` (nil when the book has none).
    public func chapterIndex(at position: Int64) -> Int? {
        guard !chapters.isEmpty else { return nil }
        return chapters.lastIndex { $0.start <= position } ?? 0
    }
}
