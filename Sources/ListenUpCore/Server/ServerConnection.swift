import Foundation

/// The one way the app talks to a ListenUp server, whatever generation of
/// server it is: the seam between the screens' models and a wire protocol.
///
/// One connection per server address, signed in or not. Models hold it
/// through this protocol only, so a second protocol is a second conforming
/// type and a line in ``Dependencies/connect(to:session:)``, with no model or
/// page touched. The implementations live in the live layer (`ListenUpLive`),
/// built by the composition root: one for the Go server's REST v1
/// (`contract/listenup-rest-v1.md`) and one for the Kotlin server's kRPC
/// (`contract/listenup-krpc-v0.9.md`); previews and unit tests get an
/// ``OfflineServerConnection``.
///
/// The vocabulary is the app's own domain types (a book page of
/// ``ServerBook``s, a ``LibraryEvent``, the browse entities), never a
/// protocol's: each connection maps its wire types into them at its edge,
/// so the core sees no REST v1 DTO and no kRPC payload.
///
/// Implementations are actors (or otherwise thread-safe): every call may
/// come from any task. Errors are ``ServerError``s; a refused refresh
/// ends the session (``ServerError/sessionLapsed``) and calls the
/// handlers given to ``onSessionLapsed(_:)``.
public protocol ServerConnection: AnyObject, Sendable {
    /// The server's base URL.
    var baseURL: URL { get }

    /// The signed-in session as it stands (after any refresh); nil when
    /// signed out.
    var currentSession: StoredSession? { get async }

    /// Runs `handler` when the server refuses the session (a refused
    /// refresh): the user must sign in again.
    func onSessionLapsed(_ handler: @escaping @Sendable () async -> Void) async

    /// Creates the server's first (admin) account and signs in as it.
    /// - Returns: the session, already saved for the next launch.
    /// - Throws: ``ServerError/server(status:message:)`` with 409 when an
    ///   admin exists already.
    func setupAdmin(firstName: String, lastName: String, email: String, password: String) async throws(ServerError) -> StoredSession

    /// Signs in.
    /// - Returns: the session, already saved for the next launch.
    func login(email: String, password: String) async throws(ServerError) -> StoredSession

    /// Signs out: tells the server (best effort) and forgets the session,
    /// here and in the secret store.
    func logout() async

    // MARK: Registration (ServerConnection+Registration.swift has what a connection without a server answers)

    /// Whether the server takes new accounts, read from it now (kRPC
    /// `getServerInfo().registrationPolicy`; REST v1 `open_registration`).
    func registrationMode() async throws(ServerError) -> RegistrationMode

    /// Whether the server takes new accounts, now and then at each change,
    /// for as long as the stream is followed (kRPC
    /// `observeRegistrationPolicy`). A server that tells of no change
    /// (REST v1) answers once and the stream ends.
    func registrationModes() async throws(ServerError) -> AsyncThrowingStream<RegistrationMode, any Error>

    /// Creates an account (kRPC `AuthServicePublic.register`; REST v1
    /// `POST /api/v1/auth/register`, always pending).
    /// - Returns: signed in (saved for the next launch, as a sign-in is),
    ///   or pending an administrator's approval.
    func register(displayName: String, email: String, password: String) async throws(ServerError) -> RegistrationOutcome

    /// Watches a pending registration: its status now, then (while pending)
    /// the decision; the stream ends after the decision, or without one
    /// (the caller watches again later, not at once: the server counts).
    /// - Throws: 404 for a registration the server does not know.
    func registrationStatus(userID: String) async throws(ServerError) -> AsyncThrowingStream<RegistrationStatus, any Error>

    // MARK: Password reset (PasswordReset/PasswordReset.swift has what a connection without a server answers)

    /// Asks for a password reset (kRPC `requestPasswordReset`; REST v1 has none).
    /// Always answered with a ticket, whether or not the email has an account.
    /// - Parameter deviceClaim: a secret this device minted (``DeviceClaim``).
    func requestPasswordReset(email: String, deviceClaim: String) async throws(ServerError) -> PasswordResetTicket

    /// Watches a reset request: the server repeats its status every 3 s
    /// while pending or approved; the stream ends after a terminal status.
    func passwordResetStatus(ticketID: String) async throws(ServerError) -> AsyncThrowingStream<PasswordResetStatus, any Error>

    /// Completes an approved reset with the administrator's code (already
    /// normalized) and the new password; the server then ends every session of the account.
    /// - Throws: ``ServerError/passwordReset(_:)`` for the reset's own refusals.
    func completePasswordReset(ticketID: String, claimSecret: String, code: String, newPassword: String) async throws(ServerError)

