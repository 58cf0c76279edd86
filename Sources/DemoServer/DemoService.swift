import Foundation
import ListenUpAPI
import Logging

/// One HTTP request as the demo server sees it.
struct DemoRequest: Sendable {
    var method: String
    var path: String
    var query: [String: String]
    var headers: [(String, String)]
    var body: Data

    func header(_ name: String) -> String? {
        headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
    }
}

/// One HTTP response.
struct DemoResponse: Sendable {
    var status: Int
    var contentType: String
    var body: Data
    var headers: [(String, String)] = []

    static func envelope<T: Encodable>(_ payload: T, status: Int = 200) -> DemoResponse {
        let body = (try? EnvelopeEncoder.success(payload)) ?? EnvelopeEncoder.failure(APIMessage.unexpected)
        return DemoResponse(status: status, contentType: "application/json", body: body)
    }

    static func failure(_ status: Int, _ message: String) -> DemoResponse {
        DemoResponse(status: status, contentType: "application/json", body: EnvelopeEncoder.failure(message))
    }

    static func text(_ status: Int, _ message: String) -> DemoResponse {
        DemoResponse(status: status, contentType: "text/plain; charset=utf-8", body: Data((message + "\n").utf8))
    }
}

/// A response can stand for a rejected request body in a `Result`.
extension DemoResponse: Error {}

/// The server's behaviour and state, independent of sockets: every request
/// goes through ``handle(_:)`` under one lock.
final class DemoService: Sendable {
    struct User {
        var id: String
        var email: String
        var password: String
        var firstName: String
        var lastName: String
        var isRoot: Bool
        var createdAt: Date
        var lastLoginAt: Date
        /// The name as given to kRPC `setupRoot`; nil: "first last".
        var displayName: String?

        /// The name users see.
        var shownName: String { displayName ?? "\(firstName) \(lastName)" }
    }

    struct SessionRecord {
        var id: String
        var userID: String
        var refreshToken: String
    }

    struct State {
        var users: [User] = []
        var sessions: [String: SessionRecord] = [:]
        /// access token → (user id, expiry)
        var accessTokens: [String: (userID: String, expires: Date)] = [:]
        var buckets: [String: (tokens: Double, updated: Date)] = [:]
        var requestCounts: [String: Int] = [:]
        var deletedBookIDs: [(id: String, at: Date)] = []
        var books: [SyncBook] = []
        /// Listening: events by id, progress per user and book.
        var listening = ListeningState()
        /// Test hooks for the audio route: a status to answer once, bytes
        /// after which the next response is cut.
        var audioRefusal: (status: Int, remaining: Int)?
        var audioCut: Int?
        /// Every audio request served, oldest first (at most ``DemoService/audioRequestsKept``).
        var audioRequests: [DemoServer.AudioRequest] = []
        /// Bytes per second each audio response is held to; nil: as fast as the socket goes.
        var audioRateLimit: Int?
        /// Revisions and recent writes of the library (the kRPC mode's sync).
        var ledger: DemoSyncLedger
    }

    let configuration: DemoServer.Configuration
    let instanceID: String
    let createdAt: Date
    /// The library now (tests change it through ``DemoServer``).
    var books: [SyncBook] { state.withLock { $0.books } }
    let state: Locked<State>
    let events = DemoEventHub()
    let logger: Logger

    /// Why `/api/v1/sync/events` is refused (the real server's text/plain
    /// 401), or nil to open the stream.
    func refuseEventStream(_ request: DemoRequest) -> DemoResponse? {
        state.withLock { $0.requestCounts[request.path, default: 0] += 1 }
        return bearer(request) == nil ? .text(401, "Unauthorized") : nil
    }

