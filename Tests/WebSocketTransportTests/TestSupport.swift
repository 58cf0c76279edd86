import Foundation
import ListenUpTestSupport
import Logging
import NIOCore
import NIOPosix
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
    // A promise completes once: whichever of the two comes first wins.
    let promise = MultiThreadedEventLoopGroup.singleton.any().makePromise(of: T.self)
    let work = Task {
        do { promise.succeed(try await body()) } catch { promise.fail(error) }
    }
    let timer = Task {
        try await Task.sleep(for: limit)
        promise.fail(TestTimeout(limit: limit))
        work.cancel()
    }
    defer { timer.cancel() }
    return try await promise.futureResult.get()
}

/// A client for loopback tests: short timeouts, no client pings unless asked.
func makeClient(logger: Logger = Logger(label: "test.websocket"),
                _ adjust: (inout WebSocketConfiguration) -> Void = { _ in }) -> WebSocketClient {
    var configuration = WebSocketConfiguration()
    // Generous: every suite runs at once on two cores in make test; the
    // tests about these timeouts set their own.
    configuration.connectTimeout = .seconds(5)
    configuration.closeTimeout = .seconds(2)
    configuration.pingInterval = nil
    adjust(&configuration)
    return WebSocketClient(configuration: configuration, logger: logger)
}

/// The error a throwing call ended with, as a transport error (nil if it
/// succeeded or threw something else).
func transportError(_ body: () async throws -> some Any) async -> WebSocketTransportError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error as? WebSocketTransportError
    }
}

/// A self-signed certificate for 127.0.0.1 and localhost, made with the
/// openssl command on a plain thread (not the cooperative pool).
func selfSignedCertificate() async throws -> (certificatePEM: String, privateKeyPEM: String) {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try makeSelfSignedCertificate() })
        }
    }
}

private func makeSelfSignedCertificate() throws -> (certificatePEM: String, privateKeyPEM: String) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("websocket-tls-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let key = directory.appendingPathComponent("key.pem")
    let certificate = directory.appendingPathComponent("cert.pem")
    let openssl = try RunningChild(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                                    "-nodes", "-keyout", key.path, "-out", certificate.path, "-days", "1", "-subj", "/CN=localhost",
                                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"]).finish()
    guard openssl.status == 0 else { throw CocoaError(.fileWriteUnknown) }
    return (try String(contentsOf: certificate, encoding: .utf8), try String(contentsOf: key, encoding: .utf8))
}

