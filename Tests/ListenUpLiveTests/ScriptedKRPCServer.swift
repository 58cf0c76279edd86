import Foundation
import ListenUpCore
import ListenUpKRPC
import ListenUpTestSupport

/// A loopback kRPC server (127.0.0.1) that a test scripts call by call, on
/// top of ``ScriptedWebSocketServer``: `/healthz` and other plain HTTP on the
/// same port, both sockets (`/api/rpc/public`, `/api/rpc/authed`), the
/// server's Handshake answered (unless told not to), and every `CallData`
/// handed to the test's handler with what it needs to answer: an
/// `AppResult`, stream elements, raw frames, or a dropped connection.
final class ScriptedKRPCServer: Sendable {
    /// One call as received.
    struct Call: Sendable {
        /// The socket's path (`/api/rpc/public` or `/api/rpc/authed`).
        var path: String
        var data: KRPCCallData
        var method: String { data.method }
    }

    /// What the server does besides answering calls.
    struct Options: Sendable {
        /// Answer the client's Handshake (false: a socket that upgrades and then says nothing).
        var answersHandshake = true
        /// Runs when the client's Handshake arrives, before the answer (garbage first).
        var greet: (@Sendable (ScriptedWebSocketPeer) async throws -> Void)?
        /// The body of `GET /healthz` (nil: 404).
        var health: String? = #"{"status":"ok"}"#
        /// Serve `wss` with this certificate.
        var tls: TestCertificate?
        /// Refuse upgrades: the HTTP status for a request, or nil to accept it.
        var refusing: (@Sendable (ScriptedWebSocketServer.UpgradeRequest) -> Int?)?
        /// Other plain HTTP paths (covers): nil falls back to 404.
        var http: (@Sendable (ScriptedWebSocketServer.UpgradeRequest) -> ScriptedWebSocketServer.HTTPAnswer?)?
    }

    typealias Handler = @Sendable (Exchange) async throws -> Void

    let socket: ScriptedWebSocketServer
    private let received: LockedValue<[Call]>
    private let peerList: LockedValue<[ScriptedWebSocketPeer]>

    /// `http(s)://127.0.0.1:port`, what the app is given.
    var baseURL: URL {
        URL(string: "\(socket.url().scheme == "wss" ? "https" : "http")://127.0.0.1:\(socket.port)") ?? URL(fileURLWithPath: "/")
    }

    /// Every call received so far, in order.
    var calls: [Call] { received.value }

    /// How many calls of `method` were received.
    func count(_ method: String) -> Int { calls.filter { $0.method == method }.count }

    /// Every connection that completed the upgrade, in order.
    var peers: [ScriptedWebSocketPeer] { peerList.value }

    /// Upgrade attempts on `path` (refused ones included).
    func upgrades(_ path: String) -> Int { socket.upgradeRequests.filter { $0.path == path }.count }

    static func start(_ options: Options = Options(), handler: @escaping Handler) async throws -> ScriptedKRPCServer {
        let received = LockedValue<[Call]>([])
        let peerList = LockedValue<[ScriptedWebSocketPeer]>([])
        let socket = try await ScriptedWebSocketServer.start(
            tls: options.tls?.pem, refusing: options.refusing,
            http: { request in
                if request.path == "/healthz", let health = options.health { return .json(health) }
                if let answer = options.http?(request) { return answer }
                return .json(#"{"error":"not_found","path":"\#(request.path)"}"#, status: 404)
            },
            onConnection: { peer in
                peerList.withLock { $0.append(peer) }
                Task { await serve(peer, options: options, received: received, handler: handler) }
            })
        return ScriptedKRPCServer(socket: socket, received: received, peerList: peerList)
    }

    private init(socket: ScriptedWebSocketServer, received: LockedValue<[Call]>, peerList: LockedValue<[ScriptedWebSocketPeer]>) {
        self.socket = socket
        self.received = received
        self.peerList = peerList
    }

    func stop() async { await socket.stop() }

    /// Reads one connection's frames until it closes.
    private static func serve(_ peer: ScriptedWebSocketPeer, options: Options, received: LockedValue<[Call]>,
                              handler: @escaping Handler) async {
        for await frame in peer.incomingFrames() {
            guard let text = frame.text, let message = try? KRPCMessage(decoding: text) else { continue }
            switch message {
            case .protocolHandshake:
                try? await options.greet?(peer)
                guard options.answersHandshake else { continue }
                try? await peer.send(text: KRPCMessage.protocolHandshake(KRPCHandshake(
                    supportedPlugins: [.handshake, .cancellation, .nonSuspendingServerFlows, .noAckCancellation, .backpressure],
                    connectionId: 1)).encoded())
            case .callData(let data):
                let call = Call(path: peer.path, data: data)
                received.withLock { $0.append(call) }
                Task { try? await handler(Exchange(call: call, peer: peer)) }
            default:
                continue
            }
        }
    }
}

/// One call and the means to answer it.
struct Exchange: Sendable {
    let call: ScriptedKRPCServer.Call
    let peer: ScriptedWebSocketPeer

    var method: String { call.method }

