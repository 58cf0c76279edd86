import Foundation

/// A ``ServerConnection`` with no network, for previews and unit tests (the
/// counterpart of ``HTTPTransport/offline``): ``Dependencies/connect(to:session:)``
/// hands it out when the composition root set no server client. Every call
/// that would reach the server fails as unreachable; without a session, the
/// signed-in calls fail as ``ServerError/sessionLapsed`` first, as a real
/// client's do. Signing out forgets the session here and in the store.
public actor OfflineServerConnection: ServerConnection {
    public nonisolated let baseURL: URL
    private let sessions: SessionStore
    private var session: StoredSession?

    public init(baseURL: URL, session: StoredSession?, sessions: SessionStore) {
        self.baseURL = baseURL
        self.session = session
        self.sessions = sessions
    }

    public var currentSession: StoredSession? { session }

    /// Nothing to run, ever: with no server, no refresh is refused.
    public func onSessionLapsed(_ handler: @escaping @Sendable () async -> Void) {}

    private static let unreachable = ServerError.transport(.unreachable("offline"))

    /// Fails as a signed-in call with no network does.
    private func signedIn() throws(ServerError) -> Never {
        guard session != nil else { throw .sessionLapsed }
        throw Self.unreachable
    }

    public func setupAdmin(firstName: String, lastName: String, email: String, password: String) async throws(ServerError) -> StoredSession {
        throw Self.unreachable
    }

    public func login(email: String, password: String) async throws(ServerError) -> StoredSession {
        throw Self.unreachable
    }

    public func logout() async {
        session = nil
        await sessions.delete(baseURL)
    }

    public func lookupInvite(code: String) async throws(ServerError) -> InvitePreview { throw Self.unreachable }

    public func claimInvite(code: String, password: String, displayName: String?) async throws(ServerError) -> StoredSession {
        throw Self.unreachable
    }

    public func libraryBookCount() async throws(ServerError) -> Int { try signedIn() }

    public func syncBooks(limit: Int, cursor: String?, updatedAfter: Date?) async throws(ServerError) -> ServerBooksPage {
        try signedIn()
    }

    public func syncBrowse(_ domain: BrowseDomain, limit: Int, cursor: String?, updatedAfter: Date?) async throws(ServerError) -> BrowseRows {
        try signedIn()
    }

    public func listeningStats(days: Int) async throws(ServerError) -> ListeningStats? { try signedIn() }

    public func createShelf(name: String, description: String, isPrivate: Bool) async throws(ServerError) -> Shelf { try signedIn() }

    public func updateShelf(id: String, name: String, description: String, isPrivate: Bool) async throws(ServerError) -> Shelf {
        try signedIn()
    }

    public func deleteShelf(id: String) async throws(ServerError) { try signedIn() }

    public func addBook(_ bookID: String, toShelf shelfID: String) async throws(ServerError) { try signedIn() }

    public func removeBook(_ bookID: String, fromShelf shelfID: String) async throws(ServerError) { try signedIn() }

    public func discoverShelves() async throws(ServerError) -> [Shelf] { try signedIn() }

    public func liveEvents() async throws(ServerError) -> AsyncThrowingStream<LibraryEvent, any Error> { try signedIn() }

    public func cover(bookID: String, maxBytes: Int) async throws(ServerError) -> Data? { try signedIn() }

    public func audioAccess(bookID: String, fileIDs: [String], afterRefusal: Bool) async throws(ServerError) -> AudioAccess {
        try signedIn()
    }

    public func sendListening(_ spans: [ListeningSpan]) async throws(ServerError) -> ListeningAcknowledgement { try signedIn() }

    public func listeningPositions(updatedAfter: Date?) async throws(ServerError) -> [ListeningPosition] { try signedIn() }

    public func continueListening(limit: Int) async throws(ServerError) -> [ContinueListeningItem] { try signedIn() }

    public func setFinished(_ finished: Bool, row: ListeningPosition) async throws(ServerError) { try signedIn() }

    /// False: preferences stay on this device, as with a REST v1 server.
    public nonisolated var keepsAccountPreferences: Bool { false }

    public func accountPreferences() async throws(ServerError) -> AccountPreferences? { nil }

    public func updateAccountPreferences(_ change: AccountPreferencesChange) async throws(ServerError) -> AccountPreferences? { nil }
}
