import CAdwaita
import Foundation
import GtkBridge
import XCTest
@testable import ListenUpCore
@testable import ListenUpUI

/// Preferences → Playback: the rows follow the playback settings, an edit
/// is saved (here, with no server: on this computer) and reaches the
/// player, and where the server keeps them the group says so.
final class PlaybackPreferencesTests: XCTestCase {
    func testTheDefaultsAreShownEditedAndSaidToBeKeptOnTheServer() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let dependencies = Dependencies.test(settings: AppSettings(playback: PlaybackSettings(defaultSleepTimerMinutes: 20)))
            let navigator = AppNavigator(registry: .standard, dependencies: dependencies)
            // The library preview has a player whose preferences speak as today's server's.
            XCTAssertTrue(navigator.preview(.library, state: "downloads"))
            withApplication("PlaybackPreferencesTest") { app in
                let main = MainWindow(application: app, navigator: navigator, pages: .standard, logger: quietLogger)
                let preferences = PreferencesWindow(model: navigator.makePreferences(), parent: main.window) {}
                preferences.present()
                defer {
                    gtk_window_destroy(preferences.window.cast(to: GtkWindow.self))
                    gtk_window_destroy(main.window.cast(to: GtkWindow.self))
                    MainContext.drainPending()
                }
                MainContext.iterate(until: { gtk_widget_get_mapped(preferences.window) != 0 })
                let texts = AppFurnitureTests.texts(in: preferences.window)
                for text in ["Default Speed", "Default Sleep Timer", "Default Volume Boost", "Even Out Loudness",
                             "Levels books recorded at different volumes", "Kept on your server for all your devices."] {
                    XCTAssertTrue(texts.contains(text), "\(text) in \(texts)")
                }
                let group = preferences.playback
                XCTAssertEqual(gtk_switch_get_active(group.sleepSwitch.opaque), 1)
                XCTAssertEqual(gtk_spin_button_get_value(group.sleepMinutes.opaque), 20)

                gtk_spin_button_set_value(group.speed.opaque, 1.5)
                gtk_spin_button_set_value(group.boost.opaque, 6)
                gtk_switch_set_active(group.loudness.opaque, 1)
                XCTAssertTrue(MainContext.iterate(until: {
                    let saved = dependencies.settings.load().playback
                    return saved.rate == 1.5 && saved.defaultVolumeBoostDb == 6 && saved.evenLoudness
                }), "\(dependencies.settings.load().playback)")
                XCTAssertEqual(navigator.player?.evenLoudness, true, "the player follows")
                gtk_switch_set_active(group.sleepSwitch.opaque, 0)
                XCTAssertTrue(MainContext.iterate(until: { dependencies.settings.load().playback.defaultSleepTimerMinutes == nil }))
            }
        }
    }

    /// Preferences → General → Background: the switch shows the saved
    /// setting (on unless turned off) and saves a change.
    func testKeepPlayingWhenClosedIsShownAndSaved() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let dependencies = Dependencies.test(settings: AppSettings())
            let navigator = AppNavigator(registry: .standard, dependencies: dependencies)
            XCTAssertTrue(navigator.preview(.library, state: "downloads"))
            withApplication("KeepPlayingPreferencesTest") { app in
                let main = MainWindow(application: app, navigator: navigator, pages: .standard, logger: quietLogger)
                let preferences = PreferencesWindow(model: navigator.makePreferences(), parent: main.window) {}
                preferences.present()
                defer {
                    gtk_window_destroy(preferences.window.cast(to: GtkWindow.self))
                    gtk_window_destroy(main.window.cast(to: GtkWindow.self))
                    MainContext.drainPending()
                }
                MainContext.iterate(until: { gtk_widget_get_mapped(preferences.window) != 0 })
                let texts = AppFurnitureTests.texts(in: preferences.window)
                for text in ["Background", "Keep Playing When Closed", "The launcher or the media controls bring the window back"] {
                    XCTAssertTrue(texts.contains(text), "\(text) in \(texts)")
                }
                XCTAssertEqual(gtk_switch_get_active(preferences.keepPlaying.opaque), 1, "on by default")
                gtk_switch_set_active(preferences.keepPlaying.opaque, 0)
                XCTAssertTrue(MainContext.iterate(until: { !dependencies.settings.load().keepsPlayingWhenClosed }))
                gtk_switch_set_active(preferences.keepPlaying.opaque, 1)
                XCTAssertTrue(MainContext.iterate(until: { dependencies.settings.load().keepsPlayingWhenClosed }))
            }
        }
    }
}
