import Foundation
import ListenUpTestSupport
import Testing

/// `listenup --print-renderer`: the renderer settings the app gives GTK on
/// this machine, which the benches hand to their C baselines.
@Suite("The renderer the app reports")
struct PrintRendererTests {
    func printRenderer(_ environment: [String: String]) async throws -> (status: Int32?, lines: [String]) {
        var base = ProcessInfo.processInfo.environment
        for name in ["GSK_RENDERER", "LIBGL_ALWAYS_SOFTWARE", "GALLIUM_DRIVER", "GDK_DEBUG", "GDK_DISABLE"] { base[name] = nil }
        let output = try await ChildProcess.run([HeadlessProcess.binary.path, "--print-renderer"], environment: base.merging(environment) { $1 })
        return (output.status, output.stdout.split(separator: "\n").map(String.init))
    }

    @Test func aRendererTheUserChoseStands() async throws {
        let printed = try await printRenderer(["GSK_RENDERER": "gl"])
        #expect(printed.status == 0)
        #expect(printed.lines.isEmpty)
    }

    @Test func softwareGLMeansCairoWithGLOff() async throws {
        let printed = try await printRenderer(["LIBGL_ALWAYS_SOFTWARE": "1", "GDK_DEBUG": "events"])
        #expect(printed.status == 0)
        #expect(printed.lines.contains("GSK_RENDERER=cairo"))
        // GTK before 4.16 reads GDK_DEBUG, later ones GDK_DISABLE; flags already set stay.
        #expect(printed.lines.contains("GDK_DEBUG=events,gl-disable") || printed.lines.contains("GDK_DISABLE=gl"))
        #expect(printed.lines.count == 2)
    }
}
