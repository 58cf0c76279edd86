import Foundation

/// A private D-Bus session daemon for one test (listening on a socket in the
/// temporary folder), stopped when this value goes.
public final class PrivateBus: @unchecked Sendable {
    // @unchecked Sendable: every property is set once in init.
    public let process = Process()
    /// The bus's address, for `DBUS_SESSION_BUS_ADDRESS`.
    public let address: String

    private var configuration: URL?

    /// - Parameter serviceDirectories: nil for the standard session bus
    ///   (which starts the desktop's services on demand, gnome-keyring among
    ///   them); otherwise a bus that starts only the services in these folders
    ///   (none for `[]`, so a call to a missing service fails at once).
    public init(serviceDirectories: [String]? = nil) throws {
        let output = Pipe()
        var arguments = ["/usr/bin/dbus-daemon", "--nofork", "--nopidfile", "--print-address=1",
                         "--address=unix:tmpdir=\(FileManager.default.temporaryDirectory.path)"]
        if let serviceDirectories {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-bus-\(UUID().uuidString).conf")
            try Data(Self.configuration(serviceDirectories: serviceDirectories).utf8).write(to: file)
            configuration = file
            arguments.append("--config-file=\(file.path)")
        } else {
            arguments.append("--session")
        }
        ChildProcess.configure(process, arguments)
        process.standardOutput = output
        // Its complaints would hold the test runner's stderr open.
        process.standardError = FileHandle.nullDevice
        try process.run()
        address = ChildProcess.firstLine(of: output)
    }

    deinit {
        ChildProcess.stop(process)
        if let configuration { try? FileManager.default.removeItem(at: configuration) }
    }

    /// A session bus's configuration that lets everyone own and call
    /// anything, starting services only from `serviceDirectories`.
    static func configuration(serviceDirectories: [String]) -> String {
        let folders = serviceDirectories.map { "  <servicedir>\($0)</servicedir>\n" }.joined()
        return """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <keep_umask/>
          <listen>unix:tmpdir=/tmp</listen>
        \(folders)  <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>

        """
    }

    /// Runs `playerctl` for the app's player against this bus.
    /// - Returns: its exit status and output, trimmed.
    @discardableResult
    public func playerctl(_ arguments: String...) throws -> (status: Int32, output: String) {
        try run(["/usr/bin/playerctl", "--player=io.github.listenup.Desktop"] + arguments)
    }

    /// Runs a tool (`gdbus`, `playerctl`) with this bus as both the session
    /// and the system bus (playerctl gives up when it cannot reach a system bus).
    /// - Returns: its exit status and output (stdout and stderr), trimmed.
    @discardableResult
    public func run(_ command: [String], extraEnvironment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        var environment = ["DBUS_SESSION_BUS_ADDRESS": address, "DBUS_SYSTEM_BUS_ADDRESS": address, "PATH": "/usr/bin:/bin"]
        environment.merge(extraEnvironment) { $1 }
        let output = try RunningChild(command, environment: environment).finish()
        return (output.status ?? -1, output.combined)
    }
}
