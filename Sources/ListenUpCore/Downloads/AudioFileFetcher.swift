import Foundation

/// Fetches one audio file to disk, continuing a partial one: the bytes
/// already in the file are kept and only the rest is asked for (an HTTP
/// `Range` request), so an interrupted download never starts from zero.
///
/// A struct of closures: the app's is `AudioFileFetcher.live` (in
/// `ListenUpLive`: AsyncHTTPClient, the body written as it arrives, with
/// back-pressure, so memory stays flat whatever the file's size); unit
/// tests script one.
public struct AudioFileFetcher: Sendable {
    /// What to fetch, and where to.
    public struct Request: Sendable {
        public var url: URL
        /// Sent with the request (the Bearer header on REST v1; none for a
        /// signed URL). Never logged.
        public var headers: [String: String]
        /// The partial file (made when absent).
        public var destination: URL
        /// Bytes already in `destination`: the request asks for the rest
        /// (`Range: bytes=<offset>-`); 0 asks for the whole file.
        public var offset: Int64
        /// The size the server reported: a body that would make the file
        /// longer is cut there (and reported as ``AudioFileFetcher/Failure/oversized``).
        public var expectedSize: Int64

        public init(url: URL, headers: [String: String], destination: URL, offset: Int64, expectedSize: Int64) {
            self.url = url
            self.headers = headers
            self.destination = destination
            self.offset = offset
            self.expectedSize = expectedSize
        }
    }

    /// Why a fetch stopped before the file was whole. None carries a
    /// header value or a body.
    public enum Failure: Error, Equatable, Sendable {
        /// The server answered with this status (401, 403, 404, 416, 5xx…).
        case status(Int)
        /// No connection, or it broke mid-body, or it went silent.
        case network(String)
        /// The disk is full (`ENOSPC`, `EDQUOT`): what was written stays.
        case diskFull
        /// The file could not be written for another reason.
        case storage(String)
        /// The server sent more than the size it reported.
        case oversized
        /// The fetch was cancelled (a pause, a cancel, the app quitting).
        case cancelled
    }

    /// Fetches `request`, appending to its destination, calling `progress`
    /// with the bytes written so far in this call (often: callers
    /// throttle); more exactly, the file's length minus `offset`, so
    /// `offset + n` is what the file holds (below `offset` at first when
    /// the server ignored the range and the file starts over). Returns when the body has ended (the file may still be
    /// short: the caller checks its size). Cancelling the calling task
    /// stops the fetch and keeps what was written.
    public var fetch: @Sendable (_ request: Request, _ progress: @escaping @Sendable (Int64) -> Void) async throws(Failure) -> Void

    public init(fetch: @escaping @Sendable (_ request: Request, _ progress: @escaping @Sendable (Int64) -> Void) async throws(Failure) -> Void) {
        self.fetch = fetch
    }

    /// No network: every fetch fails as unreachable (previews).
    public static let offline = AudioFileFetcher { _, _ throws(Failure) in throw .network("offline") }
}

/// How much space is free where downloads go.
public struct DiskSpace: Sendable {
    /// Bytes available to this user on the file system holding `folder`
    /// (or its nearest existing ancestor); nil when it cannot be told.
    public var available: @Sendable (_ folder: URL) -> Int64?

    public init(available: @escaping @Sendable (_ folder: URL) -> Int64?) {
        self.available = available
    }

    /// Cannot be told: no download is refused for space (previews, tests;
    /// the app's is `DiskSpace.live`, `statvfs(3)`, in `ListenUpLive`).
    public static let unknown = DiskSpace { _ in nil }

    /// Always `bytes` free (tests, previews).
    public static func fixed(_ bytes: Int64?) -> DiskSpace { DiskSpace { _ in bytes } }
}
