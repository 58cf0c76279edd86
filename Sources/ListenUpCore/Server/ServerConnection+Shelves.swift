import Foundation

/// What a connection that knows no shelves answers (a test double, a
/// scripted server): no shelves to discover, and every change refused as a
/// server that does not understand it. Both protocols' clients (in the
/// live layer) and ``OfflineServerConnection`` answer for themselves.
extension ServerConnection {
    public var hasActivityFeed: Bool { false }

    public func currentlyListening() async throws(ServerError) -> [ListeningNow] { [] }

    public var shelvesHavePrivacy: Bool { false }

    public var shelfNameLimit: Int { 100 }

    public func createShelf(name: String, description: String, isPrivate: Bool) async throws(ServerError) -> Shelf {
        throw .protocolMismatch("this connection keeps no shelves")
    }

    public func updateShelf(id: String, name: String, description: String, isPrivate: Bool) async throws(ServerError) -> Shelf {
        throw .protocolMismatch("this connection keeps no shelves")
    }

    public func deleteShelf(id: String) async throws(ServerError) {
        throw .protocolMismatch("this connection keeps no shelves")
    }

    public func addBook(_ bookID: String, toShelf shelfID: String) async throws(ServerError) {
        throw .protocolMismatch("this connection keeps no shelves")
    }

    public func removeBook(_ bookID: String, fromShelf shelfID: String) async throws(ServerError) {
        throw .protocolMismatch("this connection keeps no shelves")
    }

    public func discoverShelves() async throws(ServerError) -> [Shelf] { [] }
}
