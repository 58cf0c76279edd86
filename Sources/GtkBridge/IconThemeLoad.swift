import CAdwaita

/// Reads the display's icon theme on a GLib worker thread, once the app has
/// set it up, so that the first icon drawn does not read it on the main
/// thread.
///
/// GTK 4 starts reading the theme in a thread as soon as the display opens.
/// Then libadwaita's `adw_init` and `GtkApplication`'s start-up each add a
/// resource path, and the app adds its own search path: every change throws
/// away what was read (`do_theme_change` in `gtkicontheme.c`). So the first
/// icon a window drew read the whole theme again on the main thread, 5–7 ms
/// before the first frame on the test machine (docs/performance.md).
///
/// This reads it again after the last change, the way GTK's own early read
/// does (`load_theme_thread`: a look-up from a `GTask` thread). GTK supports
/// look-ups from other threads once the theme is set up on the main thread;
/// a look-up on the main thread meanwhile waits on the theme's lock for the
/// rest of the read instead of starting over.
@MainActor
public enum IconThemeLoad {
    /// Starts the read for `display`'s icon theme. Call it after the last
    /// change to the theme's search or resource paths.
    /// - Parameter done: runs on the main loop once the theme is read.
    public static func start(for display: OpaquePointer, then done: (@MainActor () -> Void)? = nil) {
        let theme = gtk_icon_theme_get_for_display(display)
        let callback = done.map { Unmanaged.passRetained(ClosureBox($0)).toOpaque() }
        // The task holds a reference on the theme until the thread is done;
        // its callback comes on this thread's main context.
        let task = GObjectRef(taking: g_task_new(UnsafeMutableRawPointer(theme), nil, callback == nil ? nil : finished, callback))
        g_task_run_in_thread(task.pointer, readTheme)
    }

    private static let finished: GAsyncReadyCallback = { _, _, data in
        guard let data else { return }
        let body = Unmanaged<ClosureBox<@MainActor () -> Void>>.fromOpaque(data).takeRetainedValue().body
        MainActor.assumeIsolated { body() }
    }
}

/// The worker thread's body, outside the main actor: it runs on a GLib pool
/// thread. Any look-up reads the theme first; the name does not matter.
private let readTheme: GTaskThreadFunc = { task, source, _, _ in
    if let source { _ = gtk_icon_theme_has_icon(OpaquePointer(source), "image-missing") }
    g_task_return_boolean(task, 1)
}
