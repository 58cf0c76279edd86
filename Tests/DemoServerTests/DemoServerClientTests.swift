import DemoServer
import Foundation
import ListenUpAPI
import ListenUpTestSupport
import Testing
@testable import ListenUpCore
@testable import ListenUpLive

/// The real client against the real demo server over loopback.
@Suite("APIClient against the demo server")
struct DemoServerClientTests {
    let logs = LogCapture()
    static let device = DeviceInfo(deviceType: "desktop", platform: "Linux", clientName: "tests")

    func startServer(books: Int = 25, admin: Bool = false) async throws -> (DemoServer, URL) {
        var configuration = DemoServer.Configuration()
        configuration.bookCount = books
        // Tests here count attempts: none may come back mid-test.
        configuration.rateLimitsRefill = false
        if admin { configuration.admin = .init(email: "ada@example.com", password: "analytical-engine") }
        let server = DemoServer(configuration: configuration, logger: logs.logger)
        try await server.start()
        return (server, try #require(server.baseURL))
    }

    func client(_ url: URL, sessions: SessionStore = .inMemory(), session: StoredSession? = nil) -> APIClient {
        APIClient(baseURL: url, session: session, transport: .live, sessions: sessions, deviceInfo: Self.device, logger: logs.logger)
    }

    @Test func setupThenSignInThenTheWholeLibrary() async throws {
        let (server, url) = try await startServer(books: 430)
        defer { Task { await server.stop() } }
        let verified = try await ServerVerifier.live(transport: .live, logger: logs.logger)
            .verify(try ServerAddress.parse(url.absoluteString).get()).get()
        #expect(verified.setupRequired)
        #expect(verified.instanceID == server.instanceID)

        let sessions = SessionStore.inMemory()
        let admin = try await client(url, sessions: sessions).setupAdmin(firstName: "Ada", lastName: "Lovelace",
                                                                         email: "ada@example.com", password: "analytical-engine")
        #expect(admin.displayName == "Ada Lovelace")
        #expect(await sessions.load(url) == admin)

        let signedIn = client(url, sessions: sessions)
        let session = try await signedIn.login(email: "ada@example.com", password: "analytical-engine")
        #expect(session.sessionID != admin.sessionID)

        var cursor: String?
        var ids: [String] = []
        repeat {
            let page = try await signedIn.authorized(.syncBooks(limit: 200, cursor: cursor))
            ids += page.books.map(\.id)
            cursor = page.hasMore ? page.nextCursor : nil
        } while cursor != nil
        #expect(ids.count == 430)
        #expect(Set(ids).count == 430, "no duplicates across pages")
    }

    @Test func setupTwiceIsAConflict() async throws {
        let (server, url) = try await startServer(admin: true)
        defer { Task { await server.stop() } }
        await #expect(throws: ServerError.server(status: 409, message: APIMessage.alreadyConfigured)) {
            _ = try await client(url).setupAdmin(firstName: "Eve", lastName: "X", email: "eve@example.com", password: "12345678")
        }
    }

    @Test func wrongPasswordAndRateLimit() async throws {
        let (server, url) = try await startServer(admin: true)
        defer { Task { await server.stop() } }
        var errors: [ServerError] = []
        for _ in 0..<11 {
            do {
                _ = try await client(url).login(email: "ada@example.com", password: "wrong-password")
            } catch {
                errors.append(error)
            }
        }
        #expect(errors.prefix(10).allSatisfy { $0 == .server(status: 401, message: APIMessage.invalidCredentials) })
        #expect(errors.last == .rateLimited)
        #expect(errors.last?.userMessage.contains("Wait a minute") == true)
        #expect(!logs.text.contains("wrong-password"), "a password reached the log")
    }