    /// One argument of the call as raw JSON text (`"books"`, `0`, `null`), or nil.
    func argument(_ name: String) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(call.data.data.utf8), options: [.fragmentsAllowed]) as? [String: Any],
              let value = object[name] else { return nil }
        if value is NSNull { return "null" }
        if let text = value as? String { return text }
        return "\(value)"
    }

    /// Answers with a `CallSuccess` whose data is `appResult` (an `AppResult` JSON).
    func succeed(_ appResult: String) async throws {
        try await peer.send(text: KRPCMessage.callSuccess(KRPCCallSuccess(callId: call.data.callId, serviceType: call.data.serviceType,
                                                                        data: appResult, connectionId: 1)).encoded())
    }

    /// Answers `{"type":"Success","data":<value>}`.
    func success(_ value: some Encodable) async throws {
        try await succeed(#"{"type":"Success","data":\#(try KRPCJSON.encode(value))}"#)
    }

    /// Answers `{"type":"Failure","error":<error>}` with the AppError JSON `error`.
    func failure(_ error: String) async throws {
        try await succeed(#"{"type":"Failure","error":\#(error)}"#)
    }

    /// Sends one stream element (an `RpcEvent` JSON).
    func element(_ rpcEvent: String) async throws {
        try await peer.send(text: KRPCMessage.streamMessage(KRPCStreamMessage(callId: call.data.callId, serviceType: call.data.serviceType,
                                                                            data: rpcEvent, connectionId: 1)).encoded())
    }

    /// Sends `RpcEvent.Data` with a `SyncFrame`.
    func frame(domain: String, revision: Int64? = nil, json: String) async throws {
        try await element(#"{"type":"RpcEvent.Data","value":\#(try KRPCJSON.encode(SyncFrame(domain: domain, revision: revision, json: json)))}"#)
    }

    /// Sends the control frame `{"type":"SyncControl.<name>"}`.
    func control(_ name: String) async throws {
        try await frame(domain: "control", json: #"{"type":"SyncControl.\#(name)"}"#)
    }

    /// Drops the connection (no close frame), as a network failure would.
    func drop() async { await peer.drop() }
}

/// Canned server data.
enum Canned {
    static let instanceID = "8f0c2a4e-0000-0000-0000-000000000000"

    static func serverInfo(apiVersion: String = "v1") -> ServerInfo {
        ServerInfo(name: "Hostile", version: "0.9.0", apiVersion: apiVersion, setupRequired: false,
                   registrationPolicy: RegistrationPolicy(rawValue: "CLOSED"), instanceId: instanceID)
    }

    /// A session; `generation` makes its tokens distinct.
    static func authSession(_ generation: Int, expiresIn: TimeInterval = 900) -> AuthSession {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        return AuthSession(accessToken: "access-token-\(generation)-secret", accessTokenExpiresAt: now + Int64(expiresIn * 1000),
                           refreshToken: "refresh-token-\(generation)-secret", refreshTokenExpiresAt: now + 30 * 86_400_000,
                           sessionId: "session-1", user: User(id: "user-1", email: "ada@example.com", displayName: "Ada",
                                                              role: UserRole(rawValue: "ROOT"), status: UserStatus(rawValue: "ACTIVE"),
                                                              createdAt: now))
    }

    /// A stored session signed in to `url` with ``authSession(_:expiresIn:)``'s tokens.
    static func storedSession(_ url: URL, generation: Int = 1, expiresIn: TimeInterval = 900) -> StoredSession {
        let auth = authSession(generation, expiresIn: expiresIn)
        return StoredSession(serverURL: url, accessToken: auth.accessToken, refreshToken: auth.refreshToken, sessionID: auth.sessionId,
                             userID: auth.user.id, displayName: auth.user.displayName, email: auth.user.email,
                             accessExpiresAt: Date().addingTimeInterval(expiresIn))
    }

    /// A book payload at `revision` (a tombstone when `deleted`).
    static func book(_ id: String, title: String, revision: Int64, deleted: Bool = false, cover: Bool = true) -> BookSyncPayload {
        var payload = BookSyncPayload(id: id, libraryId: "library-1", folderId: "folder-1", title: title, totalDuration: 60_000,
                                      rootRelPath: title, scannedAt: 1_787_300_000_000, revision: revision,
                                      updatedAt: 1_787_300_000_000 + revision, createdAt: 1_787_300_000_000)
        if cover { payload.cover = CoverPayload(source: CoverSource(rawValue: "FILESYSTEM"), hash: "hash-\(id)") }
        if deleted { payload.deletedAt = 1_787_400_000_000 + revision }
        return payload
    }

    /// A `SyncPage` of `items` (payloads), as `pullDomain` answers.
    static func page(_ domain: String, _ items: [some Encodable], hasMore: Bool, cursor: Int64?) throws -> SyncPage {
        SyncPage(domain: domain, items: try items.map { try KRPCJSON.encode($0) }, nextCursor: cursor, hasMore: hasMore)
    }
}

/// Waits until `condition` holds, for at most `limit` (then returns anyway:
/// the test's own expectations say what was missing).
func eventually(_ limit: Duration = .seconds(20), _ condition: @Sendable () async -> Bool) async {
    let deadline = ContinuousClock.now + limit
    while await !condition(), ContinuousClock.now < deadline {
        try? await Task.sleep(for: .milliseconds(20))
    }
}

/// Runs `body`, failing with ``DeadlinePassed`` after `limit` even if `body`
/// waits on something that ignores cancellation: a hang becomes a failure.
func withDeadline<T: Sendable>(_ limit: Duration = .seconds(60), _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    let outcome = LockedValue<CheckedContinuation<T, any Error>?>(nil)
    return try await withCheckedThrowingContinuation { continuation in
        outcome.withLock { $0 = continuation }
        let work = Task {
            let result = await Result(catching: { try await body() })
            outcome.withLock { waiting in defer { waiting = nil }; return waiting }?.resume(with: result)
        }
        Task {
            try? await Task.sleep(for: limit)
            if let waiting = outcome.withLock({ waiting in defer { waiting = nil }; return waiting }) {
                work.cancel()
                waiting.resume(throwing: DeadlinePassed(limit: limit))
            }
        }
    }
}

/// A test body outlived its deadline: something hung.
struct DeadlinePassed: Error, CustomStringConvertible {
    var limit: Duration
    var description: String { "the test did not finish within \(limit): something hung" }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
