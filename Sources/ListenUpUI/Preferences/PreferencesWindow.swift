import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore
import PairingProtocol

/// The preferences window (`AdwPreferencesWindow`): on its General page,
/// Server and account with Sign Out, Appearance (follow the system, light,
/// dark), the devices signed in to the account (``AccountSessionsGroup``),
/// Background (keep playing when closed), Playback and the paired
/// devices with Revoke; on its Downloads
/// page, the downloads (``DownloadsGroup``: a list as long as the books
/// downloaded, so a page of its own). Follows its ``PreferencesModel`` live.
@MainActor
final class PreferencesWindow {
    /// The window; it destroys itself when closed.
    let window: UnsafeMutablePointer<GtkWidget>
    private var root: PreferencesWindowHandle { PreferencesWindowHandle(unchecked: window) }
    private let model: PreferencesModel
    private let serverRow: ActionRow, accountRow: ActionRow
    private let signOutButton: Button
    private let schemeButtons: [(ColorSchemePreference, CheckButton)]
    /// Preferences → Background: Keep Playing When Closed.
    let keepPlaying: Switch
    /// Preferences → Playback.
    let playback: PlaybackGroup
    private let devices: PairedDeviceList
    /// Preferences → Downloads.
    let downloads: DownloadsGroup
    /// Preferences → General → Signed-In Devices.
    let accountSessions: AccountSessionsGroup
    /// The pages, in the window's order.
    enum Page: String, CaseIterable {
        /// The General page scrolled to Playback (for screenshots and links).
        case general, playback, downloads
    }
    private let pages: [Page: Widget]
    private var connections: [SignalConnection] = []
    private var observation: StateObservation?
    private var onClose: (@MainActor () -> Void)?
    private var scrollToPlayback: MainLoopSource?

    /// The tree is `data/ui/preferences-window.ui`.
    init(model: PreferencesModel, parent: UnsafeMutablePointer<GtkWidget>, onClose: @escaping @MainActor () -> Void) {
        self.model = model
        self.onClose = onClose
        let ui = PageTemplates.load("preferences-window")
        window = ui.child("root", as: PreferencesWindowHandle.self).pointer
        gtk_window_set_transient_for(window.cast(to: GtkWindow.self), parent.cast(to: GtkWindow.self))
        (serverRow, accountRow, signOutButton) = (ui.child("server-row"), ui.child("account-row"), ui.child("sign-out"))
        schemeButtons = [(.system, ui.child("scheme-system")), (.light, ui.child("scheme-light")), (.dark, ui.child("scheme-dark"))]
        keepPlaying = ui.child("keep-playing")
        playback = PlaybackGroup(model: model, template: ui)
        devices = PairedDeviceList(in: .preferencesGroup(ui.child("devices")), detail: .lastSeen,
                                   emptyTitle: tr("No devices are paired with this computer yet.")) { [weak model] id in
            model?.revoke(deviceID: id)
        }
        downloads = DownloadsGroup(model: model, template: ui, parent: window)
        accountSessions = AccountSessionsGroup(sessions: { [weak model] in model?.accountSessions }, template: ui)
        pages = [.general: ui.child("general"), .downloads: ui.child("downloads-page")]
        // Each page's scrolled window can take focus; name it after the page.
        pages[.general]?.firstDescendant(ofType: gtk_scrolled_window_get_type())?.setAccessibleLabel(tr("General"))
        pages[.downloads]?.firstDescendant(ofType: gtk_scrolled_window_get_type())?.setAccessibleLabel(tr("Downloads"))

        Self.drawSearchIconFromPNG(in: window)

        connections.append(signOutButton.connect(.clicked) { [weak self] in self?.model.signOut() })
        for (scheme, check) in schemeButtons {
            connections.append(check.connect(.notify("active")) { [weak self] in
                guard let self, check.isChecked else { return }
                self.model.setColorScheme(scheme)
            })
        }
        connections.append(keepPlaying.connect(.notify("active")) { [weak self] in
            guard let self else { return }
            self.model.setKeepsPlayingWhenClosed(self.keepPlaying.isOn)
        })
        connections.append(window.connect(.destroy) { [weak self] in self?.closed() })
        observation = StateObservation { [weak self] in self?.follow() }
    }

    /// `AdwPreferencesWindow` builds its search's "No Results" page even
    /// with search off, and GTK loads that page's 128 px
    /// `edit-find-symbolic` as soon as the window is styled: a size Adwaita
    /// has only as SVG, so librsvg would load and stay (about 8 MiB). The
    /// app's own search icon, the library's "No Results" one, is the same
    /// picture as PNGs (`build-aux/render-symbolic-icons`). Done before the
    /// window is shown; a libadwaita that names the icon otherwise is left
    /// as it is.
    private static func drawSearchIconFromPNG(in window: UnsafeMutablePointer<GtkWidget>) {
        for page in window.descendants(ofType: StatusPage.gtkType).map(StatusPage.init(unchecked:))
        where page.iconName == "edit-find-symbolic" {
            page.iconName = "listenup-search-symbolic"
        }
    }

    func present() {
        Window(unchecked: window).present()
    }

    /// Shows `page`.
    func show(_ page: Page) {
        guard let widget = pages[page == .playback ? .general : page] else { return }
        root.showPage(widget)
        // Once laid out, the page scrolls down to the group.
        if page == .playback, let scroller = widget.firstDescendant(ofType: gtk_scrolled_window_get_type()) {
            scrollToPlayback = MainContext.every(.milliseconds(20)) { [weak self] in
                guard let self else { return false }
                let adjustment = gtk_scrolled_window_get_vadjustment(scroller.opaque)
                let bottom = gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment)
                guard bottom > 0 else { return true }
                var bounds = graphene_rect_t()
                let top = gtk_widget_compute_bounds(self.playback.widget, scroller, &bounds) != 0
                    ? Double(bounds.origin.y) + gtk_adjustment_get_value(adjustment) - 12 : bottom
                gtk_adjustment_set_value(adjustment, min(top, bottom))
                return false
            }
        }
    }

    private func follow() {
        serverRow.subtitle = model.serverURL ?? tr("No server is set up yet.")
        accountRow.subtitle = model.userName.map { tr("Signed in as %@", $0) } ?? tr("Not signed in")
        signOutButton.isSensitive = model.canSignOut
        for (scheme, check) in schemeButtons where scheme == model.colorScheme { check.isChecked = true }
        if keepPlaying.isOn != model.keepsPlayingWhenClosed { keepPlaying.isOn = model.keepsPlayingWhenClosed }
        Appearance.apply(model.colorScheme)
        devices.show(model.devices)
        if let notice = model.notice {
            root.showToast(notice)
            model.notice = nil
        }
    }

    private func closed() {
        observation?.cancel()
        observation = nil
        downloads.teardown()
        playback.teardown()
        accountSessions.teardown()
        connections.removeAll()
        onClose?()
        onClose = nil
    }
}

/// The app's colour scheme through libadwaita's style manager.
@MainActor
enum Appearance {
    static func apply(_ preference: ColorSchemePreference) {
        let scheme: AdwColorScheme = switch preference {
        case .system: ADW_COLOR_SCHEME_DEFAULT
        case .light: ADW_COLOR_SCHEME_FORCE_LIGHT
        case .dark: ADW_COLOR_SCHEME_FORCE_DARK
        }
        let manager = adw_style_manager_get_default()
        if adw_style_manager_get_color_scheme(manager) != scheme { adw_style_manager_set_color_scheme(manager, scheme) }
    }
}
