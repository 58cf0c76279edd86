import Foundation

/// One book kept on this device for listening offline: what the server
/// said of its audio files (ids, sizes, lengths), its chapters and the
/// labels shown for it, and where its download stands.
///
/// Written as the book folder's manifest (``DownloadStore``), so a
/// download survives restarts and a downloaded book plays with nothing
/// but its folder: no library cache, no network. The bytes already on
/// disk are not kept here: the partial files themselves say how far each
/// file got.
public struct BookDownload: Codable, Equatable, Sendable {
    /// Where a download stands.
    public enum Status: String, Codable, Equatable, Sendable {
        /// Waiting for its turn (two books download at a time).
        case queued
        case downloading
        /// Stopped by the user, or by a problem that may pass (the server
        /// gone, the disk full): ``BookDownload/failure`` says which.
        case paused
        /// Every file is on disk at the size the server reported.
        case done
        /// Stopped for good until the user tries again (refused, not
        /// found, not enough space).
        case failed
    }

    /// Why a download stopped, for the user and for scripts.
    ///
    /// Kept in the book's manifest as `{"code","message"}` (the code's raw
    /// value, so manifests written before the codes were an enum read the same).
    public struct Failure: Codable, Equatable, Sendable {
        /// Why, for scripts: the raw value is the headless `code`, stable.
        public enum Code: String, Codable, CaseIterable, Equatable, Sendable {
            /// The server cannot be reached (or is busy): tried again by itself.
            case network
            /// The disk filled up mid-download: waits for the user.
            case diskFull
            /// The book needs more space than the disk has free.
            case noSpace
            /// The server has no audio for the book any more.
            case notFound
            /// The server does not let this account download the book.
            case forbidden
            /// The server refused the session.
            case sessionLapsed
            /// A file came in at another size than the server reported.
            case sizeMismatch
            /// The download could not be written to disk.
            case storage
            /// The server lists no audio for the book.
            case noAudio
            /// The book is not in the library's cache.
            case unknownBook
            /// The server does not say how big the book's files are.
            case unknownSize
            /// The server refused to send the book (another HTTP error).
            case refused

            /// What the user is told: the one table of the downloads'
            /// failure messages.
            /// - Parameter space: for ``noSpace``, the bytes the book still
            ///   needs and the bytes free; the other codes ignore it.
            public func message(space: (needed: Int64, available: Int64) = (0, 0)) -> String {
                switch self {
                case .network:
                    tr("The server cannot be reached. The download goes on from where it stopped when the server is back.")
                case .diskFull:
                    tr("The disk is full. Free some space, then resume the download: what is downloaded is kept.")
                case .noSpace:
                    tr("Not enough space to download this book: it needs %@ and only %@ are free.",
                       Localization.bytes(space.needed), Localization.bytes(max(0, space.available)))
                case .notFound: tr("The server has no audio for this book any more. Refresh the library and try again.")
                case .forbidden: tr("The server does not let this account download this book.")
                case .sessionLapsed: tr("The server refused this session. Sign in again to download.")
                case .sizeMismatch: tr("The server sent a file of another size than it reported. Refresh the library and try again.")
                case .storage: tr("The download could not be written to disk.")
                case .noAudio: tr("The server lists no audio for this book. Refresh the library and try again.")
                case .unknownBook: tr("This book is not in the library any more.")
                case .unknownSize:
                    tr("The server does not say how big this book's files are, so it cannot be downloaded. Refresh the library and try again.")
                case .refused: tr("The server refused to send this book. Try again later.")
                }
            }
        }

        public var code: Code
        /// Translated; names what to do next.
        public var message: String

        /// A failure told with its code's message (``Code/message(space:)``).
        public init(_ code: Code) {
            self.init(code, message: code.message())
        }

        /// A failure with the message given (as a manifest kept it).
        public init(_ code: Code, message: String) {
            self.code = code
            self.message = message
        }

        /// Not enough space: the message names what is needed and what is free.
        public static func noSpace(needed: Int64, available: Int64) -> Failure {
            Failure(.noSpace, message: Code.noSpace.message(space: (needed, available)))
        }
    }

    /// One audio file of the book.
    public struct File: Codable, Equatable, Sendable {
        /// The server's id (`audio_files[].id`).
        public var id: String
        /// The file's name in the book's folder.
        public var name: String
        /// Bytes, as the server reported them: a file counts as done at
        /// exactly this size.
        public var size: Int64
        /// Milliseconds.
        public var duration: Int64

