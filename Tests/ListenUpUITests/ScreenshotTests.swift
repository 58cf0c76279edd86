import CAdwaita
import Foundation
import ListenUpTestSupport
import GtkBridge
import XCTest

/// The real binary's `--screenshot`, on the display `make test` provides.
final class ScreenshotTests: XCTestCase {
    static var binary: URL {
        if let explicit = ProcessInfo.processInfo.environment["LISTENUP_BINARY"] { return URL(fileURLWithPath: explicit) }
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = dir.appendingPathComponent("listenup")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: ".build/debug/listenup")
    }

    /// Runs `listenup --screenshot` with `environment` added; returns the PNG path.
    private func screenshot(_ arguments: [String] = [], environment extra: [String: String]) throws -> String {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-shot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: home) }
        let png = home.appendingPathComponent("shot.png").path
        let process = Process()
        ChildProcess.configure(process, [Self.binary.path] + arguments + ["--screenshot", png])
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        environment["GTK_A11Y"] = "none"
        environment.merge(CompiledSchema.childEnvironment) { $1 }
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let log = home.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { process.terminate(); XCTFail("--screenshot did not exit") }
        XCTAssertEqual(process.terminationStatus, 0)
        // No GTK or GLib critical (a call on a window already destroyed).
        let criticals = try String(decoding: Data(contentsOf: log), as: UTF8.self)
            .split(separator: "\n").filter { $0.contains("-CRITICAL") }
        XCTAssertEqual(criticals, [], "criticals on stderr")
        XCTAssertTrue(FileManager.default.fileExists(atPath: png))
        return png
    }

    func testScreenshotOfTheFirstScreen() throws {
        let path = try screenshot(environment: [:])
        try MainActor.assumeIsolated {
            guard GtkRuntime.initialize() else { return XCTFail("no display") }
            let image = try XCTUnwrap(loadPNG(path))
            // The default size, less the frame GTK draws itself without a compositor.
            XCTAssertEqual(Double(image.width), 900, accuracy: 20)
            XCTAssertEqual(Double(image.height), 680, accuracy: 20)
            // Something was drawn: the title's text makes dark pixels.
            var dark = 0
            for y in stride(from: 0, to: image.height, by: 2) {
                for x in stride(from: 0, to: image.width, by: 2) {
                    let p = image.pixel(x, y)
                    if Int(p.red) + Int(p.green) + Int(p.blue) < 200 { dark += 1 }
                }
            }
            XCTAssertGreaterThan(dark, 200, "the screenshot is blank")
        }
    }

    /// The library's grid asks for one more layout after its first frame
    /// (its columns follow the width it was given), and GTK has no picture
    /// of a window waiting for one: the screenshot is taken once it settles.
    func testScreenshotOfTheLibraryGrid() throws {
        let path = try screenshot(["--preview", "library:loaded"], environment: [:])
        try MainActor.assumeIsolated {
            guard GtkRuntime.initialize() else { return XCTFail("no display") }
            let image = try XCTUnwrap(loadPNG(path))
            XCTAssertEqual(Double(image.width), 900, accuracy: 20)
            // The placeholder covers' saturated tints fill much of the grid.
            var vivid = 0
            for y in stride(from: 0, to: image.height, by: 4) {
                for x in stride(from: 0, to: image.width, by: 4) {
                    let p = image.pixel(x, y)
                    if max(p.red, p.green, p.blue) - min(p.red, p.green, p.blue) > 80 { vivid += 1 }
                }
            }
            XCTAssertGreaterThan(vivid, 2_000, "no covers in the screenshot")
        }
    }

    /// The backdrop shows its brand-tinted gradient on the translucent path and
    /// is flat on the fallback; high contrast forces the fallback even when
    /// translucency is asked for.
    func testHighContrastFallsBackToOpaque() throws {
        let translucent = try screenshot(environment: ["LISTENUP_GLASS": "translucent"])
        let highContrast = try screenshot(environment: ["LISTENUP_GLASS": "translucent", "ADW_DEBUG_HIGH_CONTRAST": "1"])
        let plain = try screenshot(environment: [:])
        try MainActor.assumeIsolated {
            guard GtkRuntime.initialize() else { return XCTFail("no display") }
            // Top-left of the content, under the warmest glow of the backdrop.
            let (x, y) = (110, 170)
            let warm = try XCTUnwrap(loadPNG(translucent)).pixel(x, y)
            let hc = try XCTUnwrap(loadPNG(highContrast)).pixel(x, y)
            let flat = try XCTUnwrap(loadPNG(plain)).pixel(x, y)
            XCTAssertGreaterThan(Int(warm.red) - Int(warm.blue), 20, "translucent backdrop is tinted: \(warm)")
            XCTAssertLessThan(abs(Int(hc.red) - Int(hc.blue)), 6, "high contrast backdrop is flat: \(hc)")
            XCTAssertLessThan(abs(Int(flat.red) - Int(flat.blue)), 6, "no compositing: flat backdrop: \(flat)")
        }
    }
}
