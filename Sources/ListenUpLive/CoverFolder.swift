import Foundation
import ListenUpCore

/// Covers as files in one folder (made on the first write), written
/// atomically: the app's ``CoverCache``, one folder per server and user
/// beside the library cache.
public struct CoverFolder: CoverCache {
    /// The folder.
    public let directory: URL

    public init(_ directory: URL) {
        self.directory = directory
    }

    public func read(_ name: String) -> Data? {
        try? Data(contentsOf: url(name))
    }

    public func write(_ data: Data, to name: String) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try data.write(to: url(name), options: .atomic)
    }

    public func rename(_ name: String, to newName: String) throws {
        let target = url(newName)
        try? FileManager.default.removeItem(at: target)
        try FileManager.default.moveItem(at: url(name), to: target)
    }

    public func remove(_ name: String) {
        try? FileManager.default.removeItem(at: url(name))
    }

    public func file(_ name: String) -> URL? {
        let file = url(name)
        return FileManager.default.fileExists(atPath: file.path) ? file : nil
    }

    private func url(_ name: String) -> URL {
        directory.appendingPathComponent(name, isDirectory: false)
    }
}
