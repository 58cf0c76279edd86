import CAdwaita
import GtkBridge
import XCTest
@testable import ListenUpUI

final class GlassThemeTests: XCTestCase {
    func testModeDecision() {
        XCTAssertEqual(GlassMode.resolve(composited: true, highContrast: false), .translucent)
        XCTAssertEqual(GlassMode.resolve(composited: false, highContrast: false), .opaque)
        XCTAssertEqual(GlassMode.resolve(composited: true, highContrast: true), .opaque)
        XCTAssertEqual(GlassMode.resolve(composited: false, highContrast: false, override: .translucent), .translucent)
        XCTAssertEqual(GlassMode.resolve(composited: true, highContrast: true, override: .translucent), .opaque, "high contrast wins")
        XCTAssertEqual(GlassMode.resolve(composited: true, highContrast: false, override: .opaque), .opaque)
    }

    func testXvfbDoesNotCompositeSoTheDefaultIsTheFallback() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            XCTAssertFalse(GtkRuntime.displayIsComposited)
            let theme = GlassTheme(data: checkoutData(), override: nil, logger: quietLogger)
            defer { theme.invalidate() }
            XCTAssertEqual(theme.mode, .opaque)
        }
    }

    func testWindowsCarryTheModeClassAndFollowUpdates() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let theme = GlassTheme(data: checkoutData(), override: .translucent, logger: quietLogger)
            defer { theme.invalidate() }
            let window = TestWindow(child: newObject(gtk_label_new("x")))
            defer { window.close() }
            theme.attach(window.window)
            XCTAssertTrue(window.window.hasClass(.glassTranslucent))
            XCTAssertFalse(window.window.hasClass(.glassOpaque))
            // A high-contrast notification re-evaluates (the value itself comes
            // from libadwaita; here it is unchanged, so the mode stays).
            g_object_notify(adw_style_manager_get_default()?.rawPointer.assumingMemoryBound(to: GObject.self), "high-contrast")
            XCTAssertEqual(theme.mode, .translucent)
        }
    }

    func testDataFolderIsFoundFromTheCheckoutAndFromAnInstalledPrefix() throws {
        let checkout = try XCTUnwrap(checkoutData())
        XCTAssertTrue(FileManager.default.fileExists(atPath: checkout.file("style-dark.css").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: checkout.file("style-hc.css").path))

        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-prefix-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: prefix) }
        let share = prefix.appendingPathComponent("share/listenup")
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: checkout.file("style.css"), to: share.appendingPathComponent("style.css"))
        let found = DataDirectory.locate(environment: [:], executable: prefix.appendingPathComponent("bin/listenup"))
        XCTAssertEqual(found?.url.path, share.standardizedFileURL.path)

        let explicit = DataDirectory.locate(environment: ["LISTENUP_DATA_DIR": share.path], executable: URL(fileURLWithPath: "/x/y"))
        XCTAssertEqual(explicit?.url.path, share.standardizedFileURL.path)
    }
}
