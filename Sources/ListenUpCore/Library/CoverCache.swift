import Foundation

/// Where covers are kept between runs: named blobs in one place, each
/// written whole. ``CoverLoader`` decides what is kept under which name
/// (a book's cover per version and size, and the `ETag` it came with); the
/// cache only stores.
///
/// The app's is `CoverFolder` (in `ListenUpLive`): files under
/// `$XDG_CACHE_HOME/listenup/covers-…/`. No cache (nil) keeps covers in
/// memory only. Implementations are thread-safe.
public protocol CoverCache: Sendable {
    /// What is kept under `name`; nil when nothing is.
    func read(_ name: String) -> Data?
    /// Keeps `data` under `name`, replacing what was there; never leaves
    /// half of it behind.
    func write(_ data: Data, to name: String) throws
    /// Moves what is kept under `name` to `newName`, replacing what was there.
    func rename(_ name: String, to newName: String) throws
    /// Forgets `name` (nothing happens when nothing is kept under it).
    func remove(_ name: String)
    /// The file holding `name`, when there is one: the media controls show
    /// a cover by its file.
    func file(_ name: String) -> URL?
}