    @Test func tenConcurrent401sCauseOneRefresh() async throws {
        let (server, url) = try await startServer(admin: true)
        defer { Task { await server.stop() } }
        let sessions = SessionStore.inMemory()
        let api = client(url, sessions: sessions)
        let first = try await api.login(email: "ada@example.com", password: "analytical-engine")
        server.expireAccessTokens()
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<10 {
                group.addTask { (try? await api.authorized(.libraryStatus)) != nil }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 10))
        #expect(server.requestCount("/api/v1/auth/refresh") == 1)
        let renewed = try #require(await api.currentSession)
        #expect(renewed.refreshToken != first.refreshToken, "refresh rotates the refresh token")
        #expect(await sessions.load(url) == renewed, "the rotated tokens are saved")
        for secret in [first.accessToken, first.refreshToken, renewed.accessToken, renewed.refreshToken, "analytical-engine"] {
            #expect(!logs.text.contains(secret), "a secret reached the log")
        }
    }

    @Test func aShortTokenLifetimeExpiresAndIsRefreshed() async throws {
        var configuration = DemoServer.Configuration()
        configuration.bookCount = 3
        configuration.admin = .init(email: "ada@example.com", password: "analytical-engine")
        configuration.accessTokenLifetime = 2
        let server = DemoServer(configuration: configuration, logger: logs.logger)
        try await server.start()
        let url = try #require(server.baseURL)
        defer { Task { await server.stop() } }
        let api = client(url)
        let session = try await api.login(email: "ada@example.com", password: "analytical-engine")
        #expect(session.accessExpiresAt.timeIntervalSinceNow < 3)
        try await Task.sleep(for: .milliseconds(2200))
        let page = try await api.authorized(.books(limit: 2))
        #expect(page.items.count == 2 && page.total == 3 && page.nextCursor != nil)
        #expect(server.requestCount("/api/v1/auth/refresh") == 1)
    }

    @Test func aRefusedRefreshEndsTheSession() async throws {
        let (server, url) = try await startServer(admin: true)
        defer { Task { await server.stop() } }
        let sessions = SessionStore.inMemory()
        let api = client(url, sessions: sessions)
        _ = try await api.login(email: "ada@example.com", password: "analytical-engine")
        let lapsed = LockedValue(false)
        await api.onSessionLapsed { lapsed.value = true }
        server.revokeAllSessions()
        await #expect(throws: ServerError.sessionLapsed) { _ = try await api.authorized(.libraryStatus) }
        #expect(lapsed.value)
        #expect(await sessions.load(url) == nil, "the dead session is wiped")
    }

    @Test func logoutEndsTheSessionOnTheServerAndHere() async throws {
        let (server, url) = try await startServer(admin: true)
        defer { Task { await server.stop() } }
        let sessions = SessionStore.inMemory()
        let api = client(url, sessions: sessions)
        let session = try await api.login(email: "ada@example.com", password: "analytical-engine")
        await api.logout()
        #expect(await sessions.load(url) == nil)
        // The refresh token is dead on the server too.
        let other = client(url, session: session)
        server.expireAccessTokens()
        await #expect(throws: ServerError.sessionLapsed) { _ = try await other.authorized(.libraryStatus) }
    }

    @Test func aBearerTokenNeverFollowsARedirectToAnotherOrigin() async throws {
        let (server, url) = try await startServer(admin: true)
        defer { Task { await server.stop() } }
        let session = try await client(url).login(email: "ada@example.com", password: "analytical-engine")
        // A server that sends every request on to the demo server (another origin).
        let redirector = try await HostileServer.start { request in
            .respond(status: 307, contentType: "text/plain", body: Data(), headers: [("Location", url.absoluteString + request.path)])
        }
        defer { Task { await redirector.stop() } }
        var moved = session
        moved.serverURL = redirector.baseURL
        let api = client(redirector.baseURL, session: moved)
        let before = server.requestCount("/api/v1/library/status")
        await #expect(throws: ServerError.redirectRefused(to: url.absoluteString + "/api/v1/library/status")) {
            _ = try await api.authorized(.libraryStatus)
        }
        #expect(server.requestCount("/api/v1/library/status") == before, "nothing reached the other origin")
    }

    @Test func theServerIsStrictLikeTheRealOne() async throws {
        let (server, url) = try await startServer()
        defer { Task { await server.stop() } }
        func post(_ path: String, _ body: String, contentType: String = "application/json") async throws -> HTTPResponse {
            try await HTTPTransport.live.send(HTTPRequest(method: "POST", url: url.appendingPathComponent(path),
                                                          headers: [("Content-Type", contentType)], body: Data(body.utf8)), .seconds(5), 1 << 20)
        }
        let unknown = try await post("/api/v1/auth/login", #"{"email":"a@b.co","password":"x","remember_me":true}"#)
        #expect(unknown.status == 422)
        let noDevice = try await post("/api/v1/auth/login", #"{"email":"a@b.co","password":"x"}"#)
        #expect(noDevice.status == 400)
        #expect(try APIEnvelope.decode(noDevice.body, as: AuthResponse.self) == .failure(APIFailure(message: APIMessage.deviceInfoRequired)))
        let deviceOnSetup = try await post("/api/v1/auth/setup", #"{"email":"a@b.co","password":"12345678","first_name":"A","last_name":"B","device_info":{}}"#)
        #expect(deviceOnSetup.status == 422)
        #expect(try await post("/api/v1/auth/login", "{}", contentType: "text/plain").status == 415)
        #expect(try await post("/api/v1/auth/login", "{nope").status == 400)
        #expect(try await post("/api/v1/auth/login", String(repeating: "x", count: 1_100_000)).status == 413)
        let missing = try await HTTPTransport.live.send(HTTPRequest(method: "GET", url: url.appendingPathComponent("/nowhere")), .seconds(5), 1024)
        #expect(missing.status == 404 && String(decoding: missing.body, as: UTF8.self) == "404 page not found\n")
        let noToken = try await HTTPTransport.live.send(HTTPRequest(method: "GET", url: url.appendingPathComponent("/api/v1/library/status")), .seconds(5), 1024)
        #expect(noToken.status == 401)
    }

    @Test func coversArePNGBytesLabelledJPEG() async throws {
        let (server, url) = try await startServer(books: 3, admin: true)
        defer { Task { await server.stop() } }
        let session = try await client(url).login(email: "ada@example.com", password: "analytical-engine")
        let page = try await client(url, session: session).authorized(.syncBooks(limit: 10))
        let id = try #require(page.books.first?.id)
        let response = try await HTTPTransport.live.send(
            HTTPRequest(method: "GET", url: url.appendingAPIPath(RawEndpoint.cover(bookID: id)), headers: [("Authorization", "Bearer \(session.accessToken)")]),
            .seconds(5), 1 << 22)
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "image/jpeg")
        #expect(Array(response.body.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let anonymous = try await HTTPTransport.live.send(HTTPRequest(method: "GET", url: url.appendingAPIPath(RawEndpoint.cover(bookID: id))), .seconds(5), 1024)
        #expect(anonymous.status == 401)
    }
}
