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

/// Runs a command off the cooperative pool (the server's tasks need it
/// while the command waits on them); its exit status and stdout (with
/// stderr after it when it failed).
@discardableResult
func run(_ arguments: [String], environment: [String: String]? = nil) async throws -> (status: Int32, output: String) {
    let output = try await ChildProcess.run(arguments, environment: environment.map { ChildProcess.environment($0.mapValues { $0 }) })
    guard let status = output.status else { return (-1, output.stdout + "(killed after a minute)") }
    return (status, status == 0 ? output.stdout : output.stdout + output.stderr)
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
