import Foundation

/// How tests start the programs they run: through `env --default-signal`.
///
/// The test runner's threads block most signals (SIGTERM and SIGINT among
/// them), and a child started with `Process` inherits that mask: such a
/// child never sees the `terminate()` a test ends it with, outlives the
/// test, and (holding the runner's stderr) keeps `swift test` waiting for
/// an end of output that never comes. `env --default-signal` unblocks every
/// signal and restores its default action before it executes the program.
public enum ChildProcess {
    /// The launcher every child goes through.
    public static let launcher = URL(fileURLWithPath: "/usr/bin/env")

    /// `launcher`'s arguments to run `command` (a program found on the PATH,
    /// or a path, and its arguments) with default signal handling.
    public static func arguments(_ command: [String]) -> [String] {
        ["--default-signal"] + command
    }

    /// Points `process` at `command` through the launcher.
    public static func configure(_ process: Process, _ command: [String]) {
        process.executableURL = launcher
        process.arguments = arguments(command)
    }

    /// The first line written to `pipe`, trimmed (what came before the end
    /// if no line did): how a daemon a test starts says where it listens.
    public static func firstLine(of pipe: Pipe) -> String {
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        return String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Ends a daemon a test started: SIGTERM, two seconds to go, then
    /// SIGKILL. (Not `waitUntilExit`: it spins a run loop the main actor's
    /// thread does not run here.)
    public static func stop(_ process: Process) {
        guard process.isRunning else { return }
        process.terminate()
        for _ in 0..<200 where process.isRunning { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
