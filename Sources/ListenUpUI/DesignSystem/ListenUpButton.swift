import CAdwaita
import GtkBridge

/// The primary capsule button: tinted glass, hover and press feedback, and a
/// loading state (spinner, label kept, clicks ignored).
@MainActor
public final class ListenUpButton {
    /// The `GtkButton`.
    public let widget: UnsafeMutablePointer<GtkWidget>
    private let ref: GObjectRef<UnsafeMutablePointer<GtkWidget>>
    private let label: OpaquePointer
    private let spinner: OpaquePointer
    private var clickHandler: SignalConnection?
    private var enabled = true

    /// Whether the button shows its spinner (and ignores clicks).
    public private(set) var isLoading = false

    /// - Parameter title: the button's text, also its accessible name.
    public init(title: String) {
        widget = newObject(gtk_button_new())
        ref = GObjectRef(borrowing: widget)
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)
        gtk_widget_set_halign(box, GTK_ALIGN_CENTER)
        spinner = OpaquePointer(newObject(gtk_spinner_new()))
        gtk_widget_set_visible(spinner.widget, 0)
        label = OpaquePointer(newObject(gtk_label_new(title)))
        gtk_box_append(box?.cast(to: GtkBox.self), spinner.widget)
        gtk_box_append(box?.cast(to: GtkBox.self), label.widget)
        gtk_button_set_child(widget.cast(to: GtkButton.self), box)
        widget.addClasses(.glass, .glassTinted, .glassInteractive, .pill, .listenUpButton)
        widget.setAccessibleLabel(title)
    }

    /// The button's text.
    public var title: String {
        get { String(cString: gtk_label_get_label(label)) }
        set {
            gtk_label_set_label(label, newValue)
            widget.setAccessibleLabel(newValue)
        }
    }

    /// Whether the button can be pressed (drawn dimmed when not).
    public var isEnabled: Bool {
        get { enabled }
        set { enabled = newValue; updateSensitivity() }
    }

    /// Shows or hides the spinner. A loading button ignores clicks but is not
    /// drawn dimmed: it is busy, not unavailable.
    public func setLoading(_ loading: Bool) {
        isLoading = loading
        gtk_widget_set_visible(spinner.widget, loading ? 1 : 0)
        gtk_spinner_set_spinning(spinner, loading ? 1 : 0)
        widget.setClass(.loading, loading)
        updateSensitivity()
    }

    /// Runs `action` on each click.
    public func onClick(_ action: @escaping @MainActor () -> Void) {
        clickHandler?.disconnect()
        clickHandler = widget.connect(.clicked, action)
    }

    private func updateSensitivity() {
        gtk_widget_set_sensitive(widget, (enabled && !isLoading) ? 1 : 0)
    }
}
