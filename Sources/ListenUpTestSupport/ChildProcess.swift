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
}
