import CAdwaita
import GtkBridge
import ListenUpCore
import Logging

/// The app window: a header bar over the page of the active route, inside a
/// toast overlay for transient messages.
///
/// Follows the navigator: each route change builds the new page, cross-fades
/// to it (instantly when animations are off) and tears the old one down.
/// Opens at the size and state it was closed with (GSettings).
@MainActor
public final class MainWindow {
    /// The `AdwApplicationWindow`.
    public let window: UnsafeMutablePointer<GtkWidget>
    private let stack: OpaquePointer
    private let toasts: OpaquePointer
    private let windowTitle: UnsafeMutablePointer<GtkWidget>
    private let navigator: AppNavigator
    private let pages: PageRegistry
    private let logger: Logger
    private var page: (any RoutePage)?
    private var pageRoute: Route?
    private var pageModel: ObjectIdentifier?
    private var retiring: [(any RoutePage, UnsafeMutablePointer<GtkWidget>)] = []
    private var observation: StateObservation?
    private var connections: [SignalConnection] = []
    private var libraryObservation: StateObservation?
    /// The now-playing bar under the page (signed in, a book loaded): made
    /// when a book first is, so a window that plays nothing never builds it.
    private(set) var nowPlaying: NowPlayingBar?
    /// The window's vertical box: header, page, then the bar once made.
    private let content: UnsafeMutablePointer<GtkWidget>
    private var playerObservation: StateObservation?
    private let application: UnsafeMutablePointer<AdwApplication>
    /// Whether the window is on screen: its surface mapped and not
    /// minimized. The player reports its position every second only then.
    private(set) var isOnScreen = false
    private var surfaceConnections: [SignalConnection] = []
    /// The player whose last book the bar was given at start.
    private weak var offeredTo: PlayerModel?
    /// The last remote command announced in a toast.
    private var shownNotice: PlayerModel.RemoteNotice?
    private var shownPlayerNotice: PlayerModel.Notice?
    private var shownOffer: PlayerModel.PositionNotice?
    /// The offer toast's button, connected while it is shown.
    private var offerConnection: SignalConnection?
    /// Follows the session's downloads for refusals (no space, no audio).
    private var downloadsObservation: StateObservation?
    /// The downloads whose refusals are followed, and the last one shown.
    private weak var refusalsOf: DownloadsModel?
    private var shownRefusal: DownloadsModel.Refusal?
    /// The last toast shown (tests).
    private(set) var lastToast: String?
    /// The cookie of `gtk_application_inhibit` while audio plays.
    private var inhibition: guint = 0
    private var libraryWasOffline = false
    /// The primary menu (on every screen: Pair a Device…, and Sign Out while signed in).
    let menuButton: UnsafeMutablePointer<GtkWidget>
    /// The window's actions (`WindowAction`): the menu items and the
    /// "Pair a Device…" links on the sign-in and server pages run them.
    private(set) var actions: InstalledActions<WindowAction>?

