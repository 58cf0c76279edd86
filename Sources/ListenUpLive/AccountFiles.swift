import Foundation
import ListenUpCore

/// Where the app keeps a (server, user) pair's files, all named with one
/// key made of the server URL and the user id (``SQLiteLibraryStore/url(in:server:userID:)``):
/// - the library cache `$XDG_CACHE_HOME/listenup/library-<key>.sqlite`
///   and its covers `covers-<key>/` beside it;
/// - the downloads `$XDG_DATA_HOME/listenup/downloads/<key>/`;
/// - the listening store `$XDG_STATE_HOME/listenup/listening-<key>.sqlite`.
public struct AccountFiles: Sendable {
    public let libraryCache: URL
    public let covers: URL
    public let downloads: URL
    public let listening: URL

    public init(directories: XDGDirectories, server: URL, userID: String) {
        let cache = XDGDirectories.app(directories.cacheHome)
        libraryCache = SQLiteLibraryStore.url(in: cache, server: server, userID: userID)
        let key = String(libraryCache.deletingPathExtension().lastPathComponent.dropFirst("library-".count))
        covers = cache.appendingPathComponent("covers-\(key)", isDirectory: true)
        downloads = XDGDirectories.app(directories.dataHome).appendingPathComponent("downloads", isDirectory: true)
            .appendingPathComponent(key, isDirectory: true)
        listening = SQLiteListeningStore.url(in: XDGDirectories.app(directories.stateHome), server: server, userID: userID)
    }

    /// Every file and folder of the pair (SQLite's `-wal` and `-shm` included).
    public var all: [URL] {
        [libraryCache, listening].flatMap { file in
            [file] + ["-wal", "-shm"].map { URL(fileURLWithPath: file.path + $0) }
        } + [covers, downloads]
    }

    /// Deletes them all (what is not there is skipped).
    public func delete() {
        for url in all where FileManager.default.fileExists(atPath: url.path) {
            try? FileManager.default.removeItem(at: url)
        }
    }
}
