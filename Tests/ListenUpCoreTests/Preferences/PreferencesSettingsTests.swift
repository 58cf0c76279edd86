import Foundation
import ListenUpTestSupport
import Testing
@testable import ListenUpCore

/// Preferences → General: the appearance and Keep Playing When Closed are
/// saved on this computer; a write that fails says so and keeps the old value.
@MainActor
@Suite("Preferences: this computer's settings")
struct PreferencesSettingsTests {
    struct Refused: Error {}

    func preferences(refusing: Bool) -> (PreferencesModel, LockedValue<AppSettings>) {
        let stored = LockedValue(AppSettings())
        var dependencies = Dependencies.test()
        dependencies.settings = SettingsClient(load: { stored.value }, save: { settings in
            if refusing { throw Refused() }
            stored.value = settings
        })
        let navigator = AppNavigator(registry: .standard, dependencies: dependencies)
        return (navigator.makePreferences(), stored)
    }

    @Test func bothAreSaved() {
        let (model, stored) = preferences(refusing: false)
        #expect(model.keepsPlayingWhenClosed && model.colorScheme == .system)
        model.setKeepsPlayingWhenClosed(false)
        model.setColorScheme(.dark)
        #expect(!model.keepsPlayingWhenClosed && model.colorScheme == .dark)
        #expect(!stored.value.keepsPlayingWhenClosed && stored.value.colorScheme == .dark)
        #expect(model.notice == nil)
    }

    @Test func aRefusedWriteIsSaidAndKeepsTheOldValue() {
        let (model, stored) = preferences(refusing: true)
        model.setKeepsPlayingWhenClosed(false)
        #expect(model.keepsPlayingWhenClosed && stored.value.keepsPlayingWhenClosed)
        #expect(model.notice == "The setting could not be saved.")
        model.notice = nil
        model.setColorScheme(.light)
        #expect(model.colorScheme == .system)
        #expect(model.notice == "The appearance could not be saved.")
    }
}
