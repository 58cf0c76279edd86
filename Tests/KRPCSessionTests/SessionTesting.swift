import Foundation
import KRPCSession
import ListenUpKRPC
import ListenUpTestSupport
import Logging
import Synchronization
import WebSocketTransport

/// A wait in a test ran out.
struct TestTimeout: Error, CustomStringConvertible {
    var limit: Duration
    var description: String { "the test did not finish within \(limit)" }
}

/// Runs `body` and fails with ``TestTimeout`` after `limit`, even if `body`
/// waits on something that ignores cancellation (it is cancelled, not awaited).
/// The limit tells a hang from a slow run, not fast from slow: a busy 2-core
/// CI machine has kept a task from running for over ten seconds.
func withTimeout<T: Sendable>(_ limit: Duration = .seconds(45),
                              _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    let race = TimeoutRace<T>()
    return try await withCheckedThrowingContinuation { continuation in
        race.begin(continuation)
        let work = Task { do { race.finish(.success(try await body())) } catch { race.finish(.failure(error)) } }
        let timer = Task {
            if (try? await Task.sleep(for: limit)) != nil { race.finish(.failure(TestTimeout(limit: limit))) }
        }
        race.track([work, timer])
    }
}

/// The first of a body's result and a timer wins; the loser is cancelled.
private final class TimeoutRace<T: Sendable>: Sendable {
    private let waiter = Mutex<CheckedContinuation<T, any Error>?>(nil)
    private let tasks = Mutex<[Task<Void, Never>]>([])
    private let done = Mutex(false)

    func begin(_ continuation: CheckedContinuation<T, any Error>) { waiter.withLock { $0 = continuation } }

    func track(_ started: [Task<Void, Never>]) {
        tasks.withLock { $0 = started }
        if done.withLock({ $0 }) { started.forEach { $0.cancel() } }
    }

    func finish(_ result: Result<T, any Error>) {
        waiter.withLock { $0.take() }?.resume(with: result)
        done.withLock { $0 = true }
        for task in tasks.withLock({ $0 }) { task.cancel() }
    }
}

/// Quick ticks for loopback tests; timeouts a loaded two-core machine
/// running every suite at once still beats (tests that want a timeout to
/// fire set their own).
extension KRPCSessionConfiguration {
    static let fast = KRPCSessionConfiguration(handshakeTimeout: .seconds(5), callTimeout: .seconds(8),
                                               tickInterval: .milliseconds(50))
}

/// A logger that drops everything.
let quietLogger = Logger(label: "test.krpc") { _ in SwiftLogNoOpLogHandler() }

/// A WebSocket client for loopback tests: short timeouts, no client pings.
func makeClient(logger: Logger = quietLogger) -> WebSocketClient {
    var configuration = WebSocketConfiguration()
    configuration.connectTimeout = .seconds(5)
    configuration.closeTimeout = .seconds(2)
    configuration.pingInterval = nil
    return WebSocketClient(configuration: configuration, logger: logger)
}

/// The server end of one kRPC connection, as a ListenUp server would speak it.
struct ScriptedKRPCPeer: Sendable {
    let socket: ScriptedWebSocketPeer

    /// Checks that the client's first frame is the Handshake of §2.3 and answers with the server's.
    func acceptHandshake() async throws {
        let first = try await socket.nextText()
        guard first == ContractFrame.handshakeClient else { throw UnexpectedFrame(text: first) }
        try await socket.send(text: ContractFrame.handshakeServerReply)
    }

    /// The next kRPC message from the client.
    func next(within timeout: Duration = .seconds(3)) async throws -> KRPCMessage {
        try KRPCMessage(decoding: try await socket.nextText(within: timeout))
    }

    /// The next message, which must be a call.
    func nextCall() async throws -> KRPCCallData {
        let message = try await next()
        guard case .callData(let call) = message else { throw UnexpectedFrame(text: message.encoded()) }
        return call
    }

    /// Sends a message.
    func send(_ message: KRPCMessage) async throws {
        try await socket.send(text: message.encoded())
    }

    /// Answers `call` with a `CallSuccess` carrying `data`.
    func succeed(_ call: KRPCCallData, data: String) async throws {
        try await send(.callSuccess(KRPCCallSuccess(callId: call.callId, serviceType: call.serviceType, data: data,
                                                    connectionId: call.connectionId)))
    }

    /// Sends a contract frame with its call id replaced by `call`'s.
    func send(_ frame: String, as call: KRPCCallData) async throws {
        let original = try KRPCMessage(decoding: frame).callId ?? ""
        try await socket.send(text: frame.replacingOccurrences(of: "\"\(original)\"", with: "\"\(call.callId)\""))
    }
}

/// A started server, a session connected to it (handshake done) and the server's end.
struct SessionFixture: Sendable {
    let server: ScriptedWebSocketServer
    let session: KRPCSession
    let peer: ScriptedKRPCPeer

    /// Closes the session and stops the server.
    func tearDown() async {
        await session.close()
        await server.stop()
    }
}

/// Starts a server and connects a session to `path`, answering the handshake.
func connectedSession(path: String = "/api/rpc/public", configuration: KRPCSessionConfiguration = .fast,
                      logger: Logger = quietLogger) async throws -> SessionFixture {
    let server = try await ScriptedWebSocketServer.start()
    do {
        async let connecting = KRPCSession.connect(url: server.url(path: path), configuration: configuration,
                                                   client: makeClient(), logger: logger)
        let peer = ScriptedKRPCPeer(socket: try await server.nextPeer())
        try await peer.acceptHandshake()
        return SessionFixture(server: server, session: try await connecting, peer: peer)
    } catch {
        await server.stop()
        throw error
    }
}

/// Runs `body` against a fresh connected session within `limit`, then tears it down.
func withSession(_ limit: Duration = .seconds(45), configuration: KRPCSessionConfiguration = .fast,
                 logger: Logger = quietLogger,
                 _ body: @escaping @Sendable (SessionFixture) async throws -> Void) async throws {
    try await withTimeout(limit) {
        let fixture = try await connectedSession(configuration: configuration, logger: logger)
        do {
            try await body(fixture)
        } catch {
            await fixture.tearDown()
            throw error
        }
        await fixture.tearDown()
    }
}

/// The error a task ended with (nil if it succeeded).
func failure<T: Sendable>(of task: Task<T, any Error>) async -> (any Error)? {
    if case .failure(let error) = await task.result { return error }
    return nil
}

/// The elements of a stream until it ends, and the error it ended with.
func collect(_ stream: AsyncThrowingStream<String, any Error>) async -> (elements: [String], error: (any Error)?) {
    var elements: [String] = []
    do {
        for try await element in stream { elements.append(element) }
        return (elements, nil)
    } catch {
        return (elements, error)
    }
}
