import Foundation
import ListenUpTestSupport
import Testing

/// What the real app does under Xvfb once its first frame is on screen
/// (work the first frame does not need, docs/performance.md):
/// - the window gets the app's icon on X11 (`_NET_WM_ICON`), read off the
///   display with `xprop`, from the PNGs beside the SVG (rendering the SVG
///   loads librsvg for good, about 8 MiB resident);
/// - the memory start-up freed is given back to the system;
/// - the libraries the app opens on first use (libsecret, libqrencode,
///   Avahi, GStreamer) are not linked, and a first launch loads only Avahi's,
///   for the setup page's LAN discovery (on the browse's own thread);
/// - the pages the app idles on, and the preferences, draw no symbolic icon
///   from an SVG, which would load librsvg for good (the spinner, the
///   download icons and the status pages' icons are the app's own symbolic
///   PNGs, `build-aux/render-symbolic-icons`).
@Suite("After the first frame")
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
            icons = (Window.visibleWindows(of: app, on: display) ?? []).compactMap { window in
                (try? Window.tool(["/usr/bin/xprop", "-id", window, "_NET_WM_ICON"], on: display))?.output
            }
            return icons.contains { $0.contains("Icon (") }
        }
        #expect(shown, "the window has no _NET_WM_ICON: \(icons)\n\(app.stderr.suffix(3_000))")
        // GTK sends every fixed size the theme has; from the SVG alone it
        // would send one icon, rendered at 48.
        for size in [16, 32, 48] {
            #expect(icons.contains { $0.contains("Icon (\(size) x \(size))") },
                    "no \(size)-pixel icon: the PNGs in data/icons are not used: \(icons.map { $0.prefix(200) })")
        }
    }

    /// `listenup` with `arguments` in a fresh home (server setup) and no
    /// session bus, once a second past its first frame (the trim's log line).
    static func launchSettled(_ arguments: [String] = [], environment: [String: String] = [:]) async throws -> HeadlessProcess {
        let display = ProcessInfo.processInfo.environment["DISPLAY"] ?? ""
        try ServiceRequirement.check(!display.isEmpty, requiredBy: "LISTENUP_REQUIRE_DBUS", "no display (run under xvfb-run)")
        let app = try HeadlessProcess(arguments: arguments, environment: [
            "DISPLAY": display, "GTK_A11Y": "none", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/listenup-tests",
            "LISTENUP_MDNS_INTERFACE": "lo", "LISTENUP_LOG": "debug",
        ].merging(environment) { _, extra in extra })
        let settled = await Window.eventually(30) { app.stderr.contains("Freed memory returned to the system") }
        #expect(settled, "no malloc_trim after the first frame:\n\(app.stderr.suffix(3_000))")
        return app
    }

    /// What the process has mapped.
    static func maps(of app: HeadlessProcess) -> String {
        String(decoding: (try? FileHandle(forReadingAtPath: "/proc/\(app.process.processIdentifier)/maps")?.readToEnd()) ?? Data(),
               as: UTF8.self)
    }

    @Test func theMemoryStartUpFreedIsGivenBack() async throws {
        let app = try await Self.launchSettled()
        app.process.terminate()
    }

    @Test func librariesOpenedOnFirstUseAreNotLinkedAndAFirstLaunchLoadsOnlyAvahi() async throws {
        let needed = try ToolProcess.run(["readelf", "--dynamic", HeadlessProcess.binary.path]).output
        #expect(needed.contains("libgtk-4.so"), "readelf printed no dependencies: \(needed.prefix(500))")
        for library in ["libsecret-1", "libqrencode", "libavahi-client", "libavahi-common", "libavahi-glib", "libgstreamer-1.0"] {
            #expect(!needed.contains(library), "listenup links \(library)")
        }
        // By then the setup page's discovery has long opened Avahi; nothing
        // asked for a secret or a QR symbol.
        let app = try await Self.launchSettled()
        defer { app.process.terminate() }
        var maps = ""
        let browsing = await Window.eventually(10) {
            maps = Self.maps(of: app)
            return maps.contains("libavahi-client.so")
        }
        #expect(browsing, "LAN discovery did not open Avahi")
        for library in ["libsecret-1.so", "libqrencode.so", "libgstreamer-1.0.so"] {
            #expect(!maps.contains(library), "a first launch loaded \(library)")
        }
    }

    /// The start-up page (a spinner), the setup page looking for servers
    /// (a spinner), the library and its downloads (the download icons), the
    /// player (its "Nothing Playing" page is built with it); and the
    /// library's status pages, whose icons are drawn at 128 px, a size
    /// Adwaita has only as SVG: the first sync's, an empty library, one that
    /// failed to load, a search with no results, in the books and in a
    /// browse list.
    @Test(arguments: ["loading:loading", "serverSetup:empty", "library:loaded", "library:downloads", "player:playing",
                      "library:loading", "library:empty", "library:failed", "library:no-results", "library:series-no-results"])
    func pagesTheAppIdlesOnDoNotLoadTheSVGLoader(_ preview: String) async throws {
        let app = try await Self.launchSettled(["--preview", preview])
        defer { app.process.terminate() }
        let maps = Self.maps(of: app)
        #expect(maps.contains("libgtk-4.so"), "no maps read")
        #expect(!maps.contains("librsvg"), "\(preview) drew a symbolic icon from an SVG (librsvg loaded)")
    }

    /// The preferences window, on each page: `AdwPreferencesWindow` builds
    /// its search's "No Results" page even with search off, and its icon
    /// is drawn at 128 px.
    @Test(arguments: ["general", "downloads"])
    func thePreferencesDoNotLoadTheSVGLoader(_ page: String) async throws {
        let app = try await Self.launchSettled(["--preview", "library:loaded"], environment: ["LISTENUP_OPEN_PREFERENCES": page])
        defer { app.process.terminate() }
        let maps = Self.maps(of: app)
        #expect(maps.contains("libadwaita"), "no maps read")
        #expect(app.stderr.contains("Preferences opened"), "the preferences were not opened:\n\(app.stderr.suffix(2_000))")
        #expect(!maps.contains("librsvg"), "the preferences (\(page)) drew a symbolic icon from an SVG (librsvg loaded)")
    }
}
