import Foundation
import ListenUpCore
#if canImport(Glibc)
import Glibc
#endif

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
    static let coverName = "cover"

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

    public func removeFile(bookID: String, file: BookDownload.File) {
        try? fileManager.removeItem(at: url(bookID: bookID, file: file))
    }

    public func saveCover(_ data: Data, bookID: String) throws {
        let folder = folder(bookID: bookID)
        try fileManager.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try data.write(to: folder.appendingPathComponent(Self.coverName), options: .atomic)
    }

    public func coverFile(bookID: String) -> URL? {
        let file = folder(bookID: bookID).appendingPathComponent(Self.coverName)
        return fileManager.fileExists(atPath: file.path) ? file : nil
    }

    public func cover(bookID: String) -> Data? {
        try? Data(contentsOf: folder(bookID: bookID).appendingPathComponent(Self.coverName))
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