        public init(id: String, name: String, size: Int64, duration: Int64) {
            self.id = id
            self.name = name
            self.size = size
            self.duration = duration
        }
    }

    public var bookID: String
    public var title: String
    public var authors: String
    public var files: [File]
    public var chapters: [PlaybackTimeline.Chapter]
    public var status: Status
    /// Set with ``Status/paused`` (when not the user's pause) and ``Status/failed``.
    public var failure: Failure?
    /// When it was asked for: the queue's order.
    public var requestedAt: Date
    /// The book's `updated_at` when it was asked for (its cover's version).
    public var version: Date
    /// The cover is in the folder (`cover`).
    public var hasCover: Bool

    public init(bookID: String, title: String, authors: String, files: [File], chapters: [PlaybackTimeline.Chapter],
                status: Status = .queued, failure: Failure? = nil, requestedAt: Date = Date(),
                version: Date = Date(timeIntervalSince1970: 0), hasCover: Bool = false) {
        self.bookID = bookID
        self.title = title
        self.authors = authors
        self.files = files
        self.chapters = chapters
        self.status = status
        self.failure = failure
        self.requestedAt = requestedAt
        self.version = version
        self.hasCover = hasCover
    }

    /// The whole book, in bytes.
    public var totalBytes: Int64 { files.reduce(0) { $0 + max(0, $1.size) } }

    /// What counts of `onDisk` (each file's bytes on disk, in order): a
    /// file longer than its size counts as its size.
    public func bytes(onDisk: [Int64]) -> Int64 {
        zip(files, onDisk).reduce(0) { $0 + min($1.1, max(0, $1.0.size)) }
    }

    /// Whether every file is on disk at exactly its size (`onDisk` as for
    /// ``bytes(onDisk:)``).
    public func isWhole(onDisk: [Int64]) -> Bool {
        files.count == onDisk.count && zip(files, onDisk).allSatisfy { $0.size == $1 }
    }

    /// Whether it waits for, or has, its turn to download.
    public var isActive: Bool { status == .queued || status == .downloading }

    /// The download of `book` as the library caches it, waiting its turn;
    /// nil when the server lists no audio for it.
    public init?(book: CachedBook, requestedAt: Date = Date()) {
        self.init(book: PlayableBook(book), requestedAt: requestedAt)
    }

    /// The download of `book`, waiting its turn; nil when the server lists
    /// no audio for it.
    public init?(book: PlayableBook, requestedAt: Date = Date()) {
        guard !book.audioFiles.isEmpty else { return nil }
        let files = book.audioFiles.enumerated().map { index, file in
            File(id: file.id, name: Self.fileName(index: index, id: file.id, format: file.format), size: file.size, duration: file.duration)
        }
        self.init(bookID: book.id, title: book.listing.title, authors: book.listing.authors,
                  files: files,
                  chapters: book.chapters.map(PlaybackTimeline.Chapter.init),
                  requestedAt: requestedAt, version: book.listing.updatedAt, hasCover: false)
    }

    /// A file name that is safe on any file system whatever the server's
    /// ids are: the position, the id with anything but letters, digits,
    /// `-` and `_` replaced, and the format as the extension (GStreamer
    /// finds the type from the contents either way).
    static func fileName(index: Int, id: String, format: String?) -> String {
        let safeID = String(String.UnicodeScalarView(id.unicodeScalars.prefix(64).map { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_") ? scalar : "_"
        }))
        let ext = format.map { String(String.UnicodeScalarView($0.unicodeScalars.filter { $0.isASCII && CharacterSet.alphanumerics.contains($0) }.prefix(8))) } ?? ""
        let number = String(index + 1)
        let padded = String(repeating: "0", count: max(0, 3 - number.count)) + number
        return ext.isEmpty ? "\(padded)-\(safeID)" : "\(padded)-\(safeID).\(ext.lowercased())"
    }

    /// The player's timeline over the files in `folder`.
    public func timeline(in folder: URL) -> PlaybackTimeline {
        PlaybackTimeline(
            bookID: bookID,
            files: files.map { PlaybackTimeline.File(id: $0.id, url: folder.appendingPathComponent($0.name), start: 0, duration: $0.duration) },
            chapters: chapters)
    }
}
