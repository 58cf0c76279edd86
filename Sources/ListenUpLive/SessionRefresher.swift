import Foundation
import ListenUpCore
import Logging

/// What a server client does for its ``SessionRefresher``: the refresh call
/// of its own wire, and closing what it holds open with a session that ended.
protocol SessionRenewing: Sendable {
    /// Sends the refresh for `current` and returns the session it gives
    /// (the refresher keeps it). Throws ``ServerError/sessionLapsed`` only
    /// when the server refused the refresh token (the session is over); any
    /// other error (the network, a throttle, a server failure) leaves the
    /// session as it is.
    func renewSession(_ current: StoredSession) async throws(ServerError) -> StoredSession

    /// The session is over (refused, or signed out): close whatever this
    /// client keeps open with it. Runs before the store and the handlers are told.
    func sessionEnded() async
}

/// The signed-in session of one server connection and the one way its
/// access token is renewed, shared by both server clients (REST v1's
/// ``APIClient`` and ``KRPCServerConnection``):
///
/// - **Ahead of expiry**: ``accessToken(for:)`` refreshes first when less
///   than the margin is left of the token (two minutes, or half the token's
///   lifetime when this run saw it issued and it lives under four minutes, so a
///   short-lived token is not refreshed before every call).
/// - **Single flight**: concurrent callers share one refresh request.
/// - **Rotation grace**: a caller whose refused token was replaced
///   meanwhile gets the new session, not a second refresh (which would
///   present a refresh token the server has already rotated away). A refresh
///   whose answer was lost (the network, a timeout) leaves the session
///   standing, so the next refresh presents the same refresh token again,
///   within the kRPC server's grace for the token it just rotated (the Go
///   server keeps none: there that refresh is refused and the session ends).
/// - **Refusal**: only a refusal (``ServerError/sessionLapsed`` from the
///   client) ends the session: it is forgotten here and in the store, the
///   client closes what it holds, and the ``onLapse(_:)`` handlers run, once.
///   Until they have run, a caller finding no session waits, so nobody sees
///   `sessionLapsed` before its handlers ran.
/// - A refresh answered after its session was forgotten (signed out,
///   lapsed, or replaced by a new sign-in) is dropped, never saved.
///
/// Thread-safe: an actor.
actor SessionRefresher {
    /// Refresh when less than this is left of the access token.
    static let defaultMargin: TimeInterval = 120

    let serverURL: URL
    private let store: SessionStore
    private let logger: Logger
    private let margin: TimeInterval
    private let now: @Sendable () -> Date
    /// The session as it stands; nil when signed out or lapsed.
    private(set) var session: StoredSession?
    /// When this run received the current access token (nil: restored from the store).
    private var receivedAt: Date?
    private var inFlight: Task<StoredSession, any Error>?
    /// A lapse under way: the session is already gone, the client, the store
    /// and the handlers are being told.
    private var lapsing: Task<Void, Never>?
    private var lapseHandlers: [@Sendable () async -> Void] = []
    /// Counts the sessions forgotten, so a refresh that outlived its session is dropped.
    private var generation = 0

    /// - Parameters:
    ///   - margin: refresh ahead when less than this is left of the token.
    ///   - now: the clock expiries are read against (tests move it).
    init(serverURL: URL, session: StoredSession?, store: SessionStore, logger: Logger,
         margin: TimeInterval = SessionRefresher.defaultMargin, now: @escaping @Sendable () -> Date = { Date() }) {
        self.serverURL = serverURL
        self.session = session
        self.store = store
        self.logger = logger
        self.margin = margin
        self.now = now
    }

    /// Runs `handler` when the server refuses the session (once per lapse).
    func onLapse(_ handler: @escaping @Sendable () async -> Void) {
        lapseHandlers.append(handler)
    }

    /// Keeps `session` (a sign-in's), here and in the store. A refresh of
    /// an earlier session still under way is cancelled and its answer dropped.
    func adopt(_ session: StoredSession) async {
        generation += 1
        inFlight?.cancel()
        inFlight = nil
        await keep(session)
    }

    private func keep(_ session: StoredSession) async {
        self.session = session
        receivedAt = now()
        lapsing = nil
        do {
            try await store.save(session)
        } catch {
            logger.error("Could not save the session; you will have to sign in again next time")
        }
    }

    /// The session, or ``ServerError/sessionLapsed`` once a lapse under way
    /// has told the store and the handlers.
    func requireSession() async throws(ServerError) -> StoredSession {
        if let session { return session }
        throw await lapsedError()
    }

    /// ``ServerError/sessionLapsed``, once a lapse under way has told the
    /// client, the store and the handlers.
    func lapsedError() async -> ServerError {
        await lapsing?.value
        return .sessionLapsed
    }

    /// A usable access token: the current one, or a fresh one when little is
    /// left of it (see the type's notes on the margin).
    func accessToken(for client: some SessionRenewing) async throws(ServerError) -> String {
        let current = try await requireSession()
        guard current.accessExpiresAt.timeIntervalSince(now()) < effectiveMargin(current) else { return current.accessToken }
        logger.debug("The access token is about to expire; refreshing ahead")
        return try await refreshed(after: current.accessToken, for: client).accessToken
    }

    /// A session with a fresh access token after `failedToken` was refused
    /// (or is about to expire). If it is no longer the current token,
    /// another caller has refreshed: that session is returned. Concurrent
    /// callers share one refresh; a refusal ends the session.
    func refreshed(after failedToken: String, for client: some SessionRenewing) async throws(ServerError) -> StoredSession {
        let current = try await requireSession()
        if current.accessToken != failedToken { return current }
        let task: Task<StoredSession, any Error>
        if let inFlight {
            task = inFlight
        } else {
            let started = generation
            task = Task {
                let renewed = try await client.renewSession(current)
                try await self.keep(renewed, from: started)
                return renewed
            }
            inFlight = task
        }
        do {
            let renewed = try await task.value
            if inFlight == task { inFlight = nil }
            return renewed
        } catch {
            if inFlight == task { inFlight = nil }
            let failure = Self.serverError(error)
            guard failure == .sessionLapsed else { throw failure }  // the session stands
            await lapse(client)
            throw .sessionLapsed
        }
    }

    /// The server refused the session: forget it, then let the client close
    /// what it holds, the store forget it and the handlers know. A second
    /// caller while this runs waits for the first; with no session, nothing happens.
    func lapse(_ client: some SessionRenewing) async {
        if let lapsing {
            await lapsing.value
            return
        }
        guard session != nil else { return }
        logger.info("The server refused the session; signing in again is needed")
        forget()
        let task = Task {
            await client.sessionEnded()
            await store.delete(serverURL)
            for handler in lapseHandlers { await handler() }
        }
        lapsing = task
        await task.value
    }

    /// Signing out: forgets the session here (a refresh under way is
    /// cancelled, and dropped if it answers anyway), lets the client close
    /// what it holds and the store forget it. No handler runs.
    func signOut(_ client: some SessionRenewing) async {
        forget()
        await client.sessionEnded()
        await store.delete(serverURL)
    }

    // MARK: Private

    private func forget() {
        session = nil
        receivedAt = nil
        generation += 1
        inFlight?.cancel()
        inFlight = nil
    }

    /// Keeps a refresh's session unless its session was forgotten meanwhile
    /// (then the refresh reads as cancelled: it must not lapse a later session).
    private func keep(_ renewed: StoredSession, from started: Int) async throws(ServerError) {
        guard started == generation else {
            logger.debug("A refresh answered after its session ended; dropped")
            throw .transport(.cancelled)
        }
        await keep(renewed)
    }

    /// Refresh ahead with this much left: the margin, or half the token's
    /// lifetime when this run received it and that is shorter.
    private func effectiveMargin(_ current: StoredSession) -> TimeInterval {
        guard let receivedAt else { return margin }
        return min(margin, current.accessExpiresAt.timeIntervalSince(receivedAt) / 2)
    }

    private static func serverError(_ error: any Error) -> ServerError {
        switch error {
        case let error as ServerError: error
        case is CancellationError: .transport(.cancelled)
        default: .transport(.unreachable("\(error)"))
        }
    }
}
