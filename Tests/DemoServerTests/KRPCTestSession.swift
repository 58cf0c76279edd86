import DemoServer
import Foundation
import ListenUpKRPC
import ListenUpTestSupport
import Testing

/// A kRPC session over a ``KRPCTestSocket`` (tests only): handshake, calls
/// with counted call ids, typed results. Used from one test task.
final class KRPCTestSession {
    let socket: KRPCTestSocket
    private var counter = 0

    private init(socket: KRPCTestSocket) {
        self.socket = socket
    }

    /// Connects to a mount and exchanges handshakes.
    static func open(port: Int, mount: KRPCMount, bearer: String? = nil, answerPings: Bool = true) async throws -> KRPCTestSession {
        let socket = try await KRPCTestSocket.connect(port: port, path: mount.path, bearer: bearer, answerPings: answerPings)
        try await socket.send(.handshake)
        guard case .protocolHandshake = try await socket.nextMessage() else { throw KRPCTestTimeout(description: "no handshake reply") }
        return KRPCTestSession(socket: socket)
    }

    /// A fresh call id.
    func nextCallID(_ method: String) -> String {
        counter += 1
        return "1:\(method):\(counter)"
    }

    /// Sends a call and returns the first message answering it.
    func call(_ method: KRPCMethod, _ arguments: String = "{}", marker: Bool = true, serviceId: Int64? = nil) async throws -> KRPCMessage {
        let callId = nextCallID(method.name)
        try await socket.send(.callData(KRPCCallData(callId: callId, serviceType: method.service.rawValue, method: method.name,
                                                     data: arguments, connectionId: 1, serviceId: serviceId,
                                                     pluginParams: marker ? [.nonSuspendingServerFlowMarker: ""] : [:])))
        while true {
            let message = try await socket.nextMessage()
            if message.callId == callId { return message }
        }
    }

    /// Calls a unary method and decodes its `AppResult`.
    func result<T: Decodable>(_ method: KRPCMethod, _ arguments: String = "{}", as type: T.Type) async throws -> AppResult<T> {
        let reply = try await call(method, arguments)
        guard case .callSuccess(let success) = reply else { throw KRPCTestTimeout(description: "\(method) answered \(reply)") }
        return try AppResult<T>.decode(from: success.data)
    }

    /// Calls a unary method that must succeed.
    func value<T: Decodable>(_ method: KRPCMethod, _ arguments: String = "{}", as type: T.Type) async throws -> T {
        try await result(method, arguments, as: type).get()
    }

    /// Encodes a method's arguments.
    static func arguments<A: Encodable>(_ value: A) throws -> String {
        try KRPCJSON.encode(value)
    }
}

/// Starting kRPC demo servers for the tests.
enum KRPCTestServer {
    static let email = "ada@example.com"
    static let password = "analytical-engine"

    /// A kRPC demo server on 127.0.0.1 with `books` short books and, unless
    /// `admin` is false, an admin; `configure` adjusts the rest.
    static func start(books: Int = 5, admin: Bool = true, logs: LogCapture,
                      configure: (inout DemoServer.Configuration) -> Void = { _ in }) async throws -> (DemoServer, Int) {
        var configuration = DemoServer.Configuration()
        configuration.protocol = .krpc
        configuration.bookCount = books
        configuration.chapterSeconds = 2
        if admin { configuration.admin = .init(email: email, password: password) }
        configure(&configuration)
        let server = DemoServer(configuration: configuration, logger: logs.logger)
        return (server, try await server.start())
    }

    /// Signs the admin in over the public mount.
    static func login(port: Int) async throws -> AuthSession {
        let session = try await KRPCTestSession.open(port: port, mount: .public)
        let arguments = try KRPCTestSession.arguments(RequestArguments(LoginRequest(email: email, password: password)))
        let auth = try await session.value(.login, arguments, as: AuthSession.self)
        await session.socket.close()
        return auth
    }

    /// An authed session as the admin.
    static func authed(port: Int) async throws -> (KRPCTestSession, AuthSession) {
        let auth = try await login(port: port)
        return (try await KRPCTestSession.open(port: port, mount: .authed, bearer: auth.accessToken), auth)
    }
}
