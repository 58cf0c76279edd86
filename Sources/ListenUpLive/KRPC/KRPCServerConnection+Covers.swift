import Foundation
import ListenUpCore

/// Covers over kRPC's plain HTTP (§4, §6.6): `GET /api/v1/covers/{id}?w=<px>`
/// with the Bearer token, `w` 300 for the grid and 600 for the player and
/// the details panel (``CoverSize``; the server snaps `w` up to those rungs,
/// `srv/cover/CoverDerivatives.kt`). The server tags each with an `ETag`
/// (`"<hash>@<rung>"`) and answers a matching `If-None-Match` with 304.
extension KRPCServerConnection {
    /// The cover of `bookID` at the large size (a download keeps it for the
    /// player); nil when the book has none (404).
    public func cover(bookID: String, maxBytes: Int) async throws(ServerError) -> Data? {
        switch try await cover(bookID: bookID, maxBytes: maxBytes, ifNoneMatch: nil, size: .large) {
        case .image(let data, _): data
        case .none, .notModified: nil
        }
    }

    /// The grid's cover of `bookID`, revalidated: see
    /// ``cover(bookID:maxBytes:ifNoneMatch:size:)``.
    public func cover(bookID: String, maxBytes: Int, ifNoneMatch etag: String?) async throws(ServerError) -> CoverFetch {
        try await cover(bookID: bookID, maxBytes: maxBytes, ifNoneMatch: etag, size: .grid)
    }

    /// `GET /api/v1/covers/{id}?w=<size>` with the Bearer token (refreshed
    /// first when little is left of it, and once more on a 401), and with
    /// `If-None-Match` when `etag` is given.
    /// - Returns: the bytes and their `ETag`, ``CoverFetch/notModified`` for
    ///   a 304 (the copy tagged `etag` is current), ``CoverFetch/none`` for a
    ///   404 (no cover, or a book the user cannot see).
    public func cover(bookID: String, maxBytes: Int, ifNoneMatch etag: String?, size: CoverSize) async throws(ServerError) -> CoverFetch {
        let path = "/api/v1/covers/" + Self.segment(bookID) + "?w=\(size.width)"
        let response = try await bearerGET(path, maxBytes: maxBytes, headers: etag.map { [("If-None-Match", $0)] } ?? [])
        switch response.status {
        case 304 where etag != nil: return .notModified
        case 200..<300: return .image(response.body, etag: response.header("ETag"))
        case 404: return .none
        default: throw .server(status: response.status, message: "")
        }
    }

    /// A person's photo (`GET /api/v1/contributors/{id}/photo`) or a
    /// series' cover (`GET /api/v1/series/{id}/cover`), both Bearer, no
    /// `ETag` and no resizing (contract v0.9 §5,
    /// `srv/routes/MetadataImageRoutes.kt`); nil for a 404 (none, or the
    /// file is missing).
    public func browseImage(_ image: BrowseImage, maxBytes: Int) async throws(ServerError) -> Data? {
        let path = switch image {
        case .contributorPhoto(let id): "/api/v1/contributors/" + Self.segment(id) + "/photo"
        case .seriesCover(let id): "/api/v1/series/" + Self.segment(id) + "/cover"
        }
        let response = try await bearerGET(path, maxBytes: maxBytes)
        switch response.status {
        case 200..<300: return response.body
        case 404: return nil
        default: throw .server(status: response.status, message: "")
        }
    }

    /// `GET path` (with its query) on the server's plain HTTP with the
    /// Bearer token (refreshed first when little is left of it, and once
    /// more on a 401) and `headers`.
    private func bearerGET(_ path: String, maxBytes: Int, headers: [(String, String)] = []) async throws(ServerError) -> HTTPResponse {
        _ = try await refresher.requireSession()
        guard let url = KRPCEndpoints.absolute(path, base: baseURL) else { throw .protocolMismatch("no URL for \(path)") }
        func fetch(_ token: String) async throws(ServerError) -> HTTPResponse {
            do {
                return try await transport.send(HTTPRequest(method: "GET", url: url, headers: [("Authorization", "Bearer \(token)")] + headers),
                                                timeout, maxBytes)
            } catch let error as TransportError {
                throw .transport(error)
            } catch {
                throw .transport(.unreachable("\(error)"))
            }
        }
        let token = try await accessToken(refusing: nil)
        let response = try await fetch(token)
        guard response.status == 401 else { return response }
        return try await fetch(try await refreshed(after: token).accessToken)
    }

    /// `id` as one path segment.
    private static func segment(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? id
    }
}
