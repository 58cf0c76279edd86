import Foundation
import KRPCSession
import ListenUpCore
import ListenUpKRPC
import Logging
import WebSocketTransport

/// The kRPC half of server verification: `InstanceService.getServerInfo` on
/// a fresh public socket (§3.1), answered in the core's terms.
public enum KRPCServerProbe {
    /// The ``KRPCServerInfoProbe`` the composition root gives the verifier.
    /// - Parameter logger: connection events (frames at debug level, redacted).
    /// - Returns: a probe that opens one public socket per call and closes it.
    public static func live(logger: Logger) -> KRPCServerInfoProbe {
        { base, timeout in await serverInfo(base: base, timeout: timeout, logger: logger) }
    }

    /// Asks the server at `base` for its info within `timeout` (connect,
    /// handshake and call each bounded by it).
    /// - Returns: the info, or why not: a socket that cannot be opened is
    ///   unreachable (TLS failure, timeout alike); anything that opens but
    ///   does not answer as kRPC is not ListenUp.
    static func serverInfo(base: URL, timeout: Duration, logger: Logger) async -> Result<ServerInstanceInfo, ServerVerificationError> {
        guard let url = KRPCEndpoints.socketURL(base: base, mount: .public) else { return .failure(.notListenUp("no WebSocket URL")) }
        var socket = WebSocketConfiguration()
        socket.connectTimeout = timeout
        let configuration = KRPCSessionConfiguration(handshakeTimeout: timeout, callTimeout: timeout)
        do {
            let session = try await KRPCSession.connect(url: url, configuration: configuration,
                                                        client: WebSocketClient(configuration: socket, logger: logger), logger: logger)
            defer { Task { await session.close() } }
            switch try await session.call(.getServerInfo, arguments: NoArguments(), returning: ServerInfo.self) {
            case .success(let info):
                return .success(ServerInstanceInfo(name: info.name, version: info.version, apiVersion: info.apiVersion,
                                                   instanceID: info.instanceId, setupRequired: info.setupRequired))
            case .failure(let error):
                return .failure(.notListenUp("getServerInfo failed: \(error)"))
            }
        } catch let error as KRPCSessionError {
            return .failure(verificationError(error))
        } catch {
            return .failure(.unreachable)
        }
    }

    /// How a failed probe reads to the user.
    static func verificationError(_ error: KRPCSessionError) -> ServerVerificationError {
        switch error {
        // A socket that opens but whose handshake or call is never answered: a hung server.
        case .transport(.timedOut), .timedOut, .handshakeFailed: .timedOut
        case .transport(.tlsFailed): .tlsFailure
        case .transport(.connectionFailed), .transport(.connectionLost): .unreachable
        case .transport(.upgradeRejected(let status)) where status >= 500: .serverError(status: status)
        default: .notListenUp("\(error)")
        }
    }
}

/// Where a kRPC server's sockets and blobs are, from its HTTP base URL.
enum KRPCEndpoints {
    /// `ws(s)://host:port[/prefix]/api/rpc/{public|authed}` for `base`
    /// (`http` → `ws`, `https` → `wss`), keeping any path prefix.
    static func socketURL(base: URL, mount: KRPCMount) -> URL? {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else { return nil }
        switch components.scheme?.lowercased() {
        case "http": components.scheme = "ws"
        case "https": components.scheme = "wss"
        default: return nil
        }
        var path = components.path
        while path.hasSuffix("/") { path.removeLast() }
        components.path = path + mount.path
        components.query = nil
        return components.url
    }

    /// A server-relative URL (`/api/v1/audio/…?u=…`) made absolute on `base`,
    /// keeping any path prefix `base` has.
    static func absolute(_ relative: String, base: URL) -> URL? {
        if let url = URL(string: relative), url.scheme != nil { return url }
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text + (relative.hasPrefix("/") ? relative : "/" + relative))
    }
}
