import Foundation
import ListenUpAPI
import Logging
import ServerSentEvents

/// Why an API call failed, in the terms the screens report.
public enum APIClientError: Error, Equatable, Sendable {
    /// No usable answer: the connection failed, timed out, …
    case transport(TransportError)
    /// The server refused with its own message (4xx/5xx envelope).
    case server(status: Int, message: String)
    /// 429 on setup/login: too many attempts.
    case rateLimited
    /// Too many attempts, and the server says when to try again (kRPC
    /// `AuthError.RateLimited{retryAfterSeconds}`).
    case rateLimitedFor(seconds: Int)
    /// The server answered with an error this app does not know (a kRPC
    /// `AppError` type newer than the app); the text is for logs.
    case serverNewer(String)
    /// The session is over: the refresh token was refused.
    case sessionLapsed
    /// The answer was not the envelope or payload the contract promises.
    case protocolMismatch(String)
    /// A redirect to another origin; not followed (it would leak the token).
    case redirectRefused(to: String)

    /// Machine-readable code (headless `code`).
    public var code: String {
        switch self {
        case .transport(.timedOut): "timedOut"
        case .transport(.tlsFailure): "tlsFailure"
        case .transport: "unreachable"
        case .server(401, _): "invalidCredentials"
        case .server(403, _): "forbidden"
        case .server(409, _): "conflict"
        case .server(let status, _) where status >= 500: "serverError"
        case .server: "rejected"
        case .rateLimited, .rateLimitedFor: "rateLimited"
        case .serverNewer: "serverNewer"
        case .sessionLapsed: "sessionLapsed"
        case .protocolMismatch: "protocolMismatch"
        case .redirectRefused: "redirectRefused"
        }
    }
}

