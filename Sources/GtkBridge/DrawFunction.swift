import CAdwaita

/// A `GtkDrawingArea`'s draw function as a Swift closure, for the few
/// widgets drawn with cairo (the download progress ring).
@MainActor
public enum DrawFunction {
    /// What a draw function is given: the cairo context (clipped to the
    /// area, origin at its top left) and the area's size in pixels.
    public struct Canvas {
        /// The `cairo_t *`, valid only during the call.
        public let cairo: OpaquePointer
        /// The area's width.
        public let width: Int32
        /// The area's height.
        public let height: Int32
    }

    /// Sets `area`'s draw function to `draw`.
    ///
    /// The area owns the handler: GTK releases it when the area is
    /// finalised or given another draw function. Call on the GTK thread;
    /// `draw` runs there, each time GTK draws the area (after
    /// `gtk_widget_queue_draw`, a resize or a style change). Capture the
    /// area's owner `weak`, as with a signal handler.
    /// - Parameters:
    ///   - area: a `GtkDrawingArea`.
    ///   - draw: paints the area.
    public static func set(on area: some GPointer, _ draw: @escaping @MainActor (Canvas) -> Void) {
        let box = Unmanaged.passRetained(ClosureBox<@MainActor (Canvas) -> Void>(draw)).toOpaque()
        gtk_drawing_area_set_draw_func(area.cast(to: GtkDrawingArea.self), drawCallback, box, releaseDrawBox)
    }
}

private let drawCallback: GtkDrawingAreaDrawFunc = { _, cairo, width, height, data in
    guard let data, let cairo else { return }
    let body = boxedHandler(data, as: (@MainActor (DrawFunction.Canvas) -> Void).self)
    // As an address: GTK draws on the main thread, where the context is used.
    let address = Int(bitPattern: cairo)
    MainActor.assumeIsolated {
        guard let cairo = OpaquePointer(bitPattern: address) else { return }
        body(DrawFunction.Canvas(cairo: cairo, width: width, height: height))
    }
}

private let releaseDrawBox: GDestroyNotify = { data in
    guard let data else { return }
    Unmanaged<ClosureBox<@MainActor (DrawFunction.Canvas) -> Void>>.fromOpaque(data).release()
}
