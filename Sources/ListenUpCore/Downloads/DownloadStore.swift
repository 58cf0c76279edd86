import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where downloaded books live on this device, for one server and user:
/// a folder per book holding its audio files, its cover and its manifest
/// (``BookDownload``, as JSON).
///
/// The app's is ``FileDownloadStore`` under
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

/// Downloads as files: `ROOT/<book>/manifest.json`, the audio files named
/// by ``BookDownload/File/name``, and `cover`. Folder names are the book
/// id made safe for a file system (anything but letters, digits, `-` and
/// `_` is written `_XX` in hex), so two ids never share a folder.
public final class FileDownloadStore: DownloadStore {
    public let root: URL
    private let fileManager = FileManager()

    /// - Parameter root: the server and user's folder (made on first write).
    public init(root: URL) {
        self.root = root
    }

    static let manifestName = "manifest.json"

    public func downloads() throws -> [BookDownload] {
        guard let folders = try? fileManager.contentsOfDirectory(at: root, includingPropertiesForKeys: nil) else { return [] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return folders.compactMap { folder in
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(Self.manifestName)) else { return nil }
            return try? decoder.decode(BookDownload.self, from: data)
        }
    }

    public func save(_ download: BookDownload) throws {
        let folder = folder(bookID: download.bookID)
        try fileManager.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(download).write(to: folder.appendingPathComponent(Self.manifestName), options: .atomic)
    }

    public func remove(bookID: String) throws {
        let folder = folder(bookID: bookID)
        guard fileManager.fileExists(atPath: folder.path) else { return }
        try fileManager.removeItem(at: folder)
    }

    public func folder(bookID: String) -> URL {
        root.appendingPathComponent(Self.folderName(bookID), isDirectory: true)
    }

    static func folderName(_ bookID: String) -> String {
        var name = ""
        for byte in bookID.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                name.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                name += "_" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return name.isEmpty ? "_" : name
    }

    public func bytesOnDisk(bookID: String, file: BookDownload.File) -> Int64 {
        Self.size(of: url(bookID: bookID, file: file))
    }

    public func totalBytesOnDisk() -> Int64 {
        guard let walker = fileManager.enumerator(at: root, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey]) else { return 0 }
        var total: Int64 = 0
        for case let url as URL in walker {
            guard let values = try? url.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey]), values.isRegularFile == true else { continue }
            total += Int64(values.fileSize ?? 0)
        }
        return total
    }

    /// The size of the file at `url` (0 when there is none).
    static func size(of url: URL) -> Int64 {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return 0 }
        return Int64(info.st_size)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}

/// Downloads kept in memory (previews): manifests only, no files; a file's
/// bytes are what ``setBytes(_:bookID:fileID:)`` said.
public final class InMemoryDownloadStore: DownloadStore {
    private let state = LockedValue<(manifests: [String: BookDownload], bytes: [String: Int64])>(([:], [:]))
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
        }
    }

    public func folder(bookID: String) -> URL { root.appendingPathComponent(bookID, isDirectory: true) }

    public func bytesOnDisk(bookID: String, file: BookDownload.File) -> Int64 {
        state.value.bytes["\(bookID)/\(file.id)"] ?? 0
    }

    public func totalBytesOnDisk() -> Int64 { state.value.bytes.values.reduce(0, +) }

    /// Pretends `bytes` of a file are on disk.
    public func setBytes(_ bytes: Int64, bookID: String, fileID: String) {
        state.withLock { $0.bytes["\(bookID)/\(fileID)"] = bytes }
    }
}
