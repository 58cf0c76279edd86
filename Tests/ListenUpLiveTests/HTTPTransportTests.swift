import Foundation
import Testing
@testable import ListenUpCore
@testable import ListenUpLive
import ListenUpTestSupport

/// The live transport against a real loopback server that misbehaves.
@Suite("HTTPTransport.live against hostile servers")
struct HTTPTransportTests {
    let transport = HTTPTransport.live

    private func get(_ server: HostileServer, _ path: String = "/api/v1/instance", timeout: Duration = .seconds(5), limit: Int = 1 << 20) async throws -> HTTPResponse {
        try await transport.send(HTTPRequest(method: "GET", url: server.baseURL.appendingPathComponent(path)), timeout, limit)
    }

    private func failure(_ body: () async throws -> HTTPResponse) async -> TransportError? {
        do {
            _ = try await body()
            return nil
        } catch let error as TransportError {
            return error
        } catch {
            Issue.record("not a TransportError: \(error)")
            return nil
        }
    }

    @Test func completeResponseComesBackWithStatusHeadersAndBody() async throws {
        let server = try await HostileServer.start { _ in
            .respond(status: 200, contentType: "application/json", body: Data(#"{"v":1}"#.utf8), headers: [("X-Test", "yes")])
        }
        defer { Task { await server.stop() } }
        let response = try await get(server)
        #expect(response.status == 200)
        #expect(response.header("x-test") == "yes")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"v":1}"#)
        #expect(server.requests.first?.path == "/api/v1/instance")
    }

    @Test func redirectsAreHandedBackNotFollowed() async throws {
        let server = try await HostileServer.start { _ in
            .respond(status: 302, contentType: "text/plain", body: Data(), headers: [("Location", "http://203.0.113.9/api/v1/instance")])
        }
        defer { Task { await server.stop() } }
        let response = try await get(server)
        #expect(response.status == 302)
        #expect(response.isRedirect)
        #expect(server.requests.count == 1)
    }

    @Test func oversizedBodyStopsAtTheLimit() async throws {
        let server = try await HostileServer.start { _ in .hugeBody(bytes: 50 << 20) }
        defer { Task { await server.stop() } }
        let started = ContinuousClock.now
        let error = await failure { try await get(server, limit: 1 << 20) }
        #expect(error == .bodyTooLarge(limit: 1 << 20))
        // Generous: a busy CI machine is slow, and the error above is the check.
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test func slowDripTimesOut() async throws {
        let server = try await HostileServer.start { _ in .slowDrip(interval: .milliseconds(200)) }
        defer { Task { await server.stop() } }
        let started = ContinuousClock.now
        let error = await failure { try await get(server, timeout: .seconds(1)) }
        #expect(error == .timedOut)
        // The drip would take 200 s; a busy CI machine has taken 4.3 s to give up after 1.
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test func silentServerTimesOut() async throws {
        let server = try await HostileServer.start { _ in .silent }
        defer { Task { await server.stop() } }
        let error = await failure { try await get(server, timeout: .seconds(1)) }
        #expect(error == .timedOut)
    }

    @Test func truncatedBodyIsAnInvalidResponse() async throws {
        let server = try await HostileServer.start { _ in .truncated(announced: 500, sent: Data(#"{"v":1,"succ"#.utf8)) }
        defer { Task { await server.stop() } }
        let error = await failure { try await get(server) }
        #expect(error != nil)
        if case .invalidResponse = error {} else if case .unreachable = error {} else {
            Issue.record("unexpected \(String(describing: error))")
        }
    }

    @Test func resetConnectionIsUnreachable() async throws {
        let server = try await HostileServer.start { _ in .reset }
        defer { Task { await server.stop() } }
        let error = await failure { try await get(server) }
        guard case .unreachable = error else {
            Issue.record("expected unreachable, got \(String(describing: error))")
            return
        }
    }

    @Test func refusedConnectionIsUnreachable() async throws {
        let server = try await HostileServer.start { _ in .silent }
        let url = server.baseURL
        await server.stop()
        let error = await failure {
            try await transport.send(HTTPRequest(method: "GET", url: url), .seconds(5), 1024)
        }
        guard case .unreachable = error else {
            Issue.record("expected unreachable, got \(String(describing: error))")
            return
        }
    }

    @Test func selfSignedCertificateIsATLSFailure() async throws {
        let server = try await HostileServer.start(tls: try HostileServer.selfSignedTLS()) { _ in
            .respond(status: 200, contentType: "application/json", body: Data("{}".utf8))
        }
        defer { Task { await server.stop() } }
        let error = await failure { try await get(server) }
        guard case .tlsFailure = error else {
            Issue.record("expected tlsFailure, got \(String(describing: error))")
            return
        }
        #expect(server.requests.isEmpty, "no request may be sent over an untrusted connection")
    }

    @Test func httpsToAPlainServerIsATLSFailure() async throws {
        let server = try await HostileServer.start { _ in .respond(status: 200, contentType: "text/plain", body: Data()) }
        defer { Task { await server.stop() } }
        let url = URL(string: "https://127.0.0.1:\(server.port)/")!
        let error = await failure { try await transport.send(HTTPRequest(method: "GET", url: url), .seconds(5), 1024) }
        guard case .tlsFailure = error else {
            Issue.record("expected tlsFailure, got \(String(describing: error))")
            return
        }
    }
}
