import Foundation
import ListenUpTestSupport
import Testing

/// `listenup --print-renderer`: the renderer settings the app gives GTK on
/// this machine, which the benches hand to their C baselines.
@Suite("The renderer the app reports")
struct PrintRendererTests {
    func printRenderer(_ environment: [String: String]) throws -> (status: Int32, lines: [String]) {
        let process = Process()
        ChildProcess.configure(process, [HeadlessProcess.binary.path, "--print-renderer"])
        var base = ProcessInfo.processInfo.environment
        for name in ["GSK_RENDERER", "LIBGL_ALWAYS_SOFTWARE", "GALLIUM_DRIVER", "GDK_DEBUG", "GDK_DISABLE"] { base[name] = nil }
        process.environment = base.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init))
    }

    @Test func aRendererTheUserChoseStands() throws {
        let printed = try printRenderer(["GSK_RENDERER": "gl"])
        #expect(printed.status == 0)
        #expect(printed.lines.isEmpty)
    }

    @Test func softwareGLMeansCairoWithGLOff() throws {
        let printed = try printRenderer(["LIBGL_ALWAYS_SOFTWARE": "1", "GDK_DEBUG": "events"])
        #expect(printed.status == 0)
        #expect(printed.lines.contains("GSK_RENDERER=cairo"))
        // GTK before 4.16 reads GDK_DEBUG, later ones GDK_DISABLE; flags already set stay.
        #expect(printed.lines.contains("GDK_DEBUG=events,gl-disable") || printed.lines.contains("GDK_DISABLE=gl"))
        #expect(printed.lines.count == 2)
    }
}
