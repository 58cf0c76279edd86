import Crypto
import Foundation
import KRPCSession
import ListenUpCore
import ListenUpKRPC

/// Drift checks over kRPC (§3.4): `SyncStreamService.digest` of `books`.
/// The library asks after each catch-up, and `SyncControl.LibraryDataChanged`
/// (read as an access change) starts one. Count and hash are both compared:
/// the hash catches a book swapped for another, or changed without an event.
extension KRPCServerConnection {
    /// The `books` digest at the highest revision this connection has seen,
    /// pulled or announced: the live rows the cache holds once it has
    /// applied all of it. An empty hash is the server's for an empty
    /// library, compared as such.
    public func libraryDigest() async throws(ServerError) -> LibraryDigest? {
        let digest = try await call(.digest, DigestArguments(domain: SyncDomain.books.rawValue, cursor: highestRevision ?? Int64.max),
                                    returning: DomainDigest.self)
        return LibraryDigest(bookCount: Int(clamping: digest.count), hash: digest.hash)
    }

    /// The digest hash of `revisions` as the server writes it:
    /// `"sha256:" + hex(SHA-256(concat sorted "<id>|<revision>\n"))`, `""`
    /// for none, as the server's `accessFilteredDigest`
    /// (`server/.../sync/AccessFilteredReads.kt`) and the official client's
    /// `DigestComputer.compute` (`app/sharedLogic/.../data/sync/DigestComputer.kt`)
    /// write it: sorted by id, one line each, a trailing line feed, lowercase hex.
    public nonisolated func libraryHash(of revisions: [String: Int64]) -> String? {
        Self.digestHash(revisions)
    }

    /// See ``libraryHash(of:)``.
    static func digestHash(_ revisions: [String: Int64]) -> String {
        guard !revisions.isEmpty else { return "" }
        // Kotlin's sortedBy on String: UTF-16 code unit order.
        let lines = revisions.sorted { $0.key.utf16.lexicographicallyPrecedes($1.key.utf16) }.map { "\($0.key)|\($0.value)\n" }
        let digest = SHA256.hash(data: Data(lines.joined().utf8))
        return "sha256:" + digest.map { String(format: "%02x", $0) }.joined()
    }
}
