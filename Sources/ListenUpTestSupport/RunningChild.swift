import Foundation

/// A program a test started, its stdout and stderr collected as they come,
/// and waited for with a deadline.
///
/// Every wait here ends: a child that outlives its deadline is killed, and
/// the ends of its output are waited for two seconds at most (a grandchild
/// can hold a pipe open long after the child is gone). A test that waited
/// on a child without a deadline could hold one of the cooperative pool's
/// threads for ever; with two of them (a 2-core machine) the whole run
/// stood still, every other test's tasks waiting behind it.
///
/// `@unchecked Sendable`: `process` is set up in `init`; the collected
/// output is only touched under `state`.
public final class RunningChild: @unchecked Sendable {
    /// What a child left behind.
    public struct Output: Sendable {
        /// The exit status; nil when the child was killed at its deadline.
        public let status: Int32?
        public let stdout: String
        public let stderr: String

        /// The child outlived its deadline.
        public var timedOut: Bool { status == nil }

        /// stdout then stderr, trimmed: what a person at a terminal reads.
        public var combined: String {
            (stdout + stderr).trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    public let process = Process()
    private let output = Pipe()
    private let errors = Pipe()
    private let state = NSCondition()
    private var stdout = Data()
    private var stderr = Data()
    private var openPipes = 2

    /// Starts `command` (through ``ChildProcess``'s launcher).
    /// - Parameter environment: the child's whole environment; nil: the
    ///   runner's.
    public init(_ command: [String], environment: [String: String]? = nil) throws {
        ChildProcess.configure(process, command)
        if let environment { process.environment = environment }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        collect(output) { $0.stdout.append($1) }
        collect(errors) { $0.stderr.append($1) }
    }

    private func collect(_ pipe: Pipe, into append: @escaping @Sendable (RunningChild, Data) -> Void) {
        PipeDrain.start(pipe) { [weak self] data in
            guard let self else { return }
            self.state.lock()
            if data.isEmpty { self.openPipes -= 1 } else { append(self, data) }
            self.state.broadcast()
            self.state.unlock()
        }
    }

    /// Waits for the child to end, killing it at `timeout`; what it wrote.
    /// Blocks the calling thread: from async code, use
    /// ``ChildProcess/run(_:environment:timeout:)``, which waits on a
    /// thread of its own.
    public func finish(timeout: Duration = .seconds(60)) -> Output {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline { usleep(5_000) }
        let timedOut = process.isRunning
        if timedOut { stop() }
        let ends = Date().addingTimeInterval(2)
        state.lock()
        while openPipes > 0, state.wait(until: ends) {}
        let result = Output(status: timedOut ? nil : process.terminationStatus,
                            stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
        state.unlock()
        return result
    }

    /// Ends the child at once (SIGKILL: ``ChildProcess`` says why a gentler
    /// signal may go unheard) and waits a little for it to go.
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        for _ in 0..<200 where process.isRunning { usleep(5_000) }
    }

    deinit {
        stop()
    }
}

extension ChildProcess {
    /// Runs `command` to its end (killed at `timeout`) on a thread of its
    /// own, never on the cooperative pool; its status and output.
    public static func run(_ command: [String], environment: [String: String]? = nil,
                           timeout: Duration = .seconds(60)) async throws -> RunningChild.Output {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try RunningChild(command, environment: environment).finish(timeout: timeout) })
            }
        }
    }

    /// The runner's environment with `changes` made (a nil value removes).
    public static func environment(_ changes: [String: String?]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in changes { environment[name] = value }
        return environment
    }
}
