import Foundation
import KRPCSession
import ListenUpCore
import ListenUpKRPC

/// Drift checks over kRPC (§3.4): `SyncStreamService.digest` of `books`.
/// The library asks after each catch-up, and `SyncControl.LibraryDataChanged`
/// (read as an access change) starts one.
extension KRPCServerConnection {
    /// The `books` digest at the highest revision this connection has seen,
    /// pulled or announced: the live rows the cache holds once it has
    /// applied all of it.
    public func libraryDigest() async throws(APIClientError) -> LibraryDigest? {
        let digest = try await call(.digest, DigestArguments(domain: SyncDomain.books.rawValue, cursor: highestRevision ?? Int64.max),
                                    returning: DomainDigest.self)
        return LibraryDigest(bookCount: Int(clamping: digest.count))
    }
}
