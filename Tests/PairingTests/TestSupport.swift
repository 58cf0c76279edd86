import Foundation
import ListenUpTestSupport
import NIOConcurrencyHelpers
import Testing
@testable import Pairing

/// A temporary directory, removed at deinit.
final class TempDirectory: Sendable {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("pairing-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    func storage(_ name: String = "listenup") -> PairingStorage { PairingStorage(directory: url.appendingPathComponent(name)) }
}

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let current: NIOLockedValueBox<Date>
    init(_ start: Date = Date()) { current = NIOLockedValueBox(start) }
    var now: Date { current.withLockedValue { $0 } }
    func advance(_ seconds: TimeInterval) { current.withLockedValue { $0 = $0.addingTimeInterval(seconds) } }
    var clock: PairingClock { PairingClock { [self] in now } }
}

/// Runs a command on a plain thread (not the cooperative pool, which the server's
/// tasks need while the command waits on them); returns exit status and stdout.
@discardableResult
func run(_ arguments: [String], environment: [String: String]? = nil) async throws -> (status: Int32, output: String) {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try runBlocking(arguments, environment: environment) })
        }
    }
}

func runBlocking(_ arguments: [String], environment: [String: String]?) throws -> (status: Int32, output: String) {
    let process = Process()
    // Default signals: the runner's blocked ones are not passed on (ChildProcess says why).
    ChildProcess.configure(process, arguments)
    if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    let output = Pipe()
    process.standardOutput = output
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    var text = String(decoding: data, as: UTF8.self)
    if process.terminationStatus != 0 { text += String(decoding: errorData, as: UTF8.self) }
    return (process.terminationStatus, text)
}

/// A curl call against the loopback server: (curl exit status, HTTP status, body).
func curl(_ arguments: [String]) async throws -> (exit: Int32, status: Int, body: String) {
    let (exit, output) = try await run(["curl", "-sS", "--max-time", "20", "-w", "\n%{http_code}"] + arguments)
    var lines = output.split(separator: "\n", omittingEmptySubsequences: false)
    if exit != 0 { return (exit, 0, output) }
    let status = Int(lines.popLast() ?? "") ?? 0
    return (exit, status, lines.joined(separator: "\n"))
}

func jsonObject(_ text: String) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
}

func errorCode(_ text: String) -> String? { (jsonObject(text)["error"] as? [String: Any])?["code"] as? String }
