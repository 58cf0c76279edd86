import CAdwaita

/// A toast with a button (`AdwToast`), kept after it is shown so that it
/// can be withdrawn early: a newer toast of the same kind replaces it
/// rather than waiting behind it in the overlay's queue.
///
/// Holds a reference to the toast and the connection of its button;
/// dropping this value disconnects the button but leaves the toast on
/// screen until it times out. Main thread only.
@MainActor
public final class ShownToast {
    private let toast: GObjectRef<OpaquePointer>
    private let connection: SignalConnection

    fileprivate init(toast: GObjectRef<OpaquePointer>, connection: SignalConnection) {
        self.toast = toast
        self.connection = connection
    }

    /// Takes the toast off the screen, or out of the queue if it is still
    /// waiting there; nothing once it is gone.
    public func dismiss() {
        connection.disconnect()
        adw_toast_dismiss(toast.pointer)
    }

    /// The toast's text.
    public var title: String {
        adw_toast_get_title(toast.pointer).map { String(cString: $0) } ?? ""
    }
}

@MainActor
extension ToastOverlay {
    /// Shows `text` with a button labelled `button` for `seconds`, like
    /// ``show(_:button:seconds:action:)``, and returns the shown toast, to
    /// dismiss it early.
    /// - Parameter urgent: shown at once, the toast on screen going back
    ///   to the queue (for a button that is only useful right now).
    public func present(_ text: String, button: String, seconds: Int, urgent: Bool = false,
                        action: @escaping @MainActor () -> Void) -> ShownToast {
        let made: OpaquePointer = newObject(adw_toast_new(text))
        // One reference is ours; the overlay takes over the other.
        let toast = GObjectRef(borrowing: made)
        adw_toast_set_button_label(made, button)
        adw_toast_set_timeout(made, guint(seconds))
        if urgent { adw_toast_set_priority(made, ADW_TOAST_PRIORITY_HIGH) }
        let connection = made.connect(.buttonClicked, action)
        adw_toast_overlay_add_toast(opaque, made)
        return ShownToast(toast: toast, connection: connection)
    }
}
