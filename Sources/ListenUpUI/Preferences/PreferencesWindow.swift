import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore
import Pairing

/// The preferences window (`AdwPreferencesWindow`): on its General page,
/// Server and account with Sign Out, Appearance (follow the system, light,
/// dark), Playback and the paired devices with Revoke; on its Downloads
/// page, the downloads (``DownloadsGroup``: a list as long as the books
/// downloaded, so a page of its own). Follows its ``PreferencesModel`` live.
@MainActor
final class PreferencesWindow {
    /// The window; it destroys itself when closed.
    let window: UnsafeMutablePointer<GtkWidget>
    private let model: PreferencesModel
    private let serverRow: UnsafeMutablePointer<GtkWidget>
    private let accountRow: UnsafeMutablePointer<GtkWidget>
    private let signOutButton: UnsafeMutablePointer<GtkWidget>
    private let schemeButtons: [(ColorSchemePreference, UnsafeMutablePointer<GtkWidget>)]
    /// Preferences → Playback.
    let playback: PlaybackGroup
    private let devicesGroup: UnsafeMutablePointer<GtkWidget>
    private let devices: PairedDeviceList
    /// Preferences → Downloads.
    let downloads: DownloadsGroup
    /// The pages, in the window's order.
    enum Page: String, CaseIterable {
        /// The General page scrolled to Playback (for screenshots and links).
        case general, playback, downloads
    }
    private let pages: [Page: UnsafeMutablePointer<GtkWidget>]
    private var connections: [SignalConnection] = []
    private var observation: StateObservation?
    private var onClose: (@MainActor () -> Void)?
    private var scrollToPlayback: MainLoopSource?

    init(model: PreferencesModel, parent: UnsafeMutablePointer<GtkWidget>, onClose: @escaping @MainActor () -> Void) {
        self.model = model
        self.onClose = onClose
        window = newObject(adw_preferences_window_new())
        gtk_window_set_title(window.cast(to: GtkWindow.self), tr("Preferences"))
        gtk_window_set_transient_for(window.cast(to: GtkWindow.self), parent.cast(to: GtkWindow.self))
        gtk_window_set_modal(window.cast(to: GtkWindow.self), 1)
        gtk_window_set_default_size(window.cast(to: GtkWindow.self), 600, 640)
        adw_preferences_window_set_search_enabled(window.cast(to: AdwPreferencesWindow.self), 0)

        let page = newObject(adw_preferences_page_new())
        adw_preferences_page_set_title(page.cast(to: AdwPreferencesPage.self), tr("General"))
        adw_preferences_page_set_icon_name(page.cast(to: AdwPreferencesPage.self), "preferences-system-symbolic")

        // Server and account.
        let server = Self.group(tr("Server"), description: nil)
        serverRow = newObject(adw_action_row_new())
        adw_preferences_row_set_title(serverRow.cast(to: AdwPreferencesRow.self), tr("Address"))
        accountRow = newObject(adw_action_row_new())
        adw_preferences_row_set_title(accountRow.cast(to: AdwPreferencesRow.self), tr("Account"))
        signOutButton = newObject(gtk_button_new_with_label(tr("Sign Out")))
        gtk_widget_set_valign(signOutButton, GTK_ALIGN_CENTER)
        signOutButton.setAccessibleDescription(tr("Signs out of the server on this computer; the library saved here stays"))
        adw_action_row_add_suffix(accountRow.cast(to: AdwActionRow.self), signOutButton)
        adw_preferences_group_add(server.cast(to: AdwPreferencesGroup.self), serverRow)
        adw_preferences_group_add(server.cast(to: AdwPreferencesGroup.self), accountRow)

        // Appearance: three rows with grouped check buttons (radio behaviour).
        let appearance = Self.group(tr("Appearance"), description: nil)
        var buttons: [(ColorSchemePreference, UnsafeMutablePointer<GtkWidget>)] = []
        let titles: [(ColorSchemePreference, String)] = [
            (.system, tr("Follow System Style")), (.light, tr("Light")), (.dark, tr("Dark")),
        ]
        for (scheme, title) in titles {
            let row = newObject(adw_action_row_new())
            adw_preferences_row_set_title(row.cast(to: AdwPreferencesRow.self), title)
            let check = newObject(gtk_check_button_new())
            gtk_widget_set_valign(check, GTK_ALIGN_CENTER)
            check.setAccessibleLabel(title)
            if let first = buttons.first?.1 { gtk_check_button_set_group(check.cast(to: GtkCheckButton.self), first.cast(to: GtkCheckButton.self)) }
            adw_action_row_add_prefix(row.cast(to: AdwActionRow.self), check)
            adw_action_row_set_activatable_widget(row.cast(to: AdwActionRow.self), check)
            adw_preferences_group_add(appearance.cast(to: AdwPreferencesGroup.self), row)
            buttons.append((scheme, check))
        }
        schemeButtons = buttons

        // Playback: skip lengths, the defaults, loudness.
        playback = PlaybackGroup(model: model)

        // Paired devices.
        devicesGroup = Self.group(tr("Paired Devices"),
                                  description: tr("Phones and tablets that may reach this computer's library. Revoke one to lock it out at once."))
        devices = PairedDeviceList(in: .preferencesGroup(devicesGroup), detail: .lastSeen,
                                   emptyTitle: tr("No devices are paired with this computer yet.")) { [weak model] id in
            model?.revoke(deviceID: id)
        }

        adw_preferences_page_add(page.cast(to: AdwPreferencesPage.self), server.cast(to: AdwPreferencesGroup.self))
        adw_preferences_page_add(page.cast(to: AdwPreferencesPage.self), appearance.cast(to: AdwPreferencesGroup.self))
        adw_preferences_page_add(page.cast(to: AdwPreferencesPage.self), playback.widget.cast(to: AdwPreferencesGroup.self))
        adw_preferences_page_add(page.cast(to: AdwPreferencesPage.self), devicesGroup.cast(to: AdwPreferencesGroup.self))
        adw_preferences_window_add(window.cast(to: AdwPreferencesWindow.self), page.cast(to: AdwPreferencesPage.self))

        let downloadsPage = newObject(adw_preferences_page_new())
        adw_preferences_page_set_title(downloadsPage.cast(to: AdwPreferencesPage.self), tr("Downloads"))
        adw_preferences_page_set_icon_name(downloadsPage.cast(to: AdwPreferencesPage.self), "folder-download-symbolic")
        downloads = DownloadsGroup(model: model, parent: window)
        adw_preferences_page_add(downloadsPage.cast(to: AdwPreferencesPage.self), downloads.widget.cast(to: AdwPreferencesGroup.self))
        adw_preferences_window_add(window.cast(to: AdwPreferencesWindow.self), downloadsPage.cast(to: AdwPreferencesPage.self))
        pages = [.general: page, .downloads: downloadsPage]
        // Each page's scrolled window can take focus; name it after the page.
        page.firstDescendant(ofType: gtk_scrolled_window_get_type())?.setAccessibleLabel(tr("General"))
        downloadsPage.firstDescendant(ofType: gtk_scrolled_window_get_type())?.setAccessibleLabel(tr("Downloads"))

        connections.append(signOutButton.connect(.clicked) { [weak self] in self?.model.signOut() })
        for (scheme, check) in schemeButtons {
            connections.append(check.connect(.notify("active")) { [weak self] in
                guard let self, gtk_check_button_get_active(check.cast(to: GtkCheckButton.self)) != 0 else { return }
                self.model.setColorScheme(scheme)
            })
        }
        connections.append(window.connect(.destroy) { [weak self] in self?.closed() })
        observation = StateObservation { [weak self] in self?.follow() }
    }