    init(configuration: DemoServer.Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        let now = Date()
        createdAt = now
        var random = SplitMix64(seed: configuration.seed)
        instanceID = "lib-" + Self.nanoID(&random)
        let generated = DemoLibrary(count: configuration.bookCount, seed: configuration.seed, now: now,
                                    chapterSeconds: configuration.chapterSeconds, payload: configuration.payload).books
        var initial = State(ledger: DemoSyncLedger(retention: configuration.krpc.eventRetention))
        initial.books = generated
        for book in generated { initial.ledger.seed(.books, id: book.id, row: .book(book), at: book.updatedAt) }
        initial.audioRateLimit = configuration.audioRateLimit.map { max(DemoServer.minimumAudioRateLimit, $0) }
        state = Locked(initial)
        if let admin = configuration.admin {
            state.withLock {
                $0.users.append(User(id: "user-" + Self.nanoID(&random), email: admin.email, password: admin.password,
                                     firstName: admin.firstName, lastName: admin.lastName, isRoot: true, createdAt: now, lastLoginAt: now))
            }
        }
    }

    static func nanoID(_ random: inout SplitMix64) -> String {
        let alphabet = Array("_-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        return String((0..<21).map { _ in alphabet[random.next(alphabet.count)] })
    }

    static func randomToken(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let data = Data((0..<bytes).map { _ in UInt8.random(in: 0...255, using: &generator) })
        return data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }

    // MARK: Routing

    func handle(_ request: DemoRequest) -> DemoResponse {
        state.withLock { $0.requestCounts[request.path, default: 0] += 1 }
        switch (request.method, request.path) {
        case ("GET", "/health"):
            return .envelope(["status": "healthy"])
        case ("GET", "/api/v1/instance"):
            return .envelope(instance())
        case ("POST", "/api/v1/auth/setup"):
            return setup(request)
        case ("POST", "/api/v1/auth/login"):
            return login(request)
        case ("POST", "/api/v1/auth/refresh"):
            return refresh(request)
        case ("POST", "/api/v1/auth/logout"):
            return logout(request)
        case ("GET", "/api/v1/users/me"):
            return authorized(request) { user in .envelope(self.userResponse(user)) }
        case ("GET", "/api/v1/library/status"):
            return authorized(request) { _ in
                .envelope(LibraryStatus(exists: true, library: nil, needsSetup: false, bookCount: self.books.count, isScanning: false))
            }
        case ("GET", "/api/v1/sync/books"):
            return authorized(request) { _ in self.syncBooks(request) }
        case ("GET", "/api/v1/books"):
            return authorized(request) { _ in self.listBooks(request) }
        case ("GET", _) where request.path.hasPrefix("/api/v1/covers/"):
            return cover(request)
        case ("POST", "/api/v1/listening/events"):
            return authorized(request) { user in self.listeningEvents(request, user: user) }
        case ("GET", "/api/v1/listening/progress"):
            return authorized(request) { user in self.progressList(request, user: user) }
        case ("GET", "/api/v1/listening/continue"):
            return authorized(request) { user in self.continueList(request, user: user) }
        case (_, _) where request.path.hasPrefix("/api/v1/books/") && request.path.contains("/progress"):
            return authorized(request) { user in self.bookProgress(request, user: user) }
        default:
            return .text(404, "404 page not found")
        }
    }

    private func instance() -> InstanceResponse {
        let setupRequired = state.withLock { !$0.users.contains { $0.isRoot } }
        return InstanceResponse(id: instanceID, name: configuration.serverName, version: "", localURL: "", remoteURL: nil,
                                openRegistration: false, createdAt: createdAt, updatedAt: createdAt, setupRequired: setupRequired)
    }

    // MARK: Auth

    private func setup(_ request: DemoRequest) -> DemoResponse {
        let body: SetupRequest
        switch decode(request, as: SetupRequest.self, required: ["email", "password", "first_name", "last_name"], optional: []) {
        case .failure(let response): return response
        case .success(let decoded): body = decoded
        }
        if let limited = rateLimit(request) { return limited }
        if state.withLock({ $0.users.contains { $0.isRoot } }) { return .failure(409, APIMessage.alreadyConfigured) }
        if let problem = validate(email: body.email, password: body.password) { return .failure(400, problem) }
        if body.firstName.isEmpty { return .failure(400, "first_name is required") }
        if body.lastName.isEmpty { return .failure(400, "last_name is required") }
        var random = SplitMix64(seed: UInt64.random(in: 0...UInt64.max))
        let user = User(id: "user-" + Self.nanoID(&random), email: body.email, password: body.password, firstName: body.firstName,
                        lastName: body.lastName, isRoot: true, createdAt: Date(), lastLoginAt: Date())
        state.withLock { $0.users.append(user) }
        return .envelope(startSession(for: user))
    }

    private func login(_ request: DemoRequest) -> DemoResponse {
        let body: LoginRequest
        switch decode(request, as: LoginRequest.self, required: ["email", "password"], optional: ["device_info"],
                      nested: ["device_info": Self.deviceInfoKeys]) {
        case .failure(let response): return response
        case .success(let decoded): body = decoded
        }
        if let limited = rateLimit(request) { return limited }
        guard body.deviceInfo?.isValidForLogin == true else { return .failure(400, APIMessage.deviceInfoRequired) }
        guard var user = state.withLock({ $0.users.first { $0.email.caseInsensitiveCompare(body.email) == .orderedSame } }),
              user.password == body.password else {
            return .failure(401, APIMessage.invalidCredentials)
        }
        user.lastLoginAt = Date()
        return .envelope(startSession(for: user))
    }

    private func refresh(_ request: DemoRequest) -> DemoResponse {
        let body: RefreshRequest
        switch decode(request, as: RefreshRequest.self, required: ["refresh_token"], optional: ["device_info"],
                      nested: ["device_info": Self.deviceInfoKeys]) {
        case .failure(let response): return response
        case .success(let decoded): body = decoded
        }
        if body.refreshToken.isEmpty { return .failure(400, "refresh_token is required") }
        let rotated: (AuthResponse)? = state.withLock { state in
            guard let session = state.sessions.values.first(where: { $0.refreshToken == body.refreshToken }),
                  let user = state.users.first(where: { $0.id == session.userID }) else { return nil }
            let newRefresh = Self.randomToken(bytes: 32)
            state.sessions[session.id]?.refreshToken = newRefresh
            let access = "v4.local." + Self.randomToken(bytes: 96)
            state.accessTokens[access] = (user.id, Date().addingTimeInterval(configuration.effectiveAccessTokenLifetime))
            return AuthResponse(accessToken: access, refreshToken: newRefresh, sessionID: session.id,
                                expiresIn: Int(configuration.effectiveAccessTokenLifetime), user: userResponse(user))
        }
        guard let rotated else { return .failure(401, APIMessage.invalidRefreshToken) }
        return .envelope(rotated)
    }

    private func logout(_ request: DemoRequest) -> DemoResponse {
        switch decode(request, as: LogoutRequest.self, required: ["session_id"], optional: []) {
        case .failure(let response): return response
        case .success(let body):
            state.withLock { _ = $0.sessions.removeValue(forKey: body.sessionID) }
            return .envelope(MessageResponse(message: APIMessage.loggedOut))
        }
    }

    private func startSession(for user: User) -> AuthResponse {
        var random = SplitMix64(seed: UInt64.random(in: 0...UInt64.max))
        let session = SessionRecord(id: "session-" + Self.nanoID(&random), userID: user.id, refreshToken: Self.randomToken(bytes: 32))
        let access = "v4.local." + Self.randomToken(bytes: 96)
        state.withLock {
            $0.sessions[session.id] = session
            $0.accessTokens[access] = (user.id, Date().addingTimeInterval(configuration.effectiveAccessTokenLifetime))
        }
        return AuthResponse(accessToken: access, refreshToken: session.refreshToken, sessionID: session.id,
                            expiresIn: Int(configuration.effectiveAccessTokenLifetime), user: userResponse(user))
    }

    func userResponse(_ user: User) -> UserResponse {
        UserResponse(id: user.id, email: user.email, displayName: user.shownName, firstName: user.firstName,
                     lastName: user.lastName, isRoot: user.isRoot, createdAt: user.createdAt, updatedAt: user.createdAt,
                     lastLoginAt: user.lastLoginAt, avatarColor: "#82B6C9")
    }

    private func validate(email: String, password: String) -> String? {
        if email.isEmpty { return "email is required" }
        let parts = email.split(separator: "@")
        if parts.count != 2 || !parts[1].contains(".") { return "email must be a valid email address" }
        if password.count < 8 { return "password must be at least 8 characters" }
        if password.count > 1024 { return "password exceeds maximum length of 1024 characters" }
        return nil
    }

    /// The bearer's user, if the token is valid and current.
    func bearer(_ request: DemoRequest) -> User? {
        guard let header = request.header("Authorization"), header.hasPrefix("Bearer ") else { return nil }
        let token = String(header.dropFirst("Bearer ".count))
        return state.withLock { state in
            guard let entry = state.accessTokens[token], entry.expires > Date() else { return nil }
            return state.users.first { $0.id == entry.userID }
        }
    }

    func authorized(_ request: DemoRequest, _ body: (User) -> DemoResponse) -> DemoResponse {
        guard let user = bearer(request) else { return .failure(401, APIMessage.authenticationRequired) }
        return body(user)
    }

    /// Token bucket per client key: burst 10, one token every 3 s.
    private func rateLimit(_ request: DemoRequest) -> DemoResponse? {
        let key = request.header("X-Forwarded-For").map { String($0.split(separator: ",").first ?? "") }
            ?? request.header("X-Real-IP") ?? "unknown"
        let refill = max(0.001, configuration.authAttemptRefill)
        let allowed: Bool = state.withLock { state in
            let now = Date()
            var bucket = state.buckets[key] ?? (tokens: 10, updated: now)
            bucket.tokens = min(10, bucket.tokens + now.timeIntervalSince(bucket.updated) / refill)
            bucket.updated = now
            let ok = bucket.tokens >= 1
            if ok { bucket.tokens -= 1 }
            state.buckets[key] = bucket
            return ok
        }
        return allowed ? nil : .failure(429, APIMessage.rateLimited)
    }

    // MARK: Books

    private func syncBooks(_ request: DemoRequest) -> DemoResponse {
        let limit = Int(request.query["limit"] ?? "50") ?? -1
        guard (1...500).contains(limit) else { return .failure(422, "expected number <= 500 (query.limit: \(request.query["limit"] ?? ""))") }
        var source = books
        var deleted: [String]?
        var isFirstPage = true
        if let cursor = request.query["cursor"] {
            isFirstPage = false
            _ = cursor
        }
        if let after = request.query["updated_after"] {
            guard let date = RFC3339.date(from: after) else { return .failure(400, "invalid updated_after format, expected RFC3339") }
            source = source.filter { $0.updatedAt > date }.sorted { $0.updatedAt < $1.updatedAt }
            if isFirstPage { deleted = state.withLock { $0.deletedBookIDs.filter { $0.at > date }.map(\.id) } }
        }
        guard let start = Self.cursorIndex(request.query["cursor"]) else { return .failure(500, APIMessage.unexpected) }
        let page = Array(source.dropFirst(start).prefix(limit))
        let end = start + page.count
        let more = end < source.count
        return .envelope(SyncBooksResponse(nextCursor: more ? Self.cursor(end) : nil, books: page,
                                           deletedBookIDs: deleted.flatMap { $0.isEmpty ? nil : $0 }, hasMore: more))
    }

    private func listBooks(_ request: DemoRequest) -> DemoResponse {
        let limit = Int(request.query["limit"] ?? "50") ?? -1
        guard (1...100).contains(limit) else { return .failure(422, "expected number <= 100 (query.limit: \(request.query["limit"] ?? ""))") }
        guard let start = Self.cursorIndex(request.query["cursor"]) else { return .failure(500, APIMessage.unexpected) }
        let page = Array(books.dropFirst(start).prefix(limit))
        let end = start + page.count
        return .envelope(ListBooksResponse(
            items: page.map { BookResponse(id: $0.id, title: $0.title, duration: $0.totalDuration, size: $0.totalSize,
                                           audioFiles: $0.audioFiles.map { file in
                                               BookResponse.File(id: file.id, path: file.path, duration: file.duration, size: file.size,
                                                                 format: file.format, codec: file.codec ?? "", bitrate: file.bitrate ?? 0)
                                           },
                                           createdAt: $0.createdAt, updatedAt: $0.updatedAt) },
            total: books.count, nextCursor: end < books.count ? Self.cursor(end) : nil))
    }

    /// The cursor is base64 (padded) of the decimal start index.
    static func cursor(_ index: Int) -> String {
        Data(String(index).utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }

    static func cursorIndex(_ cursor: String?) -> Int? {
        guard let cursor else { return 0 }
        let standard = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard let data = Data(base64Encoded: standard), let index = Int(String(decoding: data, as: UTF8.self)), index >= 0 else { return nil }
        return index
    }

    private func cover(_ request: DemoRequest) -> DemoResponse {
        guard bearer(request) != nil else { return .text(401, "authentication required") }
        let id = String(request.path.dropFirst("/api/v1/covers/".count))
        guard books.contains(where: { $0.id == id }) else { return .text(404, "cover not found") }
        // Like the real server: always labelled image/jpeg, whatever the bytes are.
        return DemoResponse(status: 200, contentType: "image/jpeg", body: DemoLibrary.cover(for: id),
                            headers: [("Cache-Control", "public, max-age=86400")])
    }

    // MARK: Strict bodies

    /// Checks the body like huma does, then decodes it.
    func decode<T: Decodable>(_ request: DemoRequest, as type: T.Type, required: [String], optional: [String],
                                      nested: [String: [String]] = [:]) -> Result<T, DemoResponse> {
        guard let contentType = request.header("Content-Type"),
              contentType.lowercased().hasPrefix("application/json") else {
            return .failure(.failure(415, APIMessage.validationFailed))
        }
        guard !request.body.isEmpty else { return .failure(.failure(400, APIMessage.bodyRequired)) }
        guard let object = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any] else {
            return .failure(.failure(400, APIMessage.validationFailed))
        }
        let known = Set((required + optional).map { $0.lowercased() })
        var problems: [String] = []
        for key in required where !object.keys.contains(where: { $0.lowercased() == key }) {
            problems.append("expected required property \(key) to be present (body: \(Self.goMap(object)))")
        }
        for key in object.keys.sorted() where !known.contains(key.lowercased()) {
            problems.append("unexpected property (body.\(key): \(Self.goMap(object)))")
        }
        for (parent, allowed) in nested {
            guard let child = object.first(where: { $0.key.lowercased() == parent })?.value as? [String: Any] else { continue }
            for key in child.keys.sorted() where !allowed.contains(key.lowercased()) {
                problems.append("unexpected property (body.\(parent).\(key): \(Self.goMap(child)))")
            }
        }
        guard problems.isEmpty else { return .failure(.failure(422, problems.joined(separator: "; "))) }
        // Huma matches keys case-insensitively: normalise before decoding.
        var normalised: [String: Any] = [:]
        for (key, value) in object { normalised[key.lowercased()] = value }
        guard let data = try? JSONSerialization.data(withJSONObject: normalised),
              let decoded = try? ListenUpJSON.decoder.decode(T.self, from: data) else {
            return .failure(.failure(422, "expected string"))
        }
        return .success(decoded)
    }

    /// Go's `%v` of a parsed body, as huma echoes it in 422 messages.
    static func goMap(_ object: [String: Any]) -> String {
        "map[" + object.keys.sorted().map { key in
            let value = object[key]
            if let nested = value as? [String: Any] { return "\(key):\(goMap(nested))" }
            return "\(key):\(value.map { "\($0)" } ?? "")"
        }.joined(separator: " ") + "]"
    }
}

extension DemoService {
    /// The keys `device_info` may hold (any other is a 422).
    static var deviceInfoKeys: [String] {
        ["device_type", "platform", "platform_version", "client_name", "client_version", "client_build",
         "device_name", "device_model", "browser_name", "browser_version"]
    }
}

/// A value behind a lock.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only touched inside `withLock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }
}