    /// How many books the signed-in user's library holds.
    func libraryBookCount() async throws(ServerError) -> Int

    /// The server's digest of the library as of what this connection has
    /// synced, to catch a cache that drifted from it; nil when the server
    /// has none (REST v1: the default, in `LibraryDrift.swift`).
    func libraryDigest() async throws(ServerError) -> LibraryDigest?

    /// The hash ``libraryDigest()`` would give for a library of these books
    /// (id → revision), to compare with the server's; nil for a server
    /// whose digests carry none (the default, in `LibraryDrift.swift`).
    func libraryHash(of revisions: [String: Int64]) -> String?

    /// A page of the user's books: from `cursor` (nil: the first page), or
    /// with `updatedAfter` only those changed since (a delta, which also
    /// names the books deleted since).
    func syncBooks(limit: Int, cursor: String?, updatedAfter: Date?) async throws(ServerError) -> ServerBooksPage

    /// Opens the stream of live events (books added or removed, progress,
    /// scans). The stream ends when the server closes it and throws when
    /// the connection breaks; cancelling the iterating task closes it.
    func liveEvents() async throws(ServerError) -> AsyncThrowingStream<LibraryEvent, any Error>

    /// The cover of `bookID`, at most `maxBytes`; nil when it has none.
    func cover(bookID: String, maxBytes: Int) async throws(ServerError) -> Data?

    /// The cover of `bookID`, revalidated: `etag` is the `ETag` of the copy
    /// the app keeps (sent as `If-None-Match`), and the answer may be that
    /// the copy is current. A server without `ETag`s fetches plainly (the
    /// default, in `CoverLoader.swift`).
    func cover(bookID: String, maxBytes: Int, ifNoneMatch etag: String?) async throws(ServerError) -> CoverFetch

    /// The cover of `bookID` at `size`, revalidated as
    /// ``cover(bookID:maxBytes:ifNoneMatch:)`` is. A server without sizes
    /// (REST v1) serves its one cover for every size (the default, in
    /// `CoverSize.swift`).
    func cover(bookID: String, maxBytes: Int, ifNoneMatch etag: String?, size: CoverSize) async throws(ServerError) -> CoverFetch

    // MARK: Browsing

    /// A page of `domain`'s rows (contributors or series, in the seam's
    /// types): from `cursor` (nil: the first page), or with `updatedAfter`
    /// only those changed since, which also names those deleted since. The
    /// paging rules are ``syncBooks(limit:cursor:updatedAfter:)``'s.
    /// (REST v1: `/api/v1/sync/contributors`, `/api/v1/sync/series`; kRPC:
    /// `pullDomain("contributors")`, `pullDomain("series")`.)
    func syncBrowse(_ domain: BrowseDomain, limit: Int, cursor: String?, updatedAfter: Date?) async throws(ServerError) -> BrowseRows

    /// A person's photo or a series' cover (``BrowseImage``), at most
    /// `maxBytes`; nil when there is none (404) or the server serves no
    /// such image. (REST v1: `/api/v1/contributors/{id}/image`, no series
    /// covers; kRPC: `/api/v1/contributors/{id}/photo`,
    /// `/api/v1/series/{id}/cover`; both with the Bearer header.)
    func browseImage(_ image: BrowseImage, maxBytes: Int) async throws(ServerError) -> Data?

    /// Where the account is signed in, newest use first; nil when the
    /// server lists no sessions (REST v1). (kRPC: `listSessions`.)
    func accountSessions() async throws(ServerError) -> [AccountSession]?

    /// Signs session `id` out (another device; idempotent). (kRPC:
    /// `revokeSession`.)
    func endAccountSession(id: String) async throws(ServerError)

    /// The user's listening for Home: totals, streak, and the last `days`
    /// days one by one (ending today, in this computer's time zone where
    /// the server leaves it to the client). Nil when the server keeps none.
    func listeningStats(days: Int) async throws(ServerError) -> ListeningStats?

    // MARK: Discover

    /// Whether the server has an activity feed (kRPC's `activities` and
    /// `public_profiles` domains; REST v1's `GET /api/v1/social/feed`, read
    /// whole on each sync as it has no sync feed, addendum §7). A connection
    /// without one answers false (ServerConnection+Shelves.swift).
    nonisolated var hasActivityFeed: Bool { get }

    /// Who else listens to what (kRPC `SocialService.currentlyListening`;
    /// REST v1 `GET /api/v1/social/currently-listening`): at most one row
    /// per other reader, live ones first. A connection without it answers
    /// none (ServerConnection+Shelves.swift).
    func currentlyListening() async throws(ServerError) -> [ListeningNow]

