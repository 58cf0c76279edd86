import DemoServer
import Foundation
import Logging
import Testing
@testable import ListenUpCore
@testable import ListenUpLive
import ListenUpTestSupport

/// Which generation a server is, found while verifying it: REST v1 first,
/// then kRPC (`/healthz`, `getServerInfo`), against the demo server in each
/// protocol and against things that are neither.
@Suite("Server verification finds the server generation")
struct ServerGenerationTests {
    let logs = LogCapture()

    private func verifier(probe: KRPCServerInfoProbe? = nil, timeout: Duration = .seconds(5)) -> ServerVerifier {
        ServerVerifier.live(transport: .live, logger: logs.logger, timeout: timeout,
                            krpcServerInfo: probe ?? KRPCServerProbe.live(logger: logs.logger))
    }

    private func address(_ url: URL) -> ServerAddress {
        ServerAddress(candidates: [url], schemeWasTyped: true, hostKind: .ipv4)
    }

    private func demo(_ wire: DemoProtocol) async throws -> (DemoServer, URL) {
        var configuration = DemoServer.Configuration()
        configuration.bookCount = 1
        configuration.protocol = wire
        let server = DemoServer(configuration: configuration, logger: logs.logger)
        try await server.start()
        let url = try #require(server.baseURL)
        return (server, url)
    }

    @Test func aKRPCServerIsVerifiedAsKRPC() async throws {
        let (server, url) = try await demo(.krpc)
        defer { Task { await server.stop() } }
        let verified = try await verifier().verify(address(url)).get()
        #expect(verified.generation == .krpc)
        #expect(verified.setupRequired)
        #expect(verified.instanceID == server.instanceID)
        #expect(verified.name == "ListenUp Demo")
        #expect(verified.url == url)
        #expect(server.requestCount("/healthz") == 1)
        #expect(server.requestCount("InstanceService.getServerInfo") == 1)
        #expect(KnownServer(verified).generation == .krpc)
    }

    @Test func aRESTServerIsVerifiedAsRESTWithoutAKRPCProbe() async throws {
        let (server, url) = try await demo(.rest)
        defer { Task { await server.stop() } }
        let probes = LockedValue(0)
        let verified = try await verifier(probe: { _, _ in
            probes.withLock { $0 += 1 }
            return .failure(.unreachable)
        }).verify(address(url)).get()
        #expect(verified.generation == .restV1)
        #expect(verified.instanceID == server.instanceID)
        #expect(probes.value == 0)
        #expect(server.requestCount("/healthz") == 0)
    }

    @Test func somethingThatIsNeitherIsNotListenUp() async throws {
        let page = HostileServer.Behavior.respond(status: 200, contentType: "text/html", body: Data("<!doctype html><title>NAS</title>".utf8))
        let server = try await HostileServer.start { _ in page }
        defer { Task { await server.stop() } }
        let outcome = await verifier().verify(address(server.baseURL))
        guard case .failure(.notListenUp) = outcome else {
            Issue.record("expected notListenUp, got \(outcome)")
            return
        }
        #expect(server.requests.map(\.path) == ["/api/v1/instance", "/healthz"])
    }

    @Test func aHealthyAnswerWithoutKRPCIsNotListenUp() async throws {
        let healthy = HostileServer.Behavior.respond(status: 200, contentType: "application/json", body: Data(#"{"status":"ok"}"#.utf8))
        let server = try await HostileServer.start { request in
            request.path == "/healthz" ? healthy : .respond(status: 404, contentType: "text/plain", body: Data("not found".utf8))
        }
        defer { Task { await server.stop() } }
        let outcome = await verifier(timeout: .seconds(3)).verify(address(server.baseURL))
        guard case .failure(.notListenUp) = outcome else {
            Issue.record("expected notListenUp, got \(outcome)")
            return
        }
    }

    @Test func aKRPCServerOfAnotherAPIVersionIsRefusedPlainly() async throws {
        let healthy = HostileServer.Behavior.respond(status: 200, contentType: "application/json", body: Data(#"{"status":"ok"}"#.utf8))
        let server = try await HostileServer.start { request in
            request.path == "/healthz" ? healthy : .respond(status: 404, contentType: "application/json", body: Data("{}".utf8))
        }
        defer { Task { await server.stop() } }
        let outcome = await verifier(probe: { _, _ in
            .success(ServerInstanceInfo(name: "Future", version: "2.0.0", apiVersion: "v2", instanceID: "i-1", setupRequired: false))
        }).verify(address(server.baseURL))
        #expect(outcome == .failure(.unsupportedAPIVersion("v2")))
        let message = ServerVerificationError.unsupportedAPIVersion("v2").userMessage(for: server.baseURL)
        #expect(message.contains("v2") && message.contains("Update the app"))
        #expect(ServerVerificationError.unsupportedAPIVersion("v2").code == "unsupportedAPIVersion")
    }

    @Test func anUnreachableAddressIsNotProbedForKRPC() async throws {
        let probes = LockedValue(0)
        let outcome = await verifier(probe: { _, _ in
            probes.withLock { $0 += 1 }
            return .failure(.unreachable)
        }).verify(address(try #require(URL(string: "http://127.0.0.1:9"))))
        #expect(outcome == .failure(.unreachable))
        #expect(probes.value == 0)
    }

    @Test func theKRPCSocketURLFollowsTheBaseURL() throws {
        let base = try #require(URL(string: "https://books.example.org/listenup/"))
        #expect(KRPCEndpoints.socketURL(base: base, mount: .authed)?.absoluteString == "wss://books.example.org/listenup/api/rpc/authed")
        let plain = try #require(URL(string: "http://127.0.0.1:8080"))
        #expect(KRPCEndpoints.socketURL(base: plain, mount: .public)?.absoluteString == "ws://127.0.0.1:8080/api/rpc/public")
        #expect(KRPCEndpoints.absolute("/api/v1/audio/b/f?u=1&sig=x", base: base)?.absoluteString
                == "https://books.example.org/listenup/api/v1/audio/b/f?u=1&sig=x")
    }
}
