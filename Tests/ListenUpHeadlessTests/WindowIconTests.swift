import Foundation
import ListenUpTestSupport
import Testing

/// The real app's window under Xvfb gets the app's icon on X11
/// (`_NET_WM_ICON`), read off the display with `xprop`. The app sets it
/// once its first frame is on screen (the icon loads librsvg, which the
/// first frame does not need), so it must still arrive.
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
    }
}
