import Foundation
import ListenUpTestSupport

/// Runs the real `listenup --headless` binary as a child process with no
/// display (DISPLAY and WAYLAND_DISPLAY removed) and HOME/XDG in a temp folder.
final class HeadlessProcess: @unchecked Sendable {
    // @unchecked Sendable: `lines` is only touched under `lock`; the rest is
    // set once in init.
    let process = Process()
    let home: URL
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private let lock = NSCondition()
    private var lines: [String] = []
    private var buffer = Data()
    private var stderrData = Data()

    /// The binary the tests run: `LISTENUP_BINARY`, or `listenup` beside the
    /// test bundle in the build folder.
    static var binary: URL {
        if let explicit = ProcessInfo.processInfo.environment["LISTENUP_BINARY"] {
            return URL(fileURLWithPath: explicit)
        }
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = dir.appendingPathComponent("listenup")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/listenup")
    }

    private let ownsHome: Bool

    /// GStreamer's plugin registry, one file for every child of this test
    /// run. GStreamer keeps it under `XDG_CACHE_HOME`: in a cache of its
    /// own, each child that plays would scan every installed plugin again
    /// (a `gst-plugin-scanner` per child, about 0.2 s of CPU each). The
    /// registry is a cache of what is installed, written whole and renamed
    /// into place, so sharing it keeps each child's own state apart.
    static let pluginRegistry = FileManager.default.temporaryDirectory
        .appendingPathComponent("listenup-gst-registry-\(getpid()).bin").path

    /// - Parameters:
    ///   - home: reuse this HOME (a restart); the caller removes it.
    ///   - environment: variables to set (or, with a nil value, to remove)
    ///     after the sandbox's.
    ///   - launcher: a command that runs the app (e.g. `dbus-run-session --`).
    ///   - program: another of the package's programs to run the same way.
    init(arguments: [String] = ["--headless"], settingsJSON: String? = nil, home reused: URL? = nil,
         environment overrides: [String: String?] = [:], launcher: [String] = [], program: String? = nil) throws {
        ownsHome = reused == nil
        home = reused ?? FileManager.default.temporaryDirectory.appendingPathComponent("listenup-headless-\(UUID().uuidString)")
        let config = home.appendingPathComponent("config/listenup")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        if let settingsJSON {
            try Data(settingsJSON.utf8).write(to: config.appendingPathComponent("settings.json"))
        }
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        environment["HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        environment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        environment["XDG_STATE_HOME"] = home.appendingPathComponent("state").path
        environment["XDG_CACHE_HOME"] = home.appendingPathComponent("cache").path
        environment["GST_REGISTRY"] = Self.pluginRegistry
        environment["LISTENUP_LOG"] = "debug"
        environment.merge(CompiledSchema.childEnvironment) { $1 }
        for (name, value) in overrides { environment[name] = value }
        let binary = program.map { Self.binary.deletingLastPathComponent().appendingPathComponent($0) } ?? Self.binary
        ChildProcess.configure(process, launcher + [binary.path] + arguments)
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        PipeDrain.start(output) { [weak self] data in self?.received(data) }
        PipeDrain.start(errors) { [weak self] data in
            guard let self else { return }
            self.lock.lock(); self.stderrData.append(data); self.lock.unlock()
        }
    }

    private func received(_ data: Data) {
        lock.lock()
        buffer.append(data)
        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
            buffer.removeSubrange(buffer.startIndex...newline)
        }
        lock.broadcast()
        lock.unlock()
    }

    /// Sends one line to stdin; returns how many stdout lines came before
    /// it, for ``waitForLine(after:timeout:_:)``.
    @discardableResult
    func send(_ line: String) -> Int {
        let mark = allLines.count
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
        return mark
    }

    /// Closes stdin (end of input).
    func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    /// How long a wait for a line or an exit lasts unless told otherwise.
    static let defaultTimeout: TimeInterval = 30

    /// Waits until a stdout line satisfies `match`; returns the decoded object.
    ///
    /// Every line the process printed is kept and read from the first one
    /// on, or from line `mark` on (what ``send(_:)`` returned): a wait for
    /// the answer to a command must not read a line printed before it that
    /// happens to match too.
    ///
    /// The timeout bounds a hang; it is no speed check (those are the
    /// benchmarks'). With the test bundle's two halves side by side on two
    /// cores, a headless journey that takes 2 s alone takes 33-46 s, and
    /// one answer of it has taken more than 10 s: 30 s by default.
    func waitForLine(after mark: Int = 0, timeout: TimeInterval = HeadlessProcess.defaultTimeout, _ match: @escaping ([String: Any]) -> Bool) async -> [String: Any]? {
        let matcher = Unchecked(value: match)
        return await offThePool { self.blockingLine(from: mark, timeout: timeout, matcher.value) }
    }

    /// Waits until `count` stdout lines (from line `mark` on) satisfy
    /// `match`; returns them (fewer on timeout).
    func waitForLines(count: Int, after mark: Int = 0, timeout: TimeInterval = HeadlessProcess.defaultTimeout,
                      _ match: @escaping ([String: Any]) -> Bool) async -> [[String: Any]] {
        let matcher = Unchecked(value: match)
        return await offThePool { self.blockingLines(count: count, from: mark, timeout: timeout, matcher.value) }
    }

    /// Waits for the process to end; returns its status, or nil on timeout
    /// (the process is then killed).
    func waitForExit(timeout: TimeInterval = HeadlessProcess.defaultTimeout) async -> Int32? {
        await offThePool { self.blockingExit(timeout: timeout) }
    }

    /// Runs a blocking wait on a thread of its own: a test that blocks one
    /// of the few cooperative threads (two on a 2-core machine) for seconds
    /// starves every other test's tasks, whose own time limits then run out.
    private func offThePool<Value>(_ wait: @escaping () -> Value) async -> Value {
        let work = Unchecked(value: wait)
        let result = await withCheckedContinuation { (done: CheckedContinuation<Unchecked<Value>, Never>) in
            Thread { done.resume(returning: Unchecked(value: work.value())) }.start()
        }
        return result.value
    }

    private struct Unchecked<Value>: @unchecked Sendable {
        // `@unchecked Sendable`: handed to one thread and back, never shared.
        let value: Value
    }

    private func blockingLine(from mark: Int, timeout: TimeInterval, _ match: ([String: Any]) -> Bool) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeout)
        var seen = mark
        lock.lock()
        defer { lock.unlock() }
        while true {
            while seen < lines.count {
                let line = lines[seen]
                seen += 1
                if let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any], match(object) {
                    return object
                }
            }
            if !lock.wait(until: deadline) { return nil }
        }
    }

    private func blockingLines(count: Int, from mark: Int, timeout: TimeInterval, _ match: ([String: Any]) -> Bool) -> [[String: Any]] {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while true {
            let found = lines.dropFirst(mark).compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }.filter(match)
            if found.count >= count || !lock.wait(until: deadline) { return found }
        }
    }

    /// Every stdout line so far.
    var allLines: [String] {
        lock.lock(); defer { lock.unlock() }
        return lines
    }

    /// Everything written to stderr so far.
    var stderr: String {
        lock.lock(); defer { lock.unlock() }
        return String(decoding: stderrData, as: UTF8.self)
    }

    private func blockingExit(timeout: TimeInterval) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                return nil
            }
            usleep(10_000)
        }
        return process.terminationStatus
    }

    deinit {
        // The pipe's own deallocation would close it too, later: descriptors
        // left open pile up in the test runner (PipeDrain says why that matters).
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        if ownsHome { try? FileManager.default.removeItem(at: home) }
    }
}
