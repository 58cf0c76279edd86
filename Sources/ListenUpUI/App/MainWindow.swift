import CAdwaita
import GtkBridge
import ListenUpCore
import Logging

/// The app window: a header bar over the page of the active route.
///
/// Follows the navigator: each route change builds the new page, cross-fades
/// to it (instantly when animations are off) and tears the old one down.
@MainActor
public final class MainWindow {
    /// The `AdwApplicationWindow`.
    public let window: UnsafeMutablePointer<GtkWidget>
    private let stack: OpaquePointer
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
    /// The primary menu (on every screen: Pair a Device…, and Sign Out while signed in).
    let menuButton: UnsafeMutablePointer<GtkWidget>
    /// `win.sign-out`.
    let signOutAction: OpaquePointer
    /// `win.pair-device` (the menu item and the link buttons on the sign-in and server pages).
    let pairDeviceAction: OpaquePointer

    /// Builds the window for `application`; it is not shown yet.
    public init(application: UnsafeMutablePointer<AdwApplication>, navigator: AppNavigator, pages: PageRegistry, logger: Logger) {
        self.navigator = navigator
        self.pages = pages
        self.logger = logger
        window = newObject(adw_application_window_new(application.cast(to: GtkApplication.self)))
        gtk_window_set_default_size(window.cast(to: GtkWindow.self), 900, 680)
        gtk_window_set_title(window.cast(to: GtkWindow.self), "ListenUp")

        let header = newObject(adw_header_bar_new())
        windowTitle = newObject(adw_window_title_new("ListenUp", nil))
        adw_header_bar_set_title_widget(header.opaque, windowTitle)

        // Primary menu: Pair a Device… always; Sign Out, enabled while signed in.
        signOutAction = g_simple_action_new("sign-out", nil)
        g_action_map_add_action(OpaquePointer(window), signOutAction)
        g_object_unref(UnsafeMutableRawPointer(signOutAction))
        pairDeviceAction = g_simple_action_new("pair-device", nil)
        g_action_map_add_action(OpaquePointer(window), pairDeviceAction)
        g_object_unref(UnsafeMutableRawPointer(pairDeviceAction))
        let menu: OpaquePointer = g_menu_new()
        g_menu_append(menu, tr("Pair a Device…"), "win.pair-device")
        g_menu_append(menu, tr("Sign Out"), "win.sign-out")
        menuButton = newObject(gtk_menu_button_new())
        gtk_menu_button_set_icon_name(menuButton.opaque, "open-menu-symbolic")
        gtk_menu_button_set_menu_model(menuButton.opaque, UnsafeMutablePointer<GMenuModel>(menu))
        g_object_unref(UnsafeMutableRawPointer(menu))
        gtk_widget_set_tooltip_text(menuButton, tr("Main Menu"))
        menuButton.setAccessibleLabel(tr("Main Menu"))
        gtk_menu_button_set_primary(menuButton.opaque, 1)
        adw_header_bar_pack_end(header.opaque, menuButton)

        stack = OpaquePointer(newObject(gtk_stack_new()))
        gtk_stack_set_transition_type(stack, GTK_STACK_TRANSITION_TYPE_CROSSFADE)
        gtk_stack_set_transition_duration(stack, 150)
        gtk_widget_set_vexpand(stack.widget, 1)

        let content = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))
        gtk_box_append(content.cast(to: GtkBox.self), header)
        gtk_box_append(content.cast(to: GtkBox.self), stack.widget)
        adw_application_window_set_content(window.cast(to: AdwApplicationWindow.self), content)

        connections.append(stack.connectNotify("transition-running") { [weak self] in self?.dropRetiredPages() })
        connections.append(window.connect(.destroy) { [weak self] in self?.close() })
        connections.append(UnsafeMutableRawPointer(signOutAction).connect(.activate, trampoline: actionActivateTrampoline, body: { [weak self] in
            self?.signOut()
        } as @MainActor () -> Void))
        connections.append(UnsafeMutableRawPointer(pairDeviceAction).connect(.activate, trampoline: actionActivateTrampoline, body: { [weak self] in
            self?.openPairing()
        } as @MainActor () -> Void))
        observation = StateObservation { [weak self] in self?.follow() }
    }

    /// The page on screen.
    public var currentPage: (any RoutePage)? { page }

    /// Shows the window.
    public func present() {
        gtk_window_present(window.cast(to: GtkWindow.self))
        page?.focusDefault()
    }

    /// Signs out of the library (the primary menu's Sign Out).
    func signOut() {
        (navigator.activeModel as? LibraryModel)?.send(.signOut)
    }

    /// Opens the pairing screen over the current one (Pair a Device…).
    func openPairing() {
        navigator.open(.pairing)
    }

    private func follow() {
        let route = navigator.activeRoute
        let signedIn: Bool = if case .authenticated = navigator.authState { true } else { false }
        g_simple_action_set_enabled(signOutAction, signedIn && route == .library ? 1 : 0)
        g_simple_action_set_enabled(pairDeviceAction, route == .pairing ? 0 : 1)
        guard let model = navigator.activeModel else { return }
        let identity = ObjectIdentifier(model)
        guard route != pageRoute || identity != pageModel else { return }
        guard let newPage = pages.page(for: route, model: model) else {
            logger.error("No page registered for route", metadata: ["route": "\(route.rawValue)"])
            return
        }
        if let old = page { retiring.append((old, old.widget)) }
        page = newPage
        pageRoute = route
        pageModel = identity
        gtk_stack_add_child(stack, newPage.widget)
        gtk_stack_set_visible_child(stack, newPage.widget)
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
        page?.teardown()
        for (old, _) in retiring { old.teardown() }
        retiring.removeAll()
        page = nil
    }
}

/// `activate (GSimpleAction *action, GVariant *parameter, gpointer data)`.
private let actionActivateTrampoline: GCallback = unsafeBitCast(
    { (_: UnsafeMutableRawPointer?, _: UnsafeMutableRawPointer?, data: UnsafeMutableRawPointer?) in
        guard let data else { return }
        let body = signalHandlerBody(data, as: (@MainActor () -> Void).self)
        MainActor.assumeIsolated { body() }
    } as @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void,
    to: GCallback.self
)
