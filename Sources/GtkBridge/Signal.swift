import CAdwaita

/// A GObject signal the app connects to, declared once with its C signature.
///
/// A `Signal` pairs the signal's detailed name with the C trampoline that
/// matches its signature and with the Swift type of its handler
/// (`Handler`). ``GPointer/connect(_:_:)`` takes the handler as exactly
/// that type, so the compiler checks the closure against the signal: a
/// position handler for `.itemActivate` must take a `UInt32`, a
/// `.closeRequest` handler must return a `Bool`, and a one-expression
/// closure such as `{ self?.x = y }` is read as returning `Void` (the type
/// comes from the signal, never from the closure). Connecting also checks,
/// at run time, that the instance's signal of that name has the number of
/// arguments and the return type the declaration says (see
/// ``matches(_:)``).
///
/// Every signal the app uses is declared below, in this module; pages never
/// write a `@convention(c)` trampoline. To add one, add a static member in the
/// extension whose `Handler` fits (or a new extension with a new trampoline).
///
/// Trampolines run on the GTK thread (GTK emits these signals there) and
/// enter the main actor with `assumeIsolated`.
public struct Signal<Handler>: Sendable {
    /// The detailed signal name GLib sees (`"clicked"`, `"notify::dark"`).
    public let name: String
    /// The C function GLib calls; it reads the handler from its user data.
    let callback: GCallback
    /// Arguments between the instance and the user data in the C signature.
    let parameterCount: Int
    /// Whether the C signature returns `gboolean` (otherwise `void`).
    let returnsBoolean: Bool

    private init(_ name: String, parameters: Int, returnsBoolean: Bool = false, _ callback: GCallback) {
        self.name = name
        self.parameterCount = parameters
        self.returnsBoolean = returnsBoolean
        self.callback = callback
    }

    /// Whether `instance` has a signal of this name with the argument count
    /// and return type this declaration's trampoline expects.
    ///
    /// Call on the GTK thread.
    /// - Parameter instance: any GObject instance.
    /// - Returns: false when the signal does not exist on the instance's type
    ///   or its C signature differs.
    @MainActor
    public func matches(_ instance: some GPointer) -> Bool {
        let type = instance.rawPointer.assumingMemoryBound(to: GTypeInstance.self).pointee.g_class.pointee.g_type
        var id: guint = 0
        var detail: GQuark = 0
        guard g_signal_parse_name(name, type, &id, &detail, 1) != 0 else { return false }
        var query = GSignalQuery()
        g_signal_query(id, &query)
        let returnType = query.return_type & ~GType(1) // G_SIGNAL_TYPE_STATIC_SCOPE
        let expectedReturn = GType((returnsBoolean ? 5 : 1) << G_TYPE_FUNDAMENTAL_SHIFT) // G_TYPE_BOOLEAN / G_TYPE_NONE
        return Int(query.n_params) == parameterCount && returnType == expectedReturn
    }
}

// MARK: - void (*)(GObject *, gpointer)

extension Signal where Handler == @MainActor () -> Void {
    /// `GtkButton::clicked`.
    public static var clicked: Self { Self("clicked", parameters: 0, plainTrampoline) }
    /// `GtkEditable::changed` (entries) and `GtkAdjustment::changed`.
    public static var changed: Self { Self("changed", parameters: 0, plainTrampoline) }
    /// `GtkEntry::activate` (Enter) and `GApplication::activate`. Not the
    /// `activate` of a `GSimpleAction` (``actionActivate``) nor of a list or
    /// grid view (``itemActivate``), which carry an argument.
    public static var activate: Self { Self("activate", parameters: 0, plainTrampoline) }
    /// `GtkWidget::destroy`.
    public static var destroy: Self { Self("destroy", parameters: 0, plainTrampoline) }
    /// `GtkWidget::map`: the widget is about to be shown.
    public static var map: Self { Self("map", parameters: 0, plainTrampoline) }
    /// `GtkWidget::realize`: the widget has its surface (and frame clock).
    public static var realize: Self { Self("realize", parameters: 0, plainTrampoline) }
    /// `GtkToggleButton::toggled`.
    public static var toggled: Self { Self("toggled", parameters: 0, plainTrampoline) }
    /// `AdwToast::button-clicked` (libadwaita 1.2): the toast's button.
    public static var buttonClicked: Self { Self("button-clicked", parameters: 0, plainTrampoline) }
    /// `GtkAdjustment::value-changed`: the view scrolled.
    public static var valueChanged: Self { Self("value-changed", parameters: 0, plainTrampoline) }
    /// `GtkSearchEntry::search-changed` (after the search delay).
    public static var searchChanged: Self { Self("search-changed", parameters: 0, plainTrampoline) }
    /// `GtkSearchEntry::stop-search` (Escape in the field).
    public static var stopSearch: Self { Self("stop-search", parameters: 0, plainTrampoline) }
    /// `GApplication::startup`: GTK and libadwaita are initialised (the
    /// class handler, which runs first, did that); before `activate`.
    public static var startup: Self { Self("startup", parameters: 0, plainTrampoline) }
    /// `GApplication::shutdown`.
    public static var shutdown: Self { Self("shutdown", parameters: 0, plainTrampoline) }
    /// `GdkFrameClock::after-paint`: a frame has been painted.
    public static var afterPaint: Self { Self("after-paint", parameters: 0, plainTrampoline) }
}

