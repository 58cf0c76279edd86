import Foundation
import Logging
import Testing
@testable import ListenUpCore
@testable import ListenUpLive
import ListenUpTestSupport

/// Server verification over the real network stack against loopback servers
/// that answer well, badly or not at all.
@Suite("ServerVerifier against real and hostile servers")
struct ServerVerifierTests {
    static let instance = #"{"v":1,"success":true,"data":{"id":"lib-CtCtqA_1YCrctMg6zrra6","name":"ListenUp Server","version":"","local_url":"http://192.168.1.20:8080","remote_url":"https://listen.example.com","open_registration":false,"created_at":"2026-04-28T16:20:05.118274301Z","updated_at":"2026-05-01T08:00:12.40927716Z","setup_required":false}}"# + "\n"
    static let setupRequired = #"{"v":1,"success":true,"data":{"id":"lib-Q8kFz3mP0xW7vN2cR5tYb","name":"ListenUp Server","version":"","local_url":"","open_registration":false,"created_at":"2026-05-02T09:14:33.52Z","updated_at":"2026-05-02T09:14:33.52Z","setup_required":true}}"# + "\n"

    let logs = LogCapture()

    private func verify(_ server: HostileServer, timeout: Duration = .seconds(5)) async -> Result<VerifiedServer, ServerVerificationError> {
        let address = ServerAddress(candidates: [server.baseURL], schemeWasTyped: true, hostKind: .ipv4)
        return await ServerVerifier.live(transport: .live, logger: logs.logger, timeout: timeout).verify(address)
    }

    private static func json(_ body: String, status: Int = 200) -> HostileServer.Behavior {
        .respond(status: status, contentType: "application/json", body: Data(body.utf8))
    }

    @Test func aListenUpServerIsVerified() async throws {
        let server = try await HostileServer.start { _ in Self.json(Self.instance) }
        defer { Task { await server.stop() } }
        let verified = try await verify(server).get()
        #expect(verified.instanceID == "lib-CtCtqA_1YCrctMg6zrra6")
        #expect(verified.name == "ListenUp Server")
        #expect(!verified.setupRequired)
        #expect(verified.url == server.baseURL)
        #expect(server.requests.first?.path == "/api/v1/instance")
    }

    @Test func aFreshServerNeedsSetup() async throws {
        let server = try await HostileServer.start { _ in Self.json(Self.setupRequired) }
        defer { Task { await server.stop() } }
        #expect(try await verify(server).get().setupRequired)
    }

    @Test func aPathPrefixIsKept() async throws {
        let server = try await HostileServer.start { _ in Self.json(Self.instance) }
        defer { Task { await server.stop() } }
        let base = server.baseURL.appendingPathComponent("listenup")
        let address = ServerAddress(candidates: [base], schemeWasTyped: true, hostKind: .ipv4)
        _ = await ServerVerifier.live(transport: .live, logger: logs.logger).verify(address)
        #expect(server.requests.first?.path == "/listenup/api/v1/instance")
    }

