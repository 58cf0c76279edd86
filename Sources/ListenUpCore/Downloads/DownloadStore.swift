import Foundation

/// Where downloaded books live on this device, for one server and user:
/// a folder per book holding its audio files, its cover and its manifest
/// (``BookDownload``, as JSON).
///
/// The app's is `FileDownloadStore` (in `ListenUpLive`) under
/// `$XDG_DATA_HOME/listenup/downloads/`; previews use
/// ``InMemoryDownloadStore``. Implementations are thread-safe: the
/// download jobs write files off the main actor.
public protocol DownloadStore: AnyObject, Sendable {
    /// Every book with a manifest, in no particular order. A manifest that
    /// does not decode is skipped (and logged by the implementation).
    func downloads() throws -> [BookDownload]
    /// Writes `download`'s manifest (atomically), making its folder.
    func save(_ download: BookDownload) throws
    /// Deletes the book's folder: files, cover, manifest.
    func remove(bookID: String) throws
    /// The book's folder (which need not exist yet).
    func folder(bookID: String) -> URL
    /// Bytes of `file` on disk (0 when absent).
    func bytesOnDisk(bookID: String, file: BookDownload.File) -> Int64
    /// Bytes of every download on disk, partial files included.
    func totalBytesOnDisk() -> Int64
    /// Deletes one file of a book (it is fetched again from zero).
    func removeFile(bookID: String, file: BookDownload.File)
    /// Keeps `data` as the book's cover, beside its files.
    func saveCover(_ data: Data, bookID: String) throws
    /// The book's cover as kept on disk (the media controls show the
    /// file); nil when there is none.
    func coverFile(bookID: String) -> URL?
    /// The book's cover's bytes; nil when there is none.
    func cover(bookID: String) -> Data?
    /// The folder all books live in (its file system's free space decides
    /// whether a book fits).
    var root: URL { get }
}

extension DownloadStore {
    /// Where `file` of `bookID` is written.
    public func url(bookID: String, file: BookDownload.File) -> URL {
        folder(bookID: bookID).appendingPathComponent(file.name)
    }

    /// Bytes of every file of `download` on disk.
    public func bytesOnDisk(_ download: BookDownload) -> Int64 {
        download.bytes(onDisk: bytesOnDisk(eachFileOf: download))
    }

    /// Each file's bytes on disk, in the download's order.
    public func bytesOnDisk(eachFileOf download: BookDownload) -> [Int64] {
        download.files.map { bytesOnDisk(bookID: download.bookID, file: $0) }
    }
}

/// Downloads kept in memory (previews): manifests only, no files; a file's
/// bytes are what ``setBytes(_:bookID:fileID:)`` said.
public final class InMemoryDownloadStore: DownloadStore {
    private let state = LockedValue<(manifests: [String: BookDownload], bytes: [String: Int64], covers: [String: Data])>(([:], [:], [:]))
    public let root = URL(fileURLWithPath: "/nonexistent/listenup-downloads", isDirectory: true)

    public init(_ downloads: [BookDownload] = []) {
        state.withLock { state in
            for download in downloads { state.manifests[download.bookID] = download }
        }
    }

    public func downloads() throws -> [BookDownload] { Array(state.value.manifests.values) }

    public func save(_ download: BookDownload) throws {
        state.withLock { $0.manifests[download.bookID] = download }
    }

    public func remove(bookID: String) throws {
        state.withLock { state in
            state.manifests[bookID] = nil
            state.bytes = state.bytes.filter { !$0.key.hasPrefix(bookID + "/") }
            state.covers[bookID] = nil
        }
    }

    public func folder(bookID: String) -> URL { root.appendingPathComponent(bookID, isDirectory: true) }

    public func bytesOnDisk(bookID: String, file: BookDownload.File) -> Int64 {
        state.value.bytes["\(bookID)/\(file.id)"] ?? 0
    }

    public func totalBytesOnDisk() -> Int64 { state.value.bytes.values.reduce(0, +) }

    public func removeFile(bookID: String, file: BookDownload.File) {
        state.withLock { $0.bytes["\(bookID)/\(file.id)"] = nil }
    }

    public func saveCover(_ data: Data, bookID: String) throws {
        state.withLock { $0.covers[bookID] = data }
    }

    /// Never a file: the covers are in memory.
    public func coverFile(bookID: String) -> URL? { nil }

    public func cover(bookID: String) -> Data? { state.value.covers[bookID] }

    /// Pretends `bytes` of a file are on disk.
    public func setBytes(_ bytes: Int64, bookID: String, fileID: String) {
        state.withLock { $0.bytes["\(bookID)/\(fileID)"] = bytes }
    }
}