    /// Builds the window for `application`; it is not shown yet.
    public init(application: UnsafeMutablePointer<AdwApplication>, navigator: AppNavigator, pages: PageRegistry, logger: Logger) {
        self.navigator = navigator
        self.pages = pages
        self.logger = logger
        self.application = application
        window = newObject(adw_application_window_new(application.cast(to: GtkApplication.self)))
        let saved = navigator.settings.load().window
        gtk_window_set_default_size(window.cast(to: GtkWindow.self), Int32(saved.restoredSize.width), Int32(saved.restoredSize.height))
        if saved.maximized { gtk_window_maximize(window.cast(to: GtkWindow.self)) }
        gtk_window_set_title(window.cast(to: GtkWindow.self), "ListenUp")

        let header = newObject(adw_header_bar_new())
        windowTitle = newObject(adw_window_title_new("ListenUp", nil))
        adw_header_bar_set_title_widget(header.opaque, windowTitle)

        // Primary menu: Pair a Device… always; Sign Out, enabled while signed
        // in; then the app's Preferences, Keyboard Shortcuts and About.
        let menu = GObjectRef<OpaquePointer>(taking: g_menu_new())
        let session = GObjectRef<OpaquePointer>(taking: g_menu_new())
        g_menu_append(session.pointer, tr("Pair a Device…"), WindowAction.pairDevice.detailedName)
        g_menu_append(session.pointer, tr("Sign Out"), WindowAction.signOut.detailedName)
        g_menu_append_section(menu.pointer, nil, session.pointer.cast(to: GMenuModel.self))
        let app = GObjectRef<OpaquePointer>(taking: g_menu_new())
        g_menu_append(app.pointer, tr("Preferences"), AppAction.preferences.detailedName)
        g_menu_append(app.pointer, tr("Keyboard Shortcuts"), AppAction.shortcuts.detailedName)
        g_menu_append(app.pointer, tr("About ListenUp"), AppAction.about.detailedName)
        g_menu_append_section(menu.pointer, nil, app.pointer.cast(to: GMenuModel.self))
        menuButton = newObject(gtk_menu_button_new())
        gtk_menu_button_set_icon_name(menuButton.opaque, "open-menu-symbolic")
        gtk_menu_button_set_menu_model(menuButton.opaque, menu.pointer.cast(to: GMenuModel.self))
        gtk_widget_set_tooltip_text(menuButton, tr("Main Menu"))
        menuButton.setAccessibleLabel(tr("Main Menu"))
        gtk_menu_button_set_primary(menuButton.opaque, 1)
        adw_header_bar_pack_end(header.opaque, menuButton)

        stack = OpaquePointer(newObject(gtk_stack_new()))
        gtk_stack_set_transition_type(stack, GTK_STACK_TRANSITION_TYPE_CROSSFADE)
        gtk_stack_set_transition_duration(stack, 150)
        gtk_widget_set_vexpand(stack.widget, 1)

        toasts = OpaquePointer(newObject(adw_toast_overlay_new()))
        adw_toast_overlay_set_child(toasts, stack.widget)
        gtk_widget_set_vexpand(toasts.widget, 1)
        content = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))
        gtk_box_append(content.cast(to: GtkBox.self), header)
        gtk_box_append(content.cast(to: GtkBox.self), toasts.widget)
        adw_application_window_set_content(window.cast(to: AdwApplicationWindow.self), content)

        actions = InstalledActions(on: OpaquePointer(window), connections: &connections) { [weak navigator] action in
            switch action {
            case .signOut: navigator?.signOut()
            case .pairDevice: navigator?.open(.pairing)
            case .closePlayer: navigator?.closeOverlay()
            }
        }
        self.connections.append(stack.connect(.notify("transition-running")) { [weak self] in self?.dropRetiredPages() })
        self.connections.append(window.connect(.realize) { [weak self] in self?.watchSurface() })
        self.connections.append(window.connect(.destroy) { [weak self] in self?.close() })
        self.connections.append(window.connect(.closeRequest) { [weak self] in
            self?.saveWindowState()
            return false
        })
        observation = StateObservation { [weak self] in self?.follow() }
        playerObservation = StateObservation { [weak self] in self?.followPlayer() }
        downloadsObservation = StateObservation { [weak self] in self?.followDownloadRefusals() }
        addPlayerShortcuts()
    }

    /// Follows the window's surface (made at realize): shown, hidden,
    /// minimized (on X11 a window manager minimizes by unmapping).
    private func watchSurface() {
        guard let surface = gtk_native_get_surface(OpaquePointer(window)) else { return }
        surfaceConnections = [
            surface.connect(.notify("mapped")) { [weak self] in self?.updateOnScreen() },
            surface.connect(.notify("state")) { [weak self] in self?.updateOnScreen() },
        ]
        updateOnScreen()
    }

    private func updateOnScreen() {
        guard let surface = gtk_native_get_surface(OpaquePointer(window)) else { return }
        let minimized = gdk_toplevel_get_state(surface).rawValue & GDK_TOPLEVEL_STATE_MINIMIZED.rawValue != 0
        isOnScreen = gdk_surface_get_mapped(surface) != 0 && !minimized
        navigator.player?.isPositionWatched = isOnScreen
    }

    /// The bar follows the session's player; while audio plays the session
    /// is kept from suspending.
    private func followPlayer() {
        let player = navigator.player
        player?.isPositionWatched = isOnScreen
        if let player, offeredTo !== player {
            // The bar offers the book listened to last, once per session.
            offeredTo = player
            shownNotice = player.remoteNotice
            shownPlayerNotice = player.notice
            player.offerLastBook()
        }
        if let notice = player?.remoteNotice, notice != shownNotice {
            // "Paused from My Phone": a paired device changed playback.
            shownNotice = notice
            showToast(notice.message)
        }
        if let notice = player?.notice, notice != shownPlayerNotice {
            // "The book could not be marked as finished: …"
            shownPlayerNotice = notice
            showToast(notice.message)
        }
        if let offer = player?.positionOffer, offer != shownOffer {
            shownOffer = offer
            offerPosition(offer)
        }
        if nowPlaying == nil, player?.nowPlaying != nil {
            let bar = NowPlayingBar(open: { [weak navigator] in navigator?.open(.player) })
            gtk_box_append(content.cast(to: GtkBox.self), bar.widget)
            nowPlaying = bar
        }
        nowPlaying?.show(player)
        nowPlaying?.setHiddenByRoute(navigator.activeRoute == .player)
        let playing = player?.status == .playing || player?.status == .buffering
        if playing, inhibition == 0 {
            inhibition = gtk_application_inhibit(application.cast(to: GtkApplication.self), window.cast(to: GtkWindow.self),
                                                 GTK_APPLICATION_INHIBIT_SUSPEND, tr("Playing an audiobook"))
        } else if !playing, inhibition != 0 {
            gtk_application_uninhibit(application.cast(to: GtkApplication.self), inhibition)
            inhibition = 0
        }
    }

    /// A book the downloads could not queue (no space, no audio) is said in
    /// a toast, once per refusal; one made before the window followed this
    /// session's downloads is not.
    private func followDownloadRefusals() {
        let downloads = navigator.downloads
        let refusal = downloads?.refusal
        guard downloads === refusalsOf else {
            refusalsOf = downloads
            shownRefusal = refusal
            return
        }
        if let refusal, refusal != shownRefusal {
            shownRefusal = refusal
            showToast(refusal.failure.message)
        }
    }

    /// Whether the suspend is inhibited now (tests).
    var isInhibitingSuspend: Bool { inhibition != 0 }

    /// Space plays or pauses, ←/→ skip, Ctrl+←/→ change chapter: wherever
    /// focus is, except in a text field (where the keys are the field's).
    private func addPlayerShortcuts() {
        let controller: OpaquePointer = newObject(gtk_shortcut_controller_new())
        gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_CAPTURE)
        let keys: [(String, PlayerModel.Intent)] = [
            ("space", .togglePlayPause), ("Left", .skipBack), ("Right", .skipForward),
            ("<Control>Left", .previousChapter), ("<Control>Right", .nextChapter),
        ]
        for (trigger, intent) in keys {
            Shortcuts.add(trigger, to: controller) { [weak self] in
                guard let self, let player = self.navigator.player, player.nowPlaying != nil, !self.focusIsInText() else { return false }
                player.send(intent)
                return true
            }
        }
        gtk_widget_add_controller(window, controller)
    }

    /// Focus is in something that takes text (search field, entry).
    private func focusIsInText() -> Bool {
        guard let focus = gtk_root_get_focus(OpaquePointer(window)) else { return false }
        return gtk_widget_is_ancestor(focus, window) != 0 && (
            g_type_check_instance_is_a(UnsafeMutablePointer(OpaquePointer(focus)), gtk_editable_get_type()) != 0
                || g_type_check_instance_is_a(UnsafeMutablePointer(OpaquePointer(focus)), gtk_text_view_get_type()) != 0
                || g_type_check_instance_is_a(UnsafeMutablePointer(OpaquePointer(focus)), gtk_range_get_type()) != 0)
    }

    /// The page on screen.
    public var currentPage: (any RoutePage)? { page }
    /// The route of the page on screen. It lags the navigator's active
    /// route until the window has followed a change.
    public var currentPageRoute: Route? { pageRoute }

    /// A page is fading in.
    var isFading: Bool { gtk_stack_get_transition_running(stack) != 0 }

    /// Shows the window.
    public func present() {
        gtk_window_present(window.cast(to: GtkWindow.self))
        page?.focusDefault()
    }

    /// Shows `text` briefly over the page (a transient error or a confirmation).
    /// *Continue from 1:23:45 (listened on another device)*, with a button
    /// that moves there.
    private func offerPosition(_ offer: PlayerModel.PositionNotice) {
        // TRANSLATORS: a toast after a pause; %@ is a time in the book.
        let text = tr("Continue from %@ (listened on another device)", PlayerControls.time(offer.position))
        lastToast = text
        let toast = adw_toast_new(text)
        adw_toast_set_button_label(toast, tr("Continue"))
        adw_toast_set_timeout(toast, 10)
        offerConnection = toast?.connect(.buttonClicked) { [weak navigator] in navigator?.player?.send(.takeOffer) }
        adw_toast_overlay_add_toast(toasts, toast)
        nameToastCloseButton()
    }

    /// libadwaita 1.2's toast has a close button with an icon and no
    /// accessible name (a screen reader says "button"): named here, once
    /// the toast's widget exists.
    private func nameToastCloseButton() {
        let name = { [toasts] in
            let toastType = g_type_from_name("AdwToastWidget")
            guard toastType != 0, let toast = toasts.widget.firstDescendant(ofType: toastType) else { return }
            var child = gtk_widget_get_first_child(toast)
            while let current = child {
                if g_type_check_instance_is_a(UnsafeMutableRawPointer(current).assumingMemoryBound(to: GTypeInstance.self),
                                              gtk_button_get_type()) != 0, gtk_button_get_label(current.cast(to: GtkButton.self)) == nil {
                    current.setAccessibleLabel(tr("Dismiss"))
                }
                child = gtk_widget_get_next_sibling(current)
            }
        }
        name()
        MainContext.idle { name() }
    }

    public func showToast(_ text: String) {
        lastToast = text
        adw_toast_overlay_add_toast(toasts, adw_toast_new(text))
        nameToastCloseButton()
    }

    /// Keeps the size and maximised state for the next start.
    func saveWindowState() {
        var width: Int32 = 0
        var height: Int32 = 0
        gtk_window_get_default_size(window.cast(to: GtkWindow.self), &width, &height)
        var settings = navigator.settings.load()
        let state = WindowState(width: Int(width), height: Int(height),
                                maximized: gtk_window_is_maximized(window.cast(to: GtkWindow.self)) != 0)
        guard state != settings.window else { return }
        settings.window = state
        do {
            try navigator.settings.save(settings)
        } catch {
            logger.warning("Window state not saved", metadata: ["error": "\(error)"])
        }
    }

    /// Says so with a toast when the library loses the server (the page's
    /// subtitle keeps saying "Offline" after the toast is gone).
    private func watchLibrary(_ library: LibraryModel?) {
        libraryObservation?.cancel()
        libraryObservation = nil
        guard let library else { return }
        libraryWasOffline = library.isOffline
        libraryObservation = StateObservation { [weak self, weak library] in
            guard let self, let library else { return }
            let offline = library.isOffline
            if offline, !self.libraryWasOffline {
                self.showToast(tr("Can't reach the server. Showing your saved library."))
            }
            self.libraryWasOffline = offline
        }
    }

    private func follow() {
        let route = navigator.activeRoute
        let signedIn: Bool = if case .authenticated = navigator.authState { true } else { false }
        actions?.setEnabled(.signOut, signedIn && route == .library)
        actions?.setEnabled(.pairDevice, route != .pairing)
        guard let model = navigator.activeModel else { return }
        let identity = ObjectIdentifier(model)
        guard route != pageRoute || identity != pageModel else { return }
        guard let newPage = pages.page(for: route, model: model) else {
            logger.error("No page registered for route", metadata: ["route": "\(route.rawValue)"])
            return
        }
        if let old = page { retiring.append((old, old.widget)) }
        watchLibrary(ScreenKey.library.model(model, on: route))
        // The loading page only stands in for the first screen, which takes
        // its place at once: no fade from a spinner at every start.
        let fades = pageRoute != .loading
        page = newPage
        pageRoute = route
        pageModel = identity
        gtk_stack_add_child(stack, newPage.widget)
        let transition = gtk_stack_get_transition_type(stack)
        if !fades { gtk_stack_set_transition_type(stack, GTK_STACK_TRANSITION_TYPE_NONE) }
        gtk_stack_set_visible_child(stack, newPage.widget)
        gtk_stack_set_transition_type(stack, transition)
        newPage.focusDefault()
        dropRetiredPages()
    }

    /// Removes pages that have faded out.
    private func dropRetiredPages() {
        guard gtk_stack_get_transition_running(stack) == 0 else { return }
        for (old, widget) in retiring {
            old.teardown()
            gtk_stack_remove(stack, widget)
        }
        retiring.removeAll()
    }

    private func close() {
        observation?.cancel()
        playerObservation?.cancel()
        downloadsObservation?.cancel()
        nowPlaying?.teardown()
        if inhibition != 0 {
            gtk_application_uninhibit(application.cast(to: GtkApplication.self), inhibition)
            inhibition = 0
        }
        libraryObservation?.cancel()
        page?.teardown()
        for (old, _) in retiring { old.teardown() }
        retiring.removeAll()
        page = nil
    }
}
