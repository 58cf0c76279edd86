import Foundation
import Logging

/// Opening one of the app's SQLite files (the library cache, the listening
/// store) the same way: a damaged or foreign file is set aside (`.corrupt`,
/// replacing an older one; kept, since it may hold what was not sent yet)
/// with its `-wal` and `-shm`, and a fresh one made; if even that fails,
/// `fallback` (a store in memory for this run).
enum SQLiteFile {
    /// - Parameters:
    ///   - what: the store, for the log ("Library cache", "Listening store").
    ///   - open: opens (or creates) the store at `url`; throws when it cannot.
    static func open<Store>(_ url: URL, what: String, logger: Logger, open: (URL) throws -> Store,
                            fallback: () -> Store) -> Store {
        do {
            return try open(url)
        } catch {
            logger.warning("\(what) unreadable; setting it aside and starting afresh", metadata: ["path": "\(url.path)"])
            let aside = url.appendingPathExtension("corrupt")
            try? FileManager.default.removeItem(at: aside)
            try? FileManager.default.moveItem(at: url, to: aside)
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
            do {
                return try open(url)
            } catch {
                logger.error("\(what) cannot be created; it is kept in memory for this run", metadata: ["reason": "\(error)"])
                return fallback()
            }
        }
    }
}
