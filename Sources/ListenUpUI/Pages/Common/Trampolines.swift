import CAdwaita
import GtkBridge

// C trampolines shared by the pages, one per signal signature. Each reads the
// Swift closure that `connect(_:trampoline:body:)` stored as user data.
// Pointers cross into the main-actor closure as addresses: GTK emits these
// signals on the main thread, and the closures use them only there.

/// `void (*)(GObject *, gpointer arg, gpointer data)`: list-item factory
/// signals (`setup`, `bind`, `unbind`, `teardown`), `row-activated`.
let pointerArgumentTrampoline: GCallback = unsafeBitCast(
    { (_: UnsafeMutableRawPointer?, argument: UnsafeMutableRawPointer?, data: UnsafeMutableRawPointer?) in
        guard let data else { return }
        let body = signalHandlerBody(data, as: (@MainActor (UnsafeMutableRawPointer?) -> Void).self)
        let address = Int(bitPattern: argument)
        MainActor.assumeIsolated { body(UnsafeMutableRawPointer(bitPattern: address)) }
    } as @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void,
    to: GCallback.self
)

/// `void (*)(GObject *, guint position, gpointer data)`: `activate` of
/// GtkGridView and GtkListView.
let positionTrampoline: GCallback = unsafeBitCast(
    { (_: UnsafeMutableRawPointer?, position: guint, data: UnsafeMutableRawPointer?) in
        guard let data else { return }
        let body = signalHandlerBody(data, as: (@MainActor (UInt32) -> Void).self)
        MainActor.assumeIsolated { body(position) }
    } as @convention(c) (UnsafeMutableRawPointer?, guint, UnsafeMutableRawPointer?) -> Void,
    to: GCallback.self
)

/// Adds a keyboard shortcut (`trigger` as GTK parses it, e.g. `<Control>f`)
/// to `controller` that runs `handler`; the handler's result says whether
/// the key was used.
@MainActor
func addShortcut(_ trigger: String, to controller: OpaquePointer, _ handler: @escaping @MainActor () -> Bool) {
    final class Box {
        let body: @MainActor () -> Bool
        init(_ body: @escaping @MainActor () -> Bool) { self.body = body }
    }
    let callback: GtkShortcutFunc = { _, _, data in
        guard let data else { return 0 }
        let box = Unmanaged<Box>.fromOpaque(data).takeUnretainedValue()
        return MainActor.assumeIsolated { box.body() } ? 1 : 0
    }
    let release: GDestroyNotify = { data in
        guard let data else { return }
        Unmanaged<Box>.fromOpaque(data).release()
    }
    let action = gtk_callback_action_new(callback, Unmanaged.passRetained(Box(handler)).toOpaque(), release)
    let shortcut = gtk_shortcut_new(gtk_shortcut_trigger_parse_string(trigger), action)
    gtk_shortcut_controller_add_shortcut(controller, shortcut)
}
