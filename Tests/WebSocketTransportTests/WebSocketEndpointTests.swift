import Foundation
import Testing
@testable import WebSocketTransport

@Suite("WebSocketEndpoint")
struct WebSocketEndpointTests {
    private func endpoint(_ string: String) throws -> WebSocketEndpoint {
        try WebSocketEndpoint(url: #require(URL(string: string)))
    }

    @Test("ws and wss: host, default ports, request target, Host header")
    func parsesURLs() throws {
        let plain = try endpoint("ws://listenup.local:8080/api/rpc/authed")
        #expect(plain.host == "listenup.local" && plain.port == 8080 && !plain.usesTLS)
        #expect(plain.requestTarget == "/api/rpc/authed")
        #expect(plain.hostHeader == "listenup.local:8080")
        #expect(plain.serverNameIndication == "listenup.local")

        let secure = try endpoint("WSS://example.org?ticket=abc")
        #expect(secure.host == "example.org" && secure.port == 443 && secure.usesTLS)
        #expect(secure.requestTarget == "/?ticket=abc")
        #expect(secure.hostHeader == "example.org")
        #expect(secure.logDescription == "wss://example.org/")
    }

    @Test("IP literals: no SNI, brackets only in the Host header")
    func ipLiterals() throws {
        let v4 = try endpoint("wss://127.0.0.1:8443/x")
        #expect(v4.serverNameIndication == nil)
        let v6 = try endpoint("ws://[::1]:9000/x")
        #expect(v6.host == "::1")
        #expect(v6.hostHeader == "[::1]:9000")
        #expect(v6.serverNameIndication == nil)
    }

    @Test("other schemes and host-less URLs are refused", arguments: ["http://example.org/", "file:///tmp/x", "ws:///path"])
    func refusesOtherURLs(_ string: String) throws {
        #expect(throws: WebSocketTransportError.self) { try endpoint(string) }
    }

    @Test("the upgrade head carries the extra headers, Host, and no subprotocol or extension")
    func requestHead() throws {
        let head = try endpoint("ws://127.0.0.1:8080/api/rpc/public")
            .upgradeRequestHead(extraHeaders: [("Authorization", "Bearer t0k3n"), ("X-Client-Api", "v1")])
        #expect(head.method == .GET)
        #expect(head.uri == "/api/rpc/public")
        #expect(head.headers["Host"] == ["127.0.0.1:8080"])
        #expect(head.headers["Authorization"] == ["Bearer t0k3n"])
        #expect(head.headers["X-Client-Api"] == ["v1"])
        #expect(!head.headers.contains(name: "Sec-WebSocket-Protocol"))
        #expect(!head.headers.contains(name: "Sec-WebSocket-Extensions"))
    }

    @Test("reserved or malformed headers are refused, naming the header but not its value",
          arguments: [("Sec-WebSocket-Protocol", "krpc"), ("host", "evil"), ("Upgrade", "h2c"),
                      ("Authorization", "Bearer a\r\nX-Injected: 1"), ("Bad Name", "x")])
    func refusesHeaders(_ header: (String, String)) throws {
        let error = #expect(throws: WebSocketTransportError.self) {
            try endpoint("ws://127.0.0.1/").upgradeRequestHead(extraHeaders: [(header.0, header.1)])
        }
        guard case .invalidHeader(let name)? = error else { Issue.record("unexpected \(String(describing: error))"); return }
        #expect(!name.contains("Bearer"))
    }
}
