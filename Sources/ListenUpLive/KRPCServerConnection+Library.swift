import Foundation
import KRPCSession
import ListenUpAPI
import ListenUpCore
import ListenUpKRPC

/// The library over kRPC: `SyncStreamService` pages and digests (§3.4),
/// covers over HTTP with the Bearer token (§4).
extension KRPCServerConnection {
    /// The number of books: the `books` digest's count of live rows.
    public func libraryBookCount() async throws(APIClientError) -> Int {
        let digest = try await call(.digest, DigestArguments(domain: SyncDomain.books.rawValue, cursor: Int64.max),
                                    returning: DomainDigest.self)
        return Int(clamping: digest.count)
    }

    /// A page of books from `pullDomain("books")`. `cursor` is one this
    /// connection gave (`rev:<revision>`, every page and the last one
    /// included); nil starts at revision 0: a whole library, whether or not
    /// `updatedAfter` is given (revisions, not times, say what changed).
    public func syncBooks(limit: Int, cursor: String?, updatedAfter: Date?) async throws(APIClientError) -> SyncBooksResponse {
        let since = KRPCCursor.revision(cursor) ?? 0
        let page = try await call(.pullDomain, PullDomainArguments(domain: SyncDomain.books.rawValue, since: since,
                                                                   limit: min(max(limit, 1), 5000)),
                                  returning: SyncPage.self)
        let response: SyncBooksResponse
        do {
            response = try KRPCMapping.booksPage(page, since: since)
        } catch {
            throw .protocolMismatch("a books page did not decode: \(error)")
        }
        learn(books: response.books, deleted: response.deletedBookIDs ?? [], through: KRPCCursor.revision(response.nextCursor))
        return response
    }

    /// Remembers what a page or an event showed: the highest revision (live
    /// events start after it) and each book's summary (for listings).
    func learn(books: [SyncBook], deleted: [String] = [], through revision: Int64?) {
        for book in books { summaries[book.id] = KRPCMapping.summary(book) }
        for id in deleted { summaries[id] = nil }
        if let revision { highestRevision = max(highestRevision ?? revision, revision) }
    }

    /// `GET /api/v1/covers/{id}?w=300` with the Bearer token (refreshed
    /// first when little is left of it, and once more on a 401).
    /// - Returns: the bytes, or nil when the book has no cover (404).
    public func cover(bookID: String, maxBytes: Int) async throws(APIClientError) -> Data? {
        guard session != nil else { throw await lapsedError() }
        let path = "/api/v1/covers/" + (bookID.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? bookID)
        guard let url = KRPCEndpoints.absolute(path + "?w=300", base: baseURL) else { throw .protocolMismatch("no cover URL") }
        func fetch(_ token: String) async throws(APIClientError) -> HTTPResponse {
            let request = HTTPRequest(method: "GET", url: url, headers: [("Authorization", "Bearer \(token)")])
            do {
                return try await transport.send(request, timeout, maxBytes)
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
        case 200..<300: return response.body
        case 404: return nil
        default: throw .server(status: response.status, message: "")
        }
    }
}
