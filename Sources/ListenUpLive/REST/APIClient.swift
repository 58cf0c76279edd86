import Foundation
import ListenUpAPI
import ListenUpCore
import Logging
import ServerSentEvents

/// Talks to one ListenUp server over REST v1 (the Go server's API): envelopes
/// in and out, the Bearer token on authenticated calls (refreshed ahead of
/// its expiry, and once with one retry on a 401, through the
/// ``SessionRefresher`` both clients share), and never a token to another
/// origin. The REST v1 implementation of ``ServerConnection``, beside
/// ``KRPCServerConnection``.
public actor APIClient: ServerConnection, SessionRenewing {
    /// The server's base URL.
    public nonisolated let baseURL: URL
    let transport: HTTPTransport
    let deviceInfo: DeviceInfo
    private let logger: Logger
    private let timeout: Duration
    /// The session and its renewal.
    let refresher: SessionRefresher
    /// The server's library, as `/api/v1/library/status` last named it
    /// (the Go server has one; its collections are read under it).
    var libraryID: String?

    /// The largest JSON answer accepted (a 500-book sync page is well under this).
    public static let maxBodyBytes = 32 << 20

    public init(baseURL: URL, session: StoredSession?, transport: HTTPTransport, sessions: SessionStore,
                deviceInfo: DeviceInfo, logger: Logger, timeout: Duration = .seconds(30)) {
        self.baseURL = baseURL
        self.transport = transport
        self.deviceInfo = deviceInfo
        self.logger = logger
        self.timeout = timeout
        refresher = SessionRefresher(serverURL: baseURL, session: session, store: sessions, logger: logger)
    }

    /// The current session (after any refresh).
    public var currentSession: StoredSession? {
        get async { await refresher.session }
    }

    /// Runs `handler` when a refresh is refused (the session is over).
    public func onSessionLapsed(_ handler: @escaping @Sendable () async -> Void) async {
        await refresher.onLapse(handler)
    }

    // MARK: Auth

    /// Creates the first admin and signs in as them.
    public func setupAdmin(firstName: String, lastName: String, email: String, password: String) async throws(ServerError) -> StoredSession {
        let body = SetupRequest(email: email, password: password, firstName: firstName, lastName: lastName)
        let auth = try await call(.setup(body))
        return await adopt(auth, email: email)
    }

    /// Signs in.
    public func login(email: String, password: String) async throws(ServerError) -> StoredSession {
        let auth = try await call(.login(LoginRequest(email: email, password: password, deviceInfo: deviceInfo)))
        return await adopt(auth, email: email)
    }

    /// Signs out: tells the server (best effort) and forgets the session here
    /// and in the secret store.
    public func logout() async {
        if let session = await refresher.session {
            do {
                _ = try await call(.logout(LogoutRequest(sessionID: session.sessionID)))
            } catch {
                logger.warning("Logout request failed; forgetting the session locally anyway", metadata: ["code": "\(error.code)"])
            }
        }
        await refresher.signOut(self)
    }

    // MARK: The library (ServerConnection)

    public func libraryBookCount() async throws(ServerError) -> Int {
        let status = try await authorized(.libraryStatus)
        libraryID = status.library?.id ?? libraryID
        return status.bookCount
    }

    public func syncBooks(limit: Int, cursor: String?, updatedAfter: Date?) async throws(ServerError) -> ServerBooksPage {
        ServerBooksPage(try await authorized(.syncBooks(limit: limit, cursor: cursor, updatedAfter: updatedAfter)))
    }

    public func cover(bookID: String, maxBytes: Int) async throws(ServerError) -> Data? {
        try await authorizedBytes(path: RawEndpoint.cover(bookID: bookID), maxBytes: maxBytes)
    }

    /// `/api/v1/sync/events` parsed as server-sent events, each read as
    /// the app's ``LibraryEvent`` (``RESTLiveEvents``); those the library
    /// does not follow are left out.
    public func liveEvents() async throws(ServerError) -> AsyncThrowingStream<LibraryEvent, any Error> {
        let body = try await openEventStream().body
        let logger = logger
        return AsyncThrowingStream { continuation in
            let reader = Task {
                var parser = ServerSentEventParser()
                do {
                    for try await chunk in body {
                        for event in parser.feed(chunk) {
                            if let read = RESTLiveEvents.event(event, logger: logger) { continuation.yield(read) }
                        }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in reader.cancel() }
        }
    }

    // MARK: Calls

    /// An authenticated call: Bearer token (refreshed first when little is
    /// left of it), one refresh and one retry on 401.
    public func authorized<Response: Decodable & Sendable>(_ endpoint: Endpoint<Response>) async throws(ServerError) -> Response {
        let token = try await refresher.accessToken(for: self)
        do {
            return try await call(endpoint, token: token)
        } catch .server(status: 401, _) {
            let renewed = try await refresher.refreshed(after: token, for: self)
            return try await call(endpoint, token: renewed.accessToken)
        }
    }

    /// An authenticated GET of raw bytes (covers): the Bearer header, one
    /// refresh and one retry on 401. Returns `nil` for 404 (nothing there).
    public func authorizedBytes(path: String, maxBytes: Int) async throws(ServerError) -> Data? {
        let token = try await refresher.accessToken(for: self)
        func fetch(_ token: String) async throws(ServerError) -> HTTPResponse {
            let request = HTTPRequest(method: "GET", url: baseURL.appendingAPIPath(path), headers: [("Authorization", "Bearer \(token)")])
            return try await send(request, maxBodyBytes: maxBytes)
        }
        var response = try await fetch(token)
        if response.status == 401 {
            let renewed = try await refresher.refreshed(after: token, for: self)
            response = try await fetch(renewed.accessToken)
        }
        switch response.status {
        case 200..<300: return response.body
        case 404: return nil
        default: throw .server(status: response.status, message: HTTPStatusText.text(for: response.status))
        }
    }

    /// Opens `/api/v1/sync/events` (server-sent events) with the Bearer
    /// header; one refresh and one retry on 401. Redirects are refused.
    public func openEventStream(connectTimeout: Duration = .seconds(15)) async throws(ServerError) -> HTTPStreamingResponse {
        let token = try await refresher.accessToken(for: self)
        func open(_ token: String) async throws(ServerError) -> HTTPStreamingResponse {
            let request = HTTPRequest(method: "GET", url: baseURL.appendingAPIPath("/api/v1/sync/events"),
                                      headers: [("Accept", "text/event-stream"), ("Authorization", "Bearer \(token)")])
            do {
                return try await transport.stream(request, connectTimeout)
            } catch let error as TransportError {
                throw .transport(error)
            } catch {
                throw .transport(.unreachable("\(error)"))
            }
        }
        var response = try await open(token)
        if response.status == 401 {
            let renewed = try await refresher.refreshed(after: token, for: self)
            response = try await open(renewed.accessToken)
        }
        guard (200..<300).contains(response.status) else {
            throw .server(status: response.status, message: HTTPStatusText.text(for: response.status))
        }
        guard response.header("Content-Type")?.lowercased().hasPrefix("text/event-stream") == true else {
            throw .protocolMismatch("the event stream is not text/event-stream")
        }
        return response
    }

    /// A call with no token (instance, setup, login, refresh, logout) or with `token`.
    func call<Response: Decodable & Sendable>(_ endpoint: Endpoint<Response>, token: String? = nil) async throws(ServerError) -> Response {
        var url = baseURL.appendingAPIPath(endpoint.path)
        if !endpoint.query.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            components.percentEncodedQuery = endpoint.percentEncodedQuery
            url = components.url ?? url
        }
        var headers: [(name: String, value: String)] = [("Accept", "application/json")]
        if endpoint.body != nil { headers.append(("Content-Type", "application/json")) }
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        let response = try await send(HTTPRequest(method: endpoint.method.rawValue, url: url, headers: headers, body: endpoint.body))
        return try decode(response, as: Response.self)
    }

    /// Sends, following same-origin redirects (at most 5). A redirect to
    /// another origin is refused before anything is sent there.
    private func send(_ first: HTTPRequest, maxBodyBytes: Int = APIClient.maxBodyBytes) async throws(ServerError) -> HTTPResponse {
        var request = first
        for _ in 0..<6 {
            let response: HTTPResponse
            do {
                response = try await transport.send(request, timeout, maxBodyBytes)
            } catch let error as TransportError {
                throw .transport(error)
            } catch {
                throw .transport(.unreachable("\(error)"))
            }
            guard response.isRedirect, let location = response.header("Location") else { return response }
            guard let target = URL(string: location, relativeTo: request.url)?.absoluteURL else {
                throw .protocolMismatch("unreadable redirect")
            }
            guard target.sameOrigin(as: baseURL) else {
                logger.warning("Refused a redirect to another origin", metadata: ["to": "\(target.host ?? "?")"])
                throw .redirectRefused(to: target.absoluteString)
            }
            request.url = target
            if response.status == 303 {
                request.method = "GET"
                request.body = nil
                request.headers.removeAll { $0.name.caseInsensitiveCompare("Content-Type") == .orderedSame }
            }
        }
        throw .protocolMismatch("too many redirects")
    }

    private func decode<Response: Decodable & Sendable>(_ response: HTTPResponse, as type: Response.Type) throws(ServerError) -> Response {
        if response.status == 429 { throw .rateLimited }
        let envelope: APIEnvelope<Response>
        do {
            envelope = try APIEnvelope.decode(response.body, as: Response.self)
        } catch {
            if response.status >= 400 {
                throw .server(status: response.status, message: HTTPStatusText.text(for: response.status))
            }
            throw .protocolMismatch("\(error)")
        }
        switch envelope {
        case .failure(let failure):
            // Never log the message: a 422 echoes the submitted body, password included.
            throw .server(status: response.status, message: failure.message)
        case .success(let payload?):
            guard (200..<300).contains(response.status) else {
                throw .protocolMismatch("success envelope with HTTP \(response.status)")
            }
            return payload
        case .success(nil):
            throw .protocolMismatch("success envelope without data")
        }
    }

    // MARK: Sessions

    /// Keeps a sign-in's session (here and in the secret store).
    func adopt(_ auth: AuthResponse, email: String) async -> StoredSession {
        let stored = storedSession(auth, email: email)
        await refresher.adopt(stored)
        return stored
    }

    private func storedSession(_ auth: AuthResponse, email: String) -> StoredSession {
        StoredSession(
            serverURL: baseURL, accessToken: auth.accessToken, refreshToken: auth.refreshToken,
            sessionID: auth.sessionID, userID: auth.user.id, displayName: auth.user.displayName,
            email: auth.user.email.isEmpty ? email : auth.user.email,
            accessExpiresAt: Date().addingTimeInterval(TimeInterval(auth.expiresIn))
        )
    }

    /// `POST /auth/refresh` for the ``SessionRefresher``. The server's
    /// refusal of the refresh token (a 4xx: 401 for an unknown or rotated
    /// token, 404 for a deleted user) ends the session; the network, a 429,
    /// a 5xx or an answer this client cannot read leave it standing.
    func renewSession(_ current: StoredSession) async throws(ServerError) -> StoredSession {
        logger.debug("Refreshing the access token")
        do {
            let auth = try await call(.refresh(RefreshRequest(refreshToken: current.refreshToken, deviceInfo: deviceInfo)))
            return storedSession(auth, email: current.email)
        } catch .server(let status, _) where (400..<500).contains(status) && ![408, 429].contains(status) {
            throw .sessionLapsed
        }
    }

    /// Nothing is held open with a session over REST v1.
    func sessionEnded() async {}
}

extension URL {
    /// Same scheme, host and port (default ports filled in).
    func sameOrigin(as other: URL) -> Bool {
        func origin(_ url: URL) -> String {
            let scheme = url.scheme?.lowercased() ?? ""
            let port = url.port ?? (scheme == "https" ? 443 : 80)
            return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
        }
        return origin(self) == origin(other)
    }
}

/// Plain text for a status when the body is not an envelope.
enum HTTPStatusText {
    static func text(for status: Int) -> String {
        switch status {
        case 401: "unauthorized"
        case 404: "not found"
        case 413: "request too large"
        case 429: "too many requests"
        default: "HTTP \(status)"
        }
    }
}
