import Foundation
import ListenUpCore

/// Covers over kRPC's plain HTTP (§4, §6.6): `GET /api/v1/covers/{id}?w=300`
/// with the Bearer token; the server tags each with an `ETag`
/// (`"<hash>@300"`) and answers a matching `If-None-Match` with 304.
extension KRPCServerConnection {
    /// The cover of `bookID`; nil when the book has none (404).
    public func cover(bookID: String, maxBytes: Int) async throws(APIClientError) -> Data? {
        switch try await cover(bookID: bookID, maxBytes: maxBytes, ifNoneMatch: nil) {
        case .image(let data, _): data
        case .none, .notModified: nil
        }
    }

    /// `GET /api/v1/covers/{id}?w=300` with the Bearer token (refreshed first
    /// when little is left of it, and once more on a 401), and with
    /// `If-None-Match` when `etag` is given.
    /// - Returns: the bytes and their `ETag`, ``CoverFetch/notModified`` for
    ///   a 304 (the copy tagged `etag` is current), ``CoverFetch/none`` for a
    ///   404 (no cover, or a book the user cannot see).
    public func cover(bookID: String, maxBytes: Int, ifNoneMatch etag: String?) async throws(APIClientError) -> CoverFetch {
        guard session != nil else { throw await lapsedError() }
        let path = "/api/v1/covers/" + (bookID.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? bookID)
        guard let url = KRPCEndpoints.absolute(path + "?w=300", base: baseURL) else { throw .protocolMismatch("no cover URL") }
        func fetch(_ token: String) async throws(APIClientError) -> HTTPResponse {
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
        let token: String
        do { token = try await accessToken(refusing: nil) } catch { throw KRPCErrorMapping.error(error) }
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
