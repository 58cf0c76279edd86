import CAdwaita

/// Runs code right after a window's frame has been painted (the frame clock's
/// `after-paint`), for start-up measurements, screenshots and latency logs.
@MainActor
public enum FramePaint {
    /// Calls `body` once, after the next frame of `widget`'s window is
    /// painted, and asks for that frame. `body` runs from a zero timeout, so
    /// the frame has reached the screen: not an idle source, since an
    /// animating page redraws every frame and would starve idle priority.
    ///
    /// - Returns: false when `widget` is not realized (it has no frame clock).
    @discardableResult
    public static func afterNext(of widget: some GPointer, _ body: @escaping @MainActor () -> Void) -> Bool {
        guard let clock = gtk_widget_get_frame_clock(widget.widget) else { return false }
        let once = OnceHandler()
        once.connection = clock.connect(.afterPaint) {
            guard let connection = once.connection else { return }
            once.connection = nil
            connection.disconnect()
            MainContext.timeout(after: .zero, body)
        }
        gtk_widget_queue_draw(widget.widget)
        return true
    }

    /// Calls `body` after each painted frame until it returns true.
    /// - Returns: false when `widget` is not realized.
    @discardableResult
    public static func untilDone(of widget: some GPointer, _ body: @escaping @MainActor () -> Bool) -> Bool {
        afterNext(of: widget) {
            if !body() { untilDone(of: widget, body) }
        }
    }

    /// Holds the handler's own connection so it can disconnect itself.
    private final class OnceHandler {
        var connection: SignalConnection?
    }
}
