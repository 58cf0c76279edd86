import Foundation

/// A private X display for one test (Xvfb on a local socket only), stopped
/// when this value goes.
///
/// The tests' shared display (`xvfb-run`'s) holds the windows of every GUI
/// test running beside this one. A test that types into a window needs one
/// of its own: on the shared display another test's window mapped between
/// "the window has the focus" and the key takes the key (and closes that
/// other app with Ctrl+W), and `xdotool search` dies of the X error a window
/// destroyed mid-search raises.
public final class PrivateDisplay: @unchecked Sendable {
    // @unchecked Sendable: every property is set once in init.
    public let process = Process()
    /// The display's name, for `DISPLAY` (":N").
    public let name: String

    public enum Failure: Error, CustomStringConvertible {
        case noDisplayNumber(String)

        public var description: String {
            switch self {
            case .noDisplayNumber(let printed): "Xvfb printed no display number: \(printed)"
            }
        }
    }

    /// Starts Xvfb on the first free display number, as big as the shared one.
    public init() throws {
        let output = Pipe()
        // -displayfd: Xvfb picks a free number itself and writes it once it
        // accepts connections, so nothing races another server for it.
        ChildProcess.configure(process, ["/usr/bin/Xvfb", "-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "1280x800x24"])
        process.standardOutput = output
        // Its complaints (fonts, keymaps) would hold the test runner's stderr open.
        process.standardError = FileHandle.nullDevice
        try process.run()
        let number = ChildProcess.firstLine(of: output)
        guard !number.isEmpty, number.allSatisfy(\.isNumber) else {
            ChildProcess.stop(process)
            throw Failure.noDisplayNumber(number)
        }
        name = ":\(number)"
    }

    deinit {
        ChildProcess.stop(process)
    }
}
