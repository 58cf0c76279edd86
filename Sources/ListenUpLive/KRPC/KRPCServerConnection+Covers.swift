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
        _ = try await refresher.requireSession()
        let path = "/api/v1/covers/" + (bookID.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? bookID)
        guard let url = KRPCEndpoints.absolute(path + "?w=\(size.width)", base: baseURL) else { throw .protocolMismatch("no cover URL") }
        func fetch(_ token: String) async throws(ServerError) -> HTTPResponse {
            var headers = [("Authorization", "Bearer \(token)")]
            if let etag { headers.append(("If-None-Match", etag)) }
            do {
                return try await transport.send(HTTPRequest(method: "GET", url: url, headers: headers), timeout, maxBytes)
            } catch let error as TransportError {
                throw .transport(error)
            } catch {
                throw .transport(.unreachable("\(error)"))
            }
        }
        let token = try await accessToken(refusing: nil)
        var response = try await fetch(token)
        if response.status == 401 {
            response = try await fetch(try await refreshed(after: token).accessToken)
        }
        switch response.status {
        case 304 where etag != nil: return .notModified
        case 200..<300: return .image(response.body, etag: response.header("ETag"))
        case 404: return .none
        default: throw .server(status: response.status, message: "")
        }
    }
}
