import DemoServer
import Foundation
import ListenUpAPI
import ListenUpTestSupport
import Testing
@testable import ListenUpCore
@testable import ListenUpLive

/// The demo server's controls for the download tests: every audio request
/// recorded and reported (what `--report-audio` prints), audio slowed down,
/// and a server that comes back on its port.
@Suite("Demo server: audio requests, rate limit and restart")
struct DemoAudioRequestsTests {
    let logs = LogCapture()

    /// A REST server with small books, the admin signed in, and the first file of the first book.
    func signedIn(observer: (@Sendable (DemoServer.AudioRequest) -> Void)? = nil)
        async throws -> (server: DemoServer, url: URL, token: String, book: ServerBook, file: ServerBook.AudioFile) {
        var configuration = DemoServer.Configuration()
        configuration.bookCount = 1
        configuration.chapterSeconds = 2
        configuration.admin = .init(email: "ada@example.com", password: "analytical-engine")
        configuration.audioRequestObserver = observer
        // Its own address: a test starts the server again on its port.
        configuration.host = Loopback.privateAddress()
        let server = DemoServer(configuration: configuration, logger: logs.logger)
        try await server.start()
        let url = try #require(server.baseURL)
        let client = APIClient(baseURL: url, session: nil, transport: .live, sessions: .inMemory(),
                               deviceInfo: DeviceInfo(deviceType: "desktop", platform: "Linux"), logger: logs.logger)
        let session = try await client.login(email: "ada@example.com", password: "analytical-engine")
        let signed = APIClient(baseURL: url, session: session, transport: .live, sessions: .inMemory([session]),
                               deviceInfo: DeviceInfo(deviceType: "desktop", platform: "Linux"), logger: logs.logger)
        let book = try #require(try await signed.syncBooks(limit: 10, cursor: nil, updatedAfter: nil).books.first)
        return (server, url, session.accessToken, book, try #require(book.audioFiles.first))
    }

    func get(_ url: URL, token: String?, range: String? = nil) async throws -> HTTPResponse {
        var headers: [(name: String, value: String)] = []
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        if let range { headers.append(("Range", range)) }
        return try await HTTPTransport.live.send(HTTPRequest(method: "GET", url: url, headers: headers), .seconds(30), 16 << 20)
    }

    @Test func everyAudioRequestIsRecordedWithItsRangeAndStatusAndReportedAsAJSONLine() async throws {
        let reported = LockedValue<[String]>([])
        let demo = try await signedIn { request in reported.withLock { $0.append(request.jsonLine) } }
        defer { Task { await demo.server.stop() } }
        let audio = demo.url.appendingPathComponent("api/v1/audio/\(demo.book.id)/\(demo.file.id)")

        #expect(try await get(audio, token: demo.token).status == 200)
        #expect(try await get(audio, token: demo.token, range: "bytes=1000-").status == 206)
        #expect(try await get(audio, token: nil).status == 401)

        let requests = demo.server.audioRequests()
        #expect(requests.map(\.range) == [nil, "bytes=1000-", nil])
        #expect(requests.map(\.status) == [200, 206, 401])
        #expect(requests.allSatisfy { $0.bookID == demo.book.id && $0.fileID == demo.file.id && $0.method == "GET" })
        #expect(requests.first?.path == "/api/v1/audio/\(demo.book.id)/\(demo.file.id)")
        let lines = reported.value.map { line in (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] }
        #expect(lines.count == 3)
        #expect(lines.map { $0?["event"] as? String } == ["audio", "audio", "audio"])
        #expect(lines.map { $0?["range"] as? String } == [nil, "bytes=1000-", nil])
        #expect(lines.map { $0?["range"] is NSNull } == [true, false, true], "a whole-file request reports range null")
        #expect(lines.map { $0?["status"] as? Int } == [200, 206, 401])
        #expect(lines.allSatisfy { $0?["bookId"] as? String == demo.book.id && $0?["fileId"] as? String == demo.file.id })
    }

    @Test func aRateLimitHoldsEachResponseToItsBytesPerSecond() async throws {
        let demo = try await signedIn()
        defer { Task { await demo.server.stop() } }
        let audio = demo.url.appendingPathComponent("api/v1/audio/\(demo.book.id)/\(demo.file.id)")
        let rate = Int(demo.file.size) * 2   // half a second for the file
        demo.server.setAudioRateLimit(rate)
        let clock = ContinuousClock()
        let start = clock.now
        let response = try await get(audio, token: demo.token)
        let elapsed = clock.now - start
        #expect(response.status == 200)
        #expect(Int64(response.body.count) == demo.file.size)
        // A lower bound only: a busy machine makes it slower, never faster.
        #expect(elapsed >= .milliseconds(400), "the body took \(elapsed)")

        demo.server.setAudioRateLimit(nil)
        #expect(try await get(audio, token: demo.token).body.count == response.body.count)
    }

    @Test func aServerStartedAgainListensOnItsPortWithItsState() async throws {
        let demo = try await signedIn()
        defer { Task { await demo.server.stop() } }
        let audio = demo.url.appendingPathComponent("api/v1/audio/\(demo.book.id)/\(demo.file.id)")
        await demo.server.stop()
        await #expect(throws: TransportError.self) { try await get(audio, token: demo.token) }

        let port = try await demo.server.start()
        #expect(port == demo.url.port)
        #expect(try await get(audio, token: demo.token).status == 200, "the session is still valid")
    }
}
