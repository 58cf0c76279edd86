import Foundation

/// How large a cover the screen asks the server for: the width in pixels
/// of the copy it wants (kRPC `GET /api/v1/covers/{id}?w=<px>`, whose
/// server snaps `w` up to its rungs 300 and 600, §4 of the kRPC contract,
/// `srv/cover/CoverDerivatives.kt RUNGS`). The grid and *Continue
/// listening* show small covers; the player and the details panel large ones.
///
/// REST v1 (the Go server) has no sizes: `/api/v1/covers/{id}` always
/// serves the original, so there the size only keeps the caches apart.
///
/// A value; any thread.
public enum CoverSize: Int, Sendable, Hashable, CaseIterable {
    /// 300 px wide: the library grid, *Continue listening*.
    case grid = 300
    /// 600 px wide: the player, the details panel, the media controls.
    case large = 600

    /// The width asked for, in pixels (the `w` query parameter).
    public var width: Int { rawValue }
}

extension ServerConnection {
    /// A server without cover sizes (REST v1): every size is the one cover,
    /// fetched and revalidated as ``cover(bookID:maxBytes:ifNoneMatch:)`` does.
    public func cover(bookID: String, maxBytes: Int, ifNoneMatch etag: String?, size: CoverSize) async throws(ServerError) -> CoverFetch {
        try await cover(bookID: bookID, maxBytes: maxBytes, ifNoneMatch: etag)
    }
}
