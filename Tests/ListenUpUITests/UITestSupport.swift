import CAdwaita
import Foundation
import GtkBridge
import Logging
import XCTest
@testable import ListenUpUI

let quietLogger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

/// GTK tests: plain XCTest methods on the main thread that enter the main
/// actor with `assumeIsolated` (an `@MainActor` XCTest method crashes on Linux).
@MainActor
func requireGtk(file: StaticString = #filePath, line: UInt = #line) -> Bool {
    guard GtkRuntime.initialize() else {
        XCTFail("No display: run the GTK tests under Xvfb (make test does)", file: file, line: line)
        return false
    }
    adw_init()
    GtkRuntime.setAnimationsEnabled(false)
    return true
}

/// The checkout's data folder.
func checkoutData() -> DataDirectory? {
    DataDirectory.locate(environment: [:], executable: URL(fileURLWithPath: "/nonexistent/bin/x"))
}

/// A window for a test, shown, with `child` inside; destroyed by `close()`.
@MainActor
final class TestWindow {
    let window: UnsafeMutablePointer<GtkWidget>

    init(child: some GPointer, width: Int32 = 480, height: Int32 = 360) {
        window = newObject(gtk_window_new())
        gtk_window_set_default_size(window.cast(to: GtkWindow.self), width, height)
        gtk_window_set_child(window.cast(to: GtkWindow.self), child.widget)
        gtk_window_present(window.cast(to: GtkWindow.self))
        MainContext.iterate(until: { gtk_widget_get_mapped(self.window) != 0 && gtk_widget_get_width(child.widget) > 0 })
        settle()
    }

    /// Lets GTK restyle and lay out: 60 ms, and at least two frames painted
    /// since the call. On a loaded machine 60 ms can pass without a frame,
    /// and a test then reads cells GTK has made but not laid out yet; the
    /// second frame lays out what the first one's layout added.
    func settle() {
        final class Frames { var painted = 0 }
        let frames = Frames()
        FramePaint.untilDone(of: window) {
            frames.painted += 1
            return frames.painted >= 2
        }
        MainContext.iterate(until: { false }, timeout: .milliseconds(60))
        MainContext.iterate(until: { frames.painted >= 2 }, timeout: .seconds(5))
    }

    func close() {
        gtk_window_destroy(window.cast(to: GtkWindow.self))
        MainContext.drainPending()
    }
}

/// A style sheet made from text, for test-only backgrounds.
@MainActor
final class TestCSS {
    private let provider = GObjectRef(taking: gtk_css_provider_new()!)

    init(_ css: String) {
        gtk_css_provider_load_from_data(provider.pointer, css, -1)
        gtk_style_context_add_provider_for_display(gdk_display_get_default(), provider.pointer.opaque, guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION) + 10)
    }

    func remove() {
        gtk_style_context_remove_provider_for_display(gdk_display_get_default(), provider.pointer.opaque)
    }
}

/// Emits a no-argument signal (`clicked`, `activate`) the way GTK would.
@MainActor
func emit(_ signal: String, on instance: some GPointer) {
    let type = instance.rawPointer.assumingMemoryBound(to: GTypeInstance.self).pointee.g_class.pointee.g_type
    let id = g_signal_lookup(signal, type)
    precondition(id != 0, "no signal \(signal)")
    var value = GValue()
    g_value_init(&value, type)
    g_value_set_object(&value, instance.rawPointer)
    g_signal_emitv(&value, id, 0, nil)
    g_value_unset(&value)
}

/// Reads a PNG into pixels.
@MainActor
func loadPNG(_ path: String) -> (width: Int, height: Int, pixel: (Int, Int) -> RenderedImage.Pixel)? {
    guard let texture = gdk_texture_new_from_filename(path, nil) else { return nil }
    defer { g_object_unref(texture.rawPointer) }
    let width = Int(gdk_texture_get_width(texture)), height = Int(gdk_texture_get_height(texture))
    var bytes = [UInt8](repeating: 0, count: width * height * 4)
    bytes.withUnsafeMutableBufferPointer { gdk_texture_download(texture, $0.baseAddress, gsize(width * 4)) }
    return (width, height, { x, y in
        let i = (y * width + x) * 4
        return RenderedImage.Pixel(red: bytes[i + 2], green: bytes[i + 1], blue: bytes[i], alpha: bytes[i + 3])
    })
}

/// Runs `body` inside an activated application (windows need one), then
/// quits and frees it.
@MainActor
func withApplication(_ id: String, _ body: @escaping @MainActor (UnsafeMutablePointer<AdwApplication>) -> Void) {
    MainContext.installDispatchBridge()
    let app = newObject(adw_application_new("io.github.listenup.Desktop.\(id)", G_APPLICATION_NON_UNIQUE))
    let activation = app.connect(.activate) {
        body(app)
        g_application_quit(app.cast(to: GApplication.self))
    }
    var argv: [UnsafeMutablePointer<CChar>?] = [strdup("test"), nil]
    _ = g_application_run(app.cast(to: GApplication.self), 1, &argv)
    activation.disconnect() // the handler stays connected until here
    free(argv[0])
    g_object_unref(app)
}

/// Runs `widget`'s shortcut for `trigger` (as `gtk_shortcut_trigger_to_string`
/// writes it), as GTK does on that key; false when it has none or it declined.
@MainActor
func pressShortcut(_ trigger: String, on widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
    guard let controllers = gtk_widget_observe_controllers(widget) else { return false }
    defer { g_object_unref(UnsafeMutableRawPointer(controllers)) }
    for index in 0..<g_list_model_get_n_items(controllers) {
        guard let controller = g_list_model_get_item(controllers, index) else { continue }
        defer { g_object_unref(controller) }
        guard g_type_check_instance_is_a(controller.assumingMemoryBound(to: GTypeInstance.self), gtk_shortcut_controller_get_type()) != 0 else {
            continue
        }
        let shortcuts = OpaquePointer(controller)
        for position in 0..<g_list_model_get_n_items(shortcuts) {
            guard let item = g_list_model_get_item(shortcuts, position) else { continue }
            defer { g_object_unref(item) }
            let shortcut = OpaquePointer(item)
            guard let text = gtk_shortcut_trigger_to_string(gtk_shortcut_get_trigger(shortcut)) else { continue }
            defer { g_free(text) }
            if String(cString: text) == trigger,
               gtk_shortcut_action_activate(gtk_shortcut_get_action(shortcut), GTK_SHORTCUT_ACTION_EXCLUSIVE, widget, nil) != 0 {
                return true
            }
        }
    }
    return false
}