private let plainTrampoline = unsafeBitCast(
    { (_: UnsafeMutableRawPointer?, data: UnsafeMutableRawPointer?) in
        guard let data else { return }
        let body = boxedHandler(data, as: (@MainActor () -> Void).self)
        MainActor.assumeIsolated { body() }
    } as @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void,
    to: GCallback.self
)

// MARK: - void (*)(GObject *, GParamSpec *, gpointer)

extension Signal where Handler == @MainActor () -> Void {
    /// `GObject::notify::<property>`: the property changed.
    /// - Parameter property: the property's canonical name (`"dark"`, `"child-revealed"`).
    public static func notify(_ property: String) -> Self {
        Self("notify::\(property)", parameters: 1, notifyTrampoline)
    }

    /// `GSimpleAction::activate`; the action's parameter is not passed on
    /// (the app's actions take none).
    public static var actionActivate: Self { Self("activate", parameters: 1, notifyTrampoline) }
}

/// Also serves `GSimpleAction::activate`: one pointer argument, ignored.
private let notifyTrampoline = unsafeBitCast(
    { (_: UnsafeMutableRawPointer?, _: UnsafeMutableRawPointer?, data: UnsafeMutableRawPointer?) in
        guard let data else { return }
        let body = boxedHandler(data, as: (@MainActor () -> Void).self)
        MainActor.assumeIsolated { body() }
    } as @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void,
    to: GCallback.self
)

// MARK: - void (*)(GSimpleAction *, GVariant *, gpointer), a string parameter

extension Signal where Handler == @MainActor (String) -> Void {
    /// `GSimpleAction::activate` of an action whose parameter is a string
    /// (`app.switch-server::<id>` from a menu item's target); an action
    /// activated without one passes "".
    public static var actionActivateString: Self { Self("activate", parameters: 1, stringParameterTrampoline) }
}

private let stringParameterTrampoline = unsafeBitCast(
    { (_: UnsafeMutableRawPointer?, parameter: OpaquePointer?, data: UnsafeMutableRawPointer?) in
        guard let data else { return }
        let body = boxedHandler(data, as: (@MainActor (String) -> Void).self)
        var text = ""
        if let parameter, g_variant_classify(parameter) == G_VARIANT_CLASS_STRING {
            text = g_variant_get_string(parameter, nil).map { String(cString: $0) } ?? ""
        }
        MainActor.assumeIsolated { body(text) }
    } as @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void,
    to: GCallback.self
)

// MARK: - void (*)(GApplication *, GFile **, gint, gchar *, gpointer)

extension Signal where Handler == @MainActor ([String]) -> Void {
    /// `GApplication::open` (with `G_APPLICATION_HANDLES_OPEN`): the URIs
    /// to open, from this launch's arguments or a second launch's.
    public static var open: Self { Self("open", parameters: 3, openTrampoline) }
}

private let openTrampoline = unsafeBitCast(
    { (_: UnsafeMutableRawPointer?, files: UnsafeMutablePointer<OpaquePointer?>?, count: gint, _: UnsafeMutablePointer<gchar>?,
       data: UnsafeMutableRawPointer?) in
        guard let data else { return }
        var uris: [String] = []
        for index in 0..<Int(max(0, count)) {
            guard let file = files?[index], let uri = g_file_get_uri(file) else { continue }
            uris.append(String(cString: uri))
            g_free(uri)
        }
        let body = boxedHandler(data, as: (@MainActor ([String]) -> Void).self)
        MainActor.assumeIsolated { body(uris) }
    } as @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<OpaquePointer?>?, gint, UnsafeMutablePointer<gchar>?,
                         UnsafeMutableRawPointer?) -> Void,
    to: GCallback.self
)