/// Talks to one ListenUp server over REST v1 (the Go server's API): envelopes
/// in and out, the Bearer token on authenticated calls, one refresh
/// (single-flight) and one retry on a 401, and never a token to another
/// origin. The REST v1 implementation of ``ServerConnection``.
public actor APIClient: ServerConnection {
    /// The server's base URL.
    public nonisolated let baseURL: URL
    private let transport: HTTPTransport
    private let sessions: SessionStore
    private let deviceInfo: DeviceInfo
    private let logger: Logger
    private let timeout: Duration
    private(set) var session: StoredSession?
    private var refreshInFlight: Task<StoredSession, any Error>?
    private var lapsedHandlers: [@Sendable () async -> Void] = []

    /// The largest JSON answer accepted (a 500-book sync page is well under this).
    public static let maxBodyBytes = 32 << 20

    public init(baseURL: URL, session: StoredSession?, transport: HTTPTransport, sessions: SessionStore,
                deviceInfo: DeviceInfo, logger: Logger, timeout: Duration = .seconds(30)) {
        self.baseURL = baseURL
        self.session = session
        self.transport = transport
        self.sessions = sessions
        self.deviceInfo = deviceInfo
        self.logger = logger
        self.timeout = timeout
    }

    /// The current session (after any refresh).
    public var currentSession: StoredSession? { session }

    /// Runs `handler` when a refresh is refused (the session is over).
    public func onSessionLapsed(_ handler: @escaping @Sendable () async -> Void) {
        lapsedHandlers.append(handler)
    }

    // MARK: Auth

    /// Creates the first admin and signs in as them.
    public func setupAdmin(firstName: String, lastName: String, email: String, password: String) async throws(APIClientError) -> StoredSession {
        let body = SetupRequest(email: email, password: password, firstName: firstName, lastName: lastName)
        let auth = try await call(.setup(body))
        return try await adopt(auth, email: email)
    }

    /// Signs in.
    public func login(email: String, password: String) async throws(APIClientError) -> StoredSession {
        let auth = try await call(.login(LoginRequest(email: email, password: password, deviceInfo: deviceInfo)))
        return try await adopt(auth, email: email)
    }

    /// Signs out: tells the server (best effort) and forgets the session here
    /// and in the secret store.
    public func logout() async {
        if let session {
            do {
                _ = try await call(.logout(LogoutRequest(sessionID: session.sessionID)))
            } catch {
                logger.warning("Logout request failed; forgetting the session locally anyway", metadata: ["code": "\(error.code)"])
            }
        }
        session = nil
        refreshInFlight?.cancel()
        refreshInFlight = nil
        await sessions.delete(baseURL)
    }

    // MARK: The library (ServerConnection)

    public func libraryBookCount() async throws(APIClientError) -> Int {
        try await authorized(.libraryStatus).bookCount
    }

    public func syncBooks(limit: Int, cursor: String?, updatedAfter: Date?) async throws(APIClientError) -> SyncBooksResponse {
        try await authorized(.syncBooks(limit: limit, cursor: cursor, updatedAfter: updatedAfter))
    }

    public func cover(bookID: String, maxBytes: Int) async throws(APIClientError) -> Data? {
        try await authorizedBytes(path: RawEndpoint.cover(bookID: bookID), maxBytes: maxBytes)
    }

    /// `/api/v1/sync/events` parsed as server-sent events.
    public func liveEvents() async throws(APIClientError) -> AsyncThrowingStream<ServerSentEvent, any Error> {
        let body = try await openEventStream().body
        return AsyncThrowingStream { continuation in
            let reader = Task {
                var parser = ServerSentEventParser()
                do {
                    for try await chunk in body {
                        for event in parser.feed(chunk) { continuation.yield(event) }
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

    /// An authenticated call: Bearer token, one refresh and one retry on 401.
    public func authorized<Response: Decodable & Sendable>(_ endpoint: Endpoint<Response>) async throws(APIClientError) -> Response {
        guard let current = session else { throw .sessionLapsed }
        do {
            return try await call(endpoint, token: current.accessToken)
        } catch .server(status: 401, _) {
            let renewed = try await refreshed(after: current.accessToken)
            return try await call(endpoint, token: renewed.accessToken)
        }
    }

    /// An authenticated GET of raw bytes (covers): the Bearer header, one
    /// refresh and one retry on 401. Returns `nil` for 404 (nothing there).
    public func authorizedBytes(path: String, maxBytes: Int) async throws(APIClientError) -> Data? {
        guard let current = session else { throw .sessionLapsed }
        func fetch(_ token: String) async throws(APIClientError) -> HTTPResponse {
            let request = HTTPRequest(method: "GET", url: baseURL.appendingAPIPath(path), headers: [("Authorization", "Bearer \(token)")])
            return try await send(request, maxBodyBytes: maxBytes)
        }
        var response = try await fetch(current.accessToken)
        if response.status == 401 {
            let renewed = try await refreshed(after: current.accessToken)
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
    public func openEventStream(connectTimeout: Duration = .seconds(15)) async throws(APIClientError) -> HTTPStreamingResponse {
        guard let current = session else { throw .sessionLapsed }
        func open(_ token: String) async throws(APIClientError) -> HTTPStreamingResponse {
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
        var response = try await open(current.accessToken)
        if response.status == 401 {
            let renewed = try await refreshed(after: current.accessToken)
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
    func call<Response: Decodable & Sendable>(_ endpoint: Endpoint<Response>, token: String? = nil) async throws(APIClientError) -> Response {
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
    private func send(_ first: HTTPRequest, maxBodyBytes: Int = APIClient.maxBodyBytes) async throws(APIClientError) -> HTTPResponse {
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

    private func decode<Response: Decodable & Sendable>(_ response: HTTPResponse, as type: Response.Type) throws(APIClientError) -> Response {
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

    private func adopt(_ auth: AuthResponse, email: String) async throws(APIClientError) -> StoredSession {
        let stored = StoredSession(
            serverURL: baseURL, accessToken: auth.accessToken, refreshToken: auth.refreshToken,
            sessionID: auth.sessionID, userID: auth.user.id, displayName: auth.user.displayName,
            email: auth.user.email.isEmpty ? email : auth.user.email,
            accessExpiresAt: Date().addingTimeInterval(TimeInterval(auth.expiresIn))
        )
        session = stored
        do {
            try await sessions.save(stored)
        } catch {
            logger.error("Could not save the session; you will have to sign in again next time")
        }
        return stored
    }

    /// A session with a fresh access token. If `failedToken` is no longer the
    /// current one, another call already refreshed: use that. Concurrent
    /// callers share one refresh.
    func refreshed(after failedToken: String) async throws(APIClientError) -> StoredSession {
        guard let current = session else { throw .sessionLapsed }
        if current.accessToken != failedToken { return current }
        let task: Task<StoredSession, any Error>
        if let inFlight = refreshInFlight {
            task = inFlight
        } else {
            let refreshToken = current.refreshToken
            task = Task { try await self.performRefresh(refreshToken: refreshToken) }
            refreshInFlight = task
        }
        do {
            let renewed = try await task.value
            if refreshInFlight == task { refreshInFlight = nil }
            return renewed
        } catch {
            if refreshInFlight == task { refreshInFlight = nil }
            if let error = error as? APIClientError, case .transport = error { throw error }
            await lapse()
            throw .sessionLapsed
        }
    }

    private func performRefresh(refreshToken: String) async throws -> StoredSession {
        logger.debug("Refreshing the access token")
        let auth = try await call(.refresh(RefreshRequest(refreshToken: refreshToken, deviceInfo: deviceInfo)))
        return try await adopt(auth, email: session?.email ?? auth.user.email)
    }

    private func lapse() async {
        logger.info("The server refused the session; signing in again is needed")
        session = nil
        await sessions.delete(baseURL)
        for handler in lapsedHandlers { await handler() }
    }
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
