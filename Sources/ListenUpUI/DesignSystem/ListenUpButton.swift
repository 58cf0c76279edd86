import CAdwaita
import GtkBridge

/// The primary capsule button: tinted glass, hover and press feedback, and a
/// loading state (spinner, label kept, clicks ignored). Its tree is
/// `data/ui/listenup-button.ui`.
@MainActor
public final class ListenUpButton {
    /// The `GtkButton`.
    public let widget: UnsafeMutablePointer<GtkWidget>
    private let ref: GObjectRef<UnsafeMutablePointer<GtkWidget>>
    private let label: Label
    private let spinner: Spinner
    private var clickHandler: SignalConnection?
    private var enabled = true

    /// Whether the button shows its spinner (and ignores clicks).
    public private(set) var isLoading = false

    /// - Parameter title: the button's text, also its accessible name.
    public init(title: String) {
        let ui = PageTemplates.load("listenup-button")
        let root: Button
        (root, ref) = ui.root("root")
        widget = root.pointer
        (label, spinner) = (ui.child("label"), ui.child("spinner"))
        self.title = title
    }

    /// The button's text.
    public var title: String {
        get { label.text }
        set {
            label.text = newValue
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
        spinner.run(loading)
        widget.setClass(.loading, loading)
        updateSensitivity()
    }

    /// Runs `action` on each click.
    public func onClick(_ action: @escaping @MainActor () -> Void) {
        clickHandler?.disconnect()
        clickHandler = widget.connect(.clicked, action)
    }

    private func updateSensitivity() {
        Widget(widget).isSensitive = enabled && !isLoading
    }
}