// MARK: - gboolean (*)(GObject *, gpointer)

extension Signal where Handler == @MainActor () -> Bool {
    /// `GtkWindow::close-request`: return true to keep the window open
    /// (it also stops other handlers).
    public static var closeRequest: Self { Self("close-request", parameters: 0, returnsBoolean: true, boolTrampoline) }
}

private let boolTrampoline = unsafeBitCast(
    { (_: UnsafeMutableRawPointer?, data: UnsafeMutableRawPointer?) -> gboolean in
        guard let data else { return 0 }
        let body = boxedHandler(data, as: (@MainActor () -> Bool).self)
        return MainActor.assumeIsolated { body() } ? 1 : 0
    } as @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean,
    to: GCallback.self
)

// MARK: - void (*)(GObject *, guint, gpointer)

extension Signal where Handler == @MainActor (UInt32) -> Void {
    /// `GtkGridView::activate` and `GtkListView::activate`: the item at this
    /// position was activated (click, Enter).
    public static var itemActivate: Self { Self("activate", parameters: 1, positionTrampoline) }
}

private let positionTrampoline = unsafeBitCast(
    { (_: UnsafeMutableRawPointer?, position: guint, data: UnsafeMutableRawPointer?) in
        guard let data else { return }
        let body = boxedHandler(data, as: (@MainActor (UInt32) -> Void).self)
        MainActor.assumeIsolated { body(position) }
    } as @convention(c) (UnsafeMutableRawPointer?, guint, UnsafeMutableRawPointer?) -> Void,
    to: GCallback.self
)

// MARK: - void (*)(GtkSignalListItemFactory *, GObject *item, gpointer)

extension Signal where Handler == @MainActor (OpaquePointer) -> Void {
    /// `GtkSignalListItemFactory::setup`: a `GtkListItem` needs its widgets.
    public static var listItemSetup: Self { Self("setup", parameters: 1, listItemTrampoline) }
    /// `GtkSignalListItemFactory::bind`: a `GtkListItem` shows an item now.
    public static var listItemBind: Self { Self("bind", parameters: 1, listItemTrampoline) }
    /// `GtkSignalListItemFactory::unbind`: a `GtkListItem` stops showing its item.
    public static var listItemUnbind: Self { Self("unbind", parameters: 1, listItemTrampoline) }
    /// `GtkSignalListItemFactory::teardown`: a `GtkListItem` goes away.
    public static var listItemTeardown: Self { Self("teardown", parameters: 1, listItemTrampoline) }
}

private let listItemTrampoline = unsafeBitCast(
    { (_: UnsafeMutableRawPointer?, item: OpaquePointer?, data: UnsafeMutableRawPointer?) in
        guard let data, let item else { return }
        let body = boxedHandler(data, as: (@MainActor (OpaquePointer) -> Void).self)
        // As an address: GTK emits this on the main thread, where the item is used.
        let address = Int(bitPattern: item)
        MainActor.assumeIsolated {
            guard let item = OpaquePointer(bitPattern: address) else { return }
            body(item)
        }
    } as @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void,
    to: GCallback.self
)

// MARK: - void (*)(GtkListBox *, GtkListBoxRow *, gpointer)

extension Signal where Handler == @MainActor (UnsafeMutablePointer<GtkListBoxRow>) -> Void {
    /// `GtkListBox::row-activated`: this row was activated.
    public static var rowActivated: Self { Self("row-activated", parameters: 1, rowTrampoline) }
}

private let rowTrampoline = unsafeBitCast(
    { (_: UnsafeMutableRawPointer?, row: UnsafeMutablePointer<GtkListBoxRow>?, data: UnsafeMutableRawPointer?) in
        guard let data, let row else { return }
        let body = boxedHandler(data, as: (@MainActor (UnsafeMutablePointer<GtkListBoxRow>) -> Void).self)
        let address = Int(bitPattern: row)
        MainActor.assumeIsolated {
            guard let row = UnsafeMutablePointer<GtkListBoxRow>(bitPattern: address) else { return }
            body(row)
        }
    } as @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GtkListBoxRow>?, UnsafeMutableRawPointer?) -> Void,
    to: GCallback.self
)

