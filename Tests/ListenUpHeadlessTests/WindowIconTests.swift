import Foundation
import ListenUpTestSupport
import Testing

/// The real app's window under Xvfb gets the app's icon on X11
/// (`_NET_WM_ICON`), read off the display with `xprop`. The app sets it
/// once its first frame is on screen, so it must still arrive; and it comes
/// from the PNGs beside the SVG, so librsvg is never loaded for it (about
/// 8 MiB resident, docs/performance.md).
@Suite("The window's icon on X11")
struct WindowIconTests {
    typealias Window = BackgroundPlaybackTests

    @Test func theWindowGetsTheAppIconOnceItIsShown() async throws {
        let display = ProcessInfo.processInfo.environment["DISPLAY"] ?? ""
        let tools = ["/usr/bin/xdotool", "/usr/bin/xprop"]
        try ServiceRequirement.check(!display.isEmpty && tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) },
                                     requiredBy: "LISTENUP_REQUIRE_DBUS",
                                     "a display, xdotool or xprop is missing (run under xvfb-run; Debian packages xdotool, x11-utils)")
        // A fresh home (server setup), no session bus: nothing of the user's is touched.
        let app = try HeadlessProcess(arguments: [], environment: [
            "DISPLAY": display, "GTK_A11Y": "none", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/listenup-tests",
            "LISTENUP_MDNS_INTERFACE": "lo",
        ])
        defer { app.process.terminate() }
        var icons: [String] = []
        let shown = await Window.eventually(30) {
            icons = Window.visibleWindows(of: app).compactMap { window in
                (try? Window.tool(["/usr/bin/xprop", "-id", window, "_NET_WM_ICON"]))?.output
            }
            return icons.contains { $0.contains("Icon (") }
        }
        #expect(shown, "the window has no _NET_WM_ICON: \(icons)\n\(app.stderr.suffix(3_000))")
        #expect(icons.contains { $0.contains("Icon (48 x 48)") }, "no 48-pixel icon: \(icons.map { $0.prefix(200) })")
        let maps = try String(contentsOfFile: "/proc/\(app.process.processIdentifier)/maps", encoding: .utf8)
        #expect(!maps.contains("librsvg"), "the window icon loaded librsvg: the PNGs in data/icons are not used")
    }
}
