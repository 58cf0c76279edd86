import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore
import Pairing
import XCTest
@testable import ListenUpUI

/// The app's furniture: window state kept across runs, the preferences
/// window, the shortcuts window, the accelerators.
final class AppFurnitureTests: XCTestCase {
    func testTheWindowOpensAtItsSavedSizeAndSavesItOnClose() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let settings = SettingsClient.inMemory(AppSettings(window: WindowState(width: 1111, height: 777, maximized: false)))
            var dependencies = Dependencies.test()
            dependencies.settings = settings
            let navigator = AppNavigator(registry: .standard, dependencies: dependencies)
            withApplication("WindowStateTest") { app in
                let main = MainWindow(application: app, navigator: navigator, pages: .standard, logger: quietLogger)
                var width: Int32 = 0
                var height: Int32 = 0
                gtk_window_get_default_size(main.window.cast(to: GtkWindow.self), &width, &height)
                XCTAssertEqual([width, height], [1111, 777])
                main.present()
                MainContext.iterate(until: { gtk_widget_get_mapped(main.window) != 0 })
                gtk_window_set_default_size(main.window.cast(to: GtkWindow.self), 1000, 700)
                gtk_window_close(main.window.cast(to: GtkWindow.self)) // close-request saves
                MainContext.drainPending()
            }
            XCTAssertEqual(settings.load().window, WindowState(width: 1000, height: 700, maximized: false))
        }
    }

    func testATooSmallSavedSizeIsNotRestored() {
        XCTAssertEqual(WindowState(width: 20, height: 10).restoredSize.width, WindowState.defaultWidth)
        XCTAssertEqual(WindowState(width: 800, height: 600).restoredSize.height, 600)
        XCTAssertEqual(WindowState(width: 90_000, height: 600).restoredSize.width, WindowState.defaultWidth)
    }

    func testPreferencesSaveTheAppearanceRevokeDevicesAndKnowWhenSignOutApplies() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let settings = SettingsClient.inMemory()
            let device = PairedDevice(id: "dev-1", name: "Anna’s Pixel", model: "Pixel 8", pairedAt: Date(), lastSeen: Date(),
                                      expiresAt: Date().addingTimeInterval(3600))
            let paired = LockedValue([device])
            var dependencies = Dependencies.test()
            dependencies.settings = settings
            dependencies.pairing = PairingClient(events: { AsyncStream { _ in } }, start: {}, open: {}, close: {}, answer: { _, _ in },
                                                 devices: { paired.value }, revoke: { id in paired.value.removeAll { $0.id == id } })
            let navigator = AppNavigator(registry: .standard, dependencies: dependencies)
            // Signed out of a known server: the auth state says which.
            navigator.update(.needsLogin(KnownServer(url: URL(string: "https://books.example.org")!)))
            withApplication("PreferencesTest") { app in
                let main = MainWindow(application: app, navigator: navigator, pages: .standard, logger: quietLogger)
                let preferences = PreferencesWindow(model: navigator.makePreferences(), parent: main.window) {}
                preferences.present()
                MainContext.iterate(until: { gtk_widget_get_mapped(preferences.window) != 0 })
                let labels = Self.texts(in: preferences.window)
                XCTAssertTrue(labels.contains("https://books.example.org"), "\(labels)")
                XCTAssertTrue(labels.contains("Anna’s Pixel"))
                XCTAssertFalse(Self.button("Sign Out", in: preferences.window).map { gtk_widget_get_sensitive($0) != 0 } ?? true,
                               "signed out: nothing to sign out of")

                // Dark: saved, and applied through the style manager.
                let dark = Self.checkButtons(in: preferences.window).first { Self.rowTitle($0) == "Dark" }
                XCTAssertNotNil(dark)
                if let dark { gtk_check_button_set_active(dark.cast(to: GtkCheckButton.self), 1) }
                MainContext.drainPending()
                XCTAssertEqual(settings.load().colorScheme, .dark)
                MainContext.iterate(until: { adw_style_manager_get_color_scheme(adw_style_manager_get_default()) == ADW_COLOR_SCHEME_FORCE_DARK },
                                    timeout: .seconds(2))
                XCTAssertEqual(adw_style_manager_get_color_scheme(adw_style_manager_get_default()), ADW_COLOR_SCHEME_FORCE_DARK)

                // Revoke: the device is gone from the store and the window.
                if let revoke = Self.button("Revoke", in: preferences.window) { emit("clicked", on: revoke) }
                MainContext.iterate(until: { !Self.texts(in: preferences.window).contains("Anna’s Pixel") }, timeout: .seconds(2))
                XCTAssertTrue(paired.value.isEmpty)
                XCTAssertTrue(Self.texts(in: preferences.window).contains("No devices are paired with this computer yet."))

                Appearance.apply(.system)
                gtk_window_destroy(preferences.window.cast(to: GtkWindow.self))
                gtk_window_destroy(main.window.cast(to: GtkWindow.self))
                MainContext.drainPending()
            }
        }
    }

    func testTheShortcutsWindowBuildsAndListsEveryAccelerator() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            // Every accelerator of every GtkShortcutsShortcut in the template.
            let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            guard let xml = try? String(contentsOf: checkout.appendingPathComponent("data/ui/shortcuts-window.ui"), encoding: .utf8) else {
                return XCTFail("no shortcuts-window.ui")
            }
            let window: Window = PageTemplates.load("shortcuts-window").child("root")
            window.destroy()
            let listed = xml.components(separatedBy: "<property name=\"accelerator\">").dropFirst()
                .compactMap { $0.components(separatedBy: "</property>").first }
                .joined(separator: " ").replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            for (action, accelerators) in ListenUpApplication.accelerators {
                for accelerator in accelerators {
                    XCTAssertTrue(listed.contains(accelerator), "\(action) \(accelerator) missing from the shortcuts window")
                }
            }
            // The player's keys, each exactly (Left is not <Control>Left).
            let keys = Set(listed.split(separator: " ").map(String.init))
            let triggers = MainWindow.playerKeys.flatMap(\.triggers)
            XCTAssertEqual(triggers.count, 14)
            for trigger in triggers {
                XCTAssertTrue(keys.contains(trigger), "the player's \(trigger) missing from the shortcuts window")
            }
        }
    }

    func testTheAboutWindowShowsTheAppsFactsFromItsTemplate() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let about = AboutWindow.make()
            defer { about.window.destroy() }
            let shown = about.shown
            XCTAssertEqual(shown.name, "ListenUp")
            // The template spells out what AppInfo knows: the two must agree.
            XCTAssertEqual(shown.icon, AppInfo.id)
            XCTAssertEqual(shown.website, AppInfo.website)
            XCTAssertEqual(shown.issues, AppInfo.issues)
            XCTAssertEqual(about.version, AppInfo.version)
            XCTAssertEqual(shown.developer, tr("The ListenUp for Linux developers"))
            XCTAssertEqual(shown.comments, tr("Listen to the audiobooks on your own ListenUp server."))
            XCTAssertEqual(shown.license, GTK_LICENSE_GPL_3_0)
            XCTAssertTrue(about.window.isModal)
            // Untranslated (the tests run in English): no credits line.
            XCTAssertEqual(about.translatorCredits, "")
        }
    }

    // MARK: Widget tree helpers

    @MainActor
    static func descendants(of root: UnsafeMutablePointer<GtkWidget>) -> [UnsafeMutablePointer<GtkWidget>] {
        var result: [UnsafeMutablePointer<GtkWidget>] = []
        var child = gtk_widget_get_first_child(root)
        while let current = child {
            result.append(current)
            result += descendants(of: current)
            child = gtk_widget_get_next_sibling(current)
        }
        return result
    }

    @MainActor
    static func texts(in root: UnsafeMutablePointer<GtkWidget>) -> [String] {
        descendants(of: root).compactMap { widget in
            guard g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self),
                                             gtk_label_get_type()) != 0,
                  gtk_widget_get_visible(widget) != 0 else { return nil }
            return String(cString: gtk_label_get_label(OpaquePointer(widget)))
        }
    }

    @MainActor
    static func button(_ label: String, in root: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        descendants(of: root).first { widget in
            g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self), gtk_button_get_type()) != 0
                && gtk_button_get_label(widget.cast(to: GtkButton.self)).map { String(cString: $0) } == label
        }
    }

    @MainActor
    static func checkButtons(in root: UnsafeMutablePointer<GtkWidget>) -> [UnsafeMutablePointer<GtkWidget>] {
        descendants(of: root).filter { widget in
            g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self), gtk_check_button_get_type()) != 0
        }
    }

    @MainActor
    /// The title of the `AdwActionRow` holding `widget`.
    static func rowTitle(_ widget: UnsafeMutablePointer<GtkWidget>) -> String? {
        var row = gtk_widget_get_parent(widget)
        while let current = row, g_type_check_instance_is_a(UnsafeMutableRawPointer(current).assumingMemoryBound(to: GTypeInstance.self),
                                                                adw_action_row_get_type()) == 0 {
            row = gtk_widget_get_parent(current)
        }
        return row.flatMap { adw_preferences_row_get_title($0.cast(to: AdwPreferencesRow.self)) }.map { String(cString: $0) }
    }
}