// MARK: - void (*)(GObject *, const char *, gpointer)

extension Signal where Handler == @MainActor (String) -> Void {
    /// `AdwMessageDialog::response`: the id of the response chosen.
    public static var response: Self { Self("response", parameters: 1, stringTrampoline) }
}

private let stringTrampoline = unsafeBitCast(
    { (_: UnsafeMutableRawPointer?, text: UnsafePointer<CChar>?, data: UnsafeMutableRawPointer?) in
        guard let data else { return }
        let body = boxedHandler(data, as: (@MainActor (String) -> Void).self)
        let string = text.map { String(cString: $0) } ?? ""
        MainActor.assumeIsolated { body(string) }
    } as @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Void,
    to: GCallback.self
)

// MARK: - void (*)(GtkEntry *, GtkEntryIconPosition, gpointer)

extension Signal where Handler == @MainActor (GtkEntryIconPosition) -> Void {
    /// `GtkEntry::icon-press`: the icon at this position was pressed.
    public static var iconPress: Self { Self("icon-press", parameters: 1, iconTrampoline) }
}

private let iconTrampoline = unsafeBitCast(
    { (_: UnsafeMutableRawPointer?, position: GtkEntryIconPosition, data: UnsafeMutableRawPointer?) in
        guard let data else { return }
        let body = boxedHandler(data, as: (@MainActor (GtkEntryIconPosition) -> Void).self)
        MainActor.assumeIsolated { body(position) }
    } as @convention(c) (UnsafeMutableRawPointer?, GtkEntryIconPosition, UnsafeMutableRawPointer?) -> Void,
    to: GCallback.self
)

// MARK: - gboolean (*)(GtkEventControllerKey *, guint, guint, GdkModifierType, gpointer)

/// A key press as `GtkEventControllerKey::key-pressed` reports it.
public struct KeyPress {
    /// The `GtkEventControllerKey` that saw the key (for its current event).
    public let controller: OpaquePointer
    /// The key symbol (`GDK_KEY_*`).
    public let keyval: UInt32
    /// The hardware key code.
    public let keycode: UInt32
    /// The modifiers held.
    public let modifiers: GdkModifierType
}

extension Signal where Handler == @MainActor (KeyPress) -> Bool {
    /// `GtkEventControllerKey::key-pressed`: return true if the key was
    /// handled (it goes no further), false to let it go on to its widget.
    public static var keyPressed: Self { Self("key-pressed", parameters: 3, returnsBoolean: true, keyTrampoline) }
}

private let keyTrampoline = unsafeBitCast(
    { (controller: OpaquePointer?, keyval: guint, keycode: guint, modifiers: GdkModifierType, data: UnsafeMutableRawPointer?) -> gboolean in
        guard let data, let controller else { return 0 }
        let body = boxedHandler(data, as: (@MainActor (KeyPress) -> Bool).self)
        let address = Int(bitPattern: controller)
        return MainActor.assumeIsolated {
            guard let controller = OpaquePointer(bitPattern: address) else { return false }
            return body(KeyPress(controller: controller, keyval: keyval, keycode: keycode, modifiers: modifiers))
        } ? 1 : 0
    } as @convention(c) (OpaquePointer?, guint, guint, GdkModifierType, UnsafeMutableRawPointer?) -> gboolean,
    to: GCallback.self
)

// MARK: - void (*)(GtkCssProvider *, GtkCssSection *, const GError *, gpointer)

extension Signal where Handler == @MainActor (_ location: String?, _ message: String) -> Void {
    /// `GtkCssProvider::parsing-error`: where (file and line, when known) and
    /// what went wrong.
    public static var parsingError: Self { Self("parsing-error", parameters: 2, parsingErrorTrampoline) }
}

private let parsingErrorTrampoline = unsafeBitCast(
    { (_: UnsafeMutableRawPointer?, section: OpaquePointer?, error: UnsafePointer<GError>?, data: UnsafeMutableRawPointer?) in
        guard let data else { return }
        let body = boxedHandler(data, as: (@MainActor (String?, String) -> Void).self)
        let message = error.map { String(cString: $0.pointee.message) } ?? "unknown"
        var location: String?
        if let section, let text = gtk_css_section_to_string(section) {
            location = String(cString: text)
            g_free(text)
        }
        MainActor.assumeIsolated { body(location, message) }
    } as @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<GError>?, UnsafeMutableRawPointer?) -> Void,
    to: GCallback.self
)
