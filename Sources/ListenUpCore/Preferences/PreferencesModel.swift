import Foundation
import Observation
import PairingProtocol

/// The preferences window: the server and account (with Sign Out), the
/// paired devices (with Revoke), the appearance, and the downloads.
///
/// `@MainActor`; made by ``AppNavigator/makePreferences()``, it reads the
/// navigator's auth state live, so Sign Out greys out the moment the user is
/// signed out elsewhere. A failure the user should hear about (a setting not
/// saved, a device not revoked) lands in ``notice`` for a toast.
@MainActor @Observable
public final class PreferencesModel {
    /// The appearance chosen, as saved.
    public private(set) var colorScheme: ColorSchemePreference
    /// Whether closing the window while a book plays leaves it playing, as saved.
    public private(set) var keepsPlayingWhenClosed: Bool
    /// Paired devices, oldest first.
    public private(set) var devices: [PairedDevice] = []
    /// A one-line message for a toast; the window clears it once shown.
    public var notice: String?
    /// Counts the playback changes that did not take (the server did not
    /// answer): the window shows the kept values again when it moves.
    public internal(set) var playbackRefusals = 0

    @ObservationIgnored private let settings: SettingsClient
    @ObservationIgnored private let pairing: PairingClient
    @ObservationIgnored weak var navigator: AppNavigator?
    /// The playback settings when no session keeps them (signed out).
    @ObservationIgnored let localPreferences: AccountPreferencesSync

    init(navigator: AppNavigator, settings: SettingsClient, pairing: PairingClient, localPreferences: AccountPreferencesSync) {
        self.navigator = navigator
        self.settings = settings
        self.pairing = pairing
        self.localPreferences = localPreferences
        let saved = settings.load()
        colorScheme = saved.colorScheme
        keepsPlayingWhenClosed = saved.keepsPlayingWhenClosed
        devices = pairing.devices()
    }

    /// The server the app talks to, if one is set up.
    public var serverURL: String? {
        navigator?.authState.serverURL?.absoluteString
    }

    /// The signed-in user's name, when signed in.
    public var userName: String? {
        if case .authenticated(let session) = navigator?.authState { session.displayName } else { nil }
    }

    /// The signed-in session's downloads (Preferences → Downloads: the
    /// space they use, each one with Remove, and Remove All); nil when
    /// signed out.
    public var downloads: DownloadsModel? {
        navigator?.downloads
    }

    /// Where the account is signed in (Preferences → Signed-In Devices);
    /// nil when signed out.
    public var accountSessions: AccountSessionsModel? {
        navigator?.signedIn?.accountSessions
    }

    /// Whether Sign Out can do anything now.
    public var canSignOut: Bool {
        if case .authenticated = navigator?.authState { true } else { false }
    }

    /// Saves `scheme`; the window applies it (libadwaita's style manager).
    public func setColorScheme(_ scheme: ColorSchemePreference) {
        guard scheme != colorScheme else { return }
        if save(\.colorScheme, scheme, failure: tr("The appearance could not be saved.")) { colorScheme = scheme }
    }

    /// Saves whether closing the window while a book plays leaves it
    /// playing; the app reads it at each close.
    public func setKeepsPlayingWhenClosed(_ on: Bool) {
        guard on != keepsPlayingWhenClosed else { return }
        if save(\.keepsPlayingWhenClosed, on, failure: tr("The setting could not be saved.")) { keepsPlayingWhenClosed = on }
    }

    /// Writes one setting of this computer's; a failure is said in
    /// ``notice`` with `failure`.
    /// - Returns: whether it was saved.
    private func save<Value>(_ key: WritableKeyPath<AppSettings, Value>, _ value: Value, failure: String) -> Bool {
        var saved = settings.load()
        saved[keyPath: key] = value
        do {
            try settings.save(saved)
            return true
        } catch {
            notice = failure
            return false
        }
    }

    /// Signs out of the server (as the primary menu's Sign Out does).
    public func signOut() {
        navigator?.signOut()
    }

    /// Forgets a paired device; its token stops working at once.
    public func revoke(deviceID: String) {
        do {
            try pairing.revoke(deviceID)
        } catch {
            notice = tr("The device could not be removed. Try again.")
        }
        devices = pairing.devices()
    }

    /// Reads the paired devices again (the window was shown again).
    public func refreshDevices() {
        devices = pairing.devices()
    }
}

extension AppNavigator {
    /// A model for the preferences window, over this navigator's services.
    public func makePreferences() -> PreferencesModel {
        PreferencesModel(navigator: self, settings: settings, pairing: pairingClient,
                         localPreferences: AccountPreferencesSync(dependencies: dependencies, session: nil, player: nil))
    }
}