    func present() {
        gtk_window_present(window.cast(to: GtkWindow.self))
    }

    /// Shows `page`.
    func show(_ page: Page) {
        guard let widget = pages[page == .playback ? .general : page] else { return }
        adw_preferences_window_set_visible_page(window.cast(to: AdwPreferencesWindow.self), widget.cast(to: AdwPreferencesPage.self))
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

    private static func group(_ title: String, description: String?) -> UnsafeMutablePointer<GtkWidget> {
        let group = newObject(adw_preferences_group_new())
        adw_preferences_group_set_title(group.cast(to: AdwPreferencesGroup.self), title)
        if let description { adw_preferences_group_set_description(group.cast(to: AdwPreferencesGroup.self), description) }
        return group
    }

    private func follow() {
        adw_action_row_set_subtitle(serverRow.cast(to: AdwActionRow.self), model.serverURL ?? tr("No server is set up yet."))
        if let name = model.userName {
            adw_action_row_set_subtitle(accountRow.cast(to: AdwActionRow.self), tr("Signed in as %@", name))
        } else {
            adw_action_row_set_subtitle(accountRow.cast(to: AdwActionRow.self), tr("Not signed in"))
        }
        gtk_widget_set_sensitive(signOutButton, model.canSignOut ? 1 : 0)
        for (scheme, check) in schemeButtons where scheme == model.colorScheme {
            if gtk_check_button_get_active(check.cast(to: GtkCheckButton.self)) == 0 { gtk_check_button_set_active(check.cast(to: GtkCheckButton.self), 1) }
        }
        Appearance.apply(model.colorScheme)
        devices.show(model.devices)
        if let notice = model.notice {
            adw_preferences_window_add_toast(window.cast(to: AdwPreferencesWindow.self), adw_toast_new(notice))
            model.notice = nil
        }
    }

    private func closed() {
        observation?.cancel()
        observation = nil
        downloads.teardown()
        playback.teardown()
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