    static let notListenUp: [(String, HostileServer.Behavior)] = [
        ("HTML 200", .respond(status: 200, contentType: "text/html", body: Data("<!doctype html><title>Router</title>".utf8))),
        ("chi 404", .respond(status: 404, contentType: "text/plain; charset=utf-8", body: Data("404 page not found\n".utf8))),
        ("JSON without v", json(#"{"success":true,"data":{"id":"lib-x"}}"#)),
        ("v as a string", json(#"{"v":"1","success":true,"data":{"id":"lib-x"}}"#)),
        ("truncated JSON", json(#"{"v":1,"success":true,"data":{"id":"lib-"#)),
        ("empty body", json("")),
        ("error envelope", json(#"{"v":1,"success":false,"error":"Server instance configuration not found"}"#, status: 404)),
        ("success without data", json(#"{"v":1,"success":true}"#)),
        ("id not a string", json(#"{"v":1,"success":true,"data":{"id":7,"name":"x","setup_required":false}}"#)),
        ("body cut short", .truncated(announced: 400, sent: Data(#"{"v":1,"success":true,"data":{"#.utf8))),
        ("50 MB body", .hugeBody(bytes: 50 << 20)),
    ]

    @Test(arguments: notListenUp.map(\.0))
    func somethingElseIsNotAListenUpServer(_ name: String) async throws {
        let behavior = try #require(Self.notListenUp.first { $0.0 == name }?.1)
        let server = try await HostileServer.start { _ in behavior }
        defer { Task { await server.stop() } }
        // These servers answer at once; what must not happen is a wait for
        // the verifier's timeout. So the timeout is long and the bound is
        // the timeout: far past what the request takes on a loaded machine
        // (9 s seen, with two test processes side by side), where a fixed
        // 5 s bound failed.
        let timeout = Duration.seconds(30)
        let started = ContinuousClock.now
        let result = await verify(server, timeout: timeout)
        guard case .failure(.notListenUp) = result else {
            Issue.record("\(name): expected notListenUp, got \(result)")
            return
        }
        #expect(ContinuousClock.now - started < timeout, "\(name) waited for a timeout")
    }

    @Test func anotherAPIVersionIsUnsupported() async throws {
        let server = try await HostileServer.start { _ in Self.json(#"{"v":2,"success":true,"data":{"id":"lib-x","name":"x","setup_required":false}}"#) }
        defer { Task { await server.stop() } }
        #expect(await verify(server) == .failure(.unsupportedVersion(2)))
    }

    @Test func aServerErrorIsReportedAsSuch() async throws {
        let server = try await HostileServer.start { _ in .respond(status: 502, contentType: "text/html", body: Data("<h1>Bad Gateway</h1>".utf8)) }
        defer { Task { await server.stop() } }
        #expect(await verify(server) == .failure(.serverError(status: 502)))
    }

    @Test func aRedirectToAnotherHostIsNotFollowed() async throws {
        let server = try await HostileServer.start { _ in
            .respond(status: 301, contentType: "text/plain", body: Data(), headers: [("Location", "https://evil.example/api/v1/instance")])
        }
        defer { Task { await server.stop() } }
        #expect(await verify(server) == .failure(.redirected(to: "https://evil.example/api/v1/instance")))
        #expect(server.requests.count == 1)
    }

    @Test func aSlowDripTimesOut() async throws {
        let server = try await HostileServer.start { _ in .slowDrip(interval: .milliseconds(300)) }
        defer { Task { await server.stop() } }
        let started = ContinuousClock.now
        #expect(await verify(server, timeout: .seconds(1)) == .failure(.timedOut))
        // The drip would take 300 s; a busy CI machine has taken 3.1 s to give up after 1.
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test func aSelfSignedCertificateIsATLSFailure() async throws {
        let server = try await HostileServer.start(tls: try HostileServer.selfSignedTLS()) { _ in Self.json(Self.instance) }
        defer { Task { await server.stop() } }
        #expect(await verify(server) == .failure(.tlsFailure))
        #expect(server.requests.isEmpty)
    }

    @Test func aResetConnectionIsUnreachable() async throws {
        let server = try await HostileServer.start { _ in .reset }
        defer { Task { await server.stop() } }
        #expect(await verify(server) == .failure(.unreachable))
    }

    @Test func httpsFailingTLSFallsBackToHTTP() async throws {
        // A host name typed without a scheme: https first, then http.
        let server = try await HostileServer.start { _ in Self.json(Self.instance) }
        defer { Task { await server.stop() } }
        let https = try #require(URL(string: "https://127.0.0.1:\(server.port)"))
        let address = ServerAddress(candidates: [https, server.baseURL], schemeWasTyped: false, hostKind: .name)
        let verified = try await ServerVerifier.live(transport: .live, logger: logs.logger).verify(address).get()
        #expect(verified.url == server.baseURL)
    }

    @Test func aRefusedFirstCandidateFallsBackButAnHTMLAnswerDoesNot() async throws {
        let html = try await HostileServer.start { _ in .respond(status: 200, contentType: "text/html", body: Data("<html>".utf8)) }
        let good = try await HostileServer.start { _ in Self.json(Self.instance) }
        defer { Task { await html.stop(); await good.stop() } }
        let closed = try await HostileServer.start { _ in .silent }
        let closedURL = closed.baseURL
        await closed.stop()
        let verifier = ServerVerifier.live(transport: .live, logger: logs.logger)
        let fallback = await verifier.verify(ServerAddress(candidates: [closedURL, good.baseURL], schemeWasTyped: false, hostKind: .name))
        #expect(try fallback.get().url == good.baseURL)
        let stop = await verifier.verify(ServerAddress(candidates: [html.baseURL, good.baseURL], schemeWasTyped: false, hostKind: .name))
        guard case .failure(.notListenUp) = stop else {
            Issue.record("an answer that is not ListenUp must not fall back: \(stop)")
            return
        }
        #expect(good.requests.count == 1)
    }
}
