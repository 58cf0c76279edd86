import Foundation
import NIOCore
import NIOHTTP1

/// Where a `ws://` or `wss://` URL points, and the upgrade request to send
/// there. Pure; tested without a socket.
struct WebSocketEndpoint: Equatable, Sendable {
    /// Host name or IP literal (no brackets), for the TCP connection.
    var host: String
    var port: Int
    var usesTLS: Bool
    /// The request target: the percent-encoded path (at least "/") and query.
    var requestTarget: String

    /// Header names the handshake sets itself; callers may not pass them.
    static let reservedHeaderNames: Set<String> = [
        "host", "upgrade", "connection", "content-length", "transfer-encoding",
        "sec-websocket-key", "sec-websocket-version", "sec-websocket-protocol",
        "sec-websocket-extensions", "sec-websocket-accept",
    ]

    /// - Throws: ``WebSocketTransportError/invalidURL(_:)`` unless the scheme
    ///   is ws or wss and there is a host.
    init(url: URL) throws {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let scheme = components.scheme?.lowercased(), scheme == "ws" || scheme == "wss",
              let rawHost = components.host, !rawHost.isEmpty
        else { throw WebSocketTransportError.invalidURL(Self.redacted(url)) }
        usesTLS = scheme == "wss"
        host = rawHost.hasPrefix("[") && rawHost.hasSuffix("]") ? String(rawHost.dropFirst().dropLast()) : rawHost
        port = components.port ?? (usesTLS ? 443 : 80)
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        requestTarget = components.percentEncodedQuery.map { "\(path)?\($0)" } ?? path
    }

    /// True when ``host`` is an IPv4 or IPv6 literal.
    var hostIsIPAddress: Bool { (try? SocketAddress(ipAddress: host, port: 0)) != nil }

    /// The TLS server name: the host, unless it is an IP literal (SNI carries
    /// names only; the certificate is then checked against the address).
    var serverNameIndication: String? { hostIsIPAddress ? nil : host }

    /// The Host header: brackets around IPv6, the port unless it is the default.
    var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (usesTLS ? 443 : 80) ? name : "\(name):\(port)"
    }

    /// The endpoint for logs: scheme, host, port and path, never the query
    /// (it may carry a ticket).
    var logDescription: String {
        let path = requestTarget.split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
        return "\(usesTLS ? "wss" : "ws")://\(hostHeader)\(path)"
    }

    /// The GET request head before the upgrade handler adds `Connection`,
    /// `Upgrade` and `Sec-WebSocket-Key`/`-Version`. No subprotocol and no
    /// extension is ever offered.
    /// - Parameter extraHeaders: the caller's headers, e.g. `Authorization`.
    /// - Throws: ``WebSocketTransportError/invalidHeader(name:)`` for a
    ///   reserved name or bytes HTTP does not allow.
    func upgradeRequestHead(extraHeaders: [(name: String, value: String)]) throws -> HTTPRequestHead {
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: hostHeader)
        for header in extraHeaders {
            guard Self.isToken(header.name), !Self.reservedHeaderNames.contains(header.name.lowercased()),
                  !header.value.utf8.contains(where: { $0 == 0 || $0 == 0x0A || $0 == 0x0D })
            else { throw WebSocketTransportError.invalidHeader(name: Self.isToken(header.name) ? header.name : "(invalid name)") }
            headers.add(name: header.name, value: header.value)
        }
        return HTTPRequestHead(version: .http1_1, method: .GET, uri: requestTarget, headers: headers)
    }

    /// RFC 9110 `token`: the characters a header name may use.
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "A")...UInt8(ascii: "Z"):
                true
            default:
                "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }

    /// The URL without query, fragment or user info, for errors and logs.
    static func redacted(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "(unparsable URL)" }
        components.query = nil
        components.fragment = nil
        components.user = nil
        components.password = nil
        return components.string ?? "(unparsable URL)"
    }
}
