import CAdwaita
import Foundation
import GtkBridge
import XCTest

/// The icon theme read on a worker thread (``IconThemeLoad``): once it is
/// done, a look-up on the main thread finds what was read then, and does not
/// read the theme again.
final class IconThemeLoadTests: XCTestCase {
    func testTheThemeIsReadBeforeTheMainThreadLooksAnIconUp() throws {
        try MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let display = try XCTUnwrap(gdk_display_get_default())
            let theme = gtk_icon_theme_get_for_display(display)
            // An icon in a search path of its own, as the app adds its own.
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("icon-theme-load-\(UUID().uuidString)")
            let icons = folder.appendingPathComponent("hicolor/16x16/apps")
            try FileManager.default.createDirectory(at: icons, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let name = "listenup-icon-theme-load-test"
            try Self.png.write(to: icons.appendingPathComponent("\(name).png"))
            gtk_icon_theme_add_search_path(theme, folder.path)

            var read = false
            IconThemeLoad.start(for: display) { read = true }
            MainContext.iterate(until: { read }, timeout: .seconds(10))
            XCTAssertTrue(read, "the worker never finished reading the theme")

            // Gone from disk now: only a theme read before this point has it.
            // Without the worker's read, this look-up would read the theme
            // itself, on the main thread, and not find the icon.
            try FileManager.default.removeItem(at: folder)
            XCTAssertNotEqual(gtk_icon_theme_has_icon(theme, name), 0)
        }
    }

    /// A 1×1 PNG.
    private static let png = Data(base64Encoded:
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==") ?? Data()
}