    // MARK: Shelves (ServerConnection+Shelves.swift has what a connection without them answers)

    /// Whether a shelf can be private on this server (kRPC: yes; REST v1: no such flag).
    nonisolated var shelvesHavePrivacy: Bool { get }

    /// The longest shelf name this server takes (kRPC 200, REST v1 100).
    nonisolated var shelfNameLimit: Int { get }

    /// Makes one of the user's shelves (`isPrivate` is dropped where the
    /// server has no such flag). Its books come with the next sync.
    func createShelf(name: String, description: String, isPrivate: Bool) async throws(ServerError) -> Shelf

    /// Renames, redescribes (and on kRPC makes private or public) one of the user's shelves.
    func updateShelf(id: String, name: String, description: String, isPrivate: Bool) async throws(ServerError) -> Shelf

    /// Deletes one of the user's shelves (not its books).
    func deleteShelf(id: String) async throws(ServerError)

    /// Puts a book at the end of one of the user's shelves (nothing when it is there).
    func addBook(_ bookID: String, toShelf shelfID: String) async throws(ServerError)

    /// Takes a book off one of the user's shelves (nothing when it is not there).
    func removeBook(_ bookID: String, fromShelf shelfID: String) async throws(ServerError)

    /// Other users' public shelves, each with its owner and the books the
    /// user can see, in order.
    func discoverShelves() async throws(ServerError) -> [Shelf]

    // MARK: Invites (Invites/InvitePreview.swift has what a connection without them answers)

    /// What the server says about invite `code`, signed in or not (kRPC:
    /// `InviteServicePublic.lookupInvite`; REST v1: `GET /api/v1/invites/{code}`).
    /// - Throws: ``ServerError/invite(_:)`` `.notFound` for an unknown code.
    func lookupInvite(code: String) async throws(ServerError) -> InvitePreview

    /// Claims invite `code`: the server makes the account (the invite's
    /// email and role; `displayName` where the server takes one, else the
    /// invite's name) and signs in as it (kRPC: `claimInvite`; REST v1:
    /// `POST /api/v1/invites/{code}/claim`).
    /// - Returns: the session, already saved for the next launch.
    /// - Throws: ``ServerError/invite(_:)`` for an unknown, used or expired
    ///   invite or an email in use.
    func claimInvite(code: String, password: String, displayName: String?) async throws(ServerError) -> StoredSession

    // MARK: Listening

    /// How to read `bookID`'s audio files (`fileIDs`, the
    /// `audio_files[].id`s). With `afterRefusal` the audio was refused
    /// (HTTP 401, or 403 for a signed URL): the session is refreshed first
    /// (single flight, like every other refresh) or the URLs prepared again.
    func audioAccess(bookID: String, fileIDs: [String], afterRefusal: Bool) async throws(ServerError) -> AudioAccess

    /// Sends listening spans, oldest first.
    func sendListening(_ spans: [ListeningSpan]) async throws(ServerError) -> ListeningAcknowledgement

    /// The server's positions, all books or those changed since `updatedAfter`.
    func listeningPositions(updatedAfter: Date?) async throws(ServerError) -> [ListeningPosition]

    /// The books to continue, most recent first.
    func continueListening(limit: Int) async throws(ServerError) -> [ContinueListeningItem]

    /// Marks a book finished, or not started (at 0), keeping what its
    /// position row says beside that (its speed, boost and measured gain).
    /// Sent once: a call that timed out is not sent again (the caller says
    /// so and the user may try again).
    /// - Parameters:
    ///   - finished: true for *Mark as Finished*, false for *Mark as Not Started*.
    ///   - row: the book's row as this device knows it after the change
    ///     (``ListeningPosition/updatedAt`` is the write's time).
    func setFinished(_ finished: Bool, row: ListeningPosition) async throws(ServerError)

    // MARK: Account preferences

    /// Whether this server keeps the account's playback preferences for all
    /// of the user's devices (today's server); false when it keeps none
    /// (REST v1): then they stay on this device, in the settings, and the
    /// two calls below answer nil. Known without asking the server.
    nonisolated var keepsAccountPreferences: Bool { get }

    /// The account's playback preferences as the server keeps them (its
    /// defaults for a user who never set any); nil when this server keeps none.
    func accountPreferences() async throws(ServerError) -> AccountPreferences?

    /// Changes the fields `change` sets (the others stay as they are) and
    /// returns the preferences the server now keeps, clamped to its ranges;
    /// nil when this server keeps none. Sent once: a call that timed out is
    /// not sent again (the caller says so and the user may try again).
    func updateAccountPreferences(_ change: AccountPreferencesChange) async throws(ServerError) -> AccountPreferences?
}
