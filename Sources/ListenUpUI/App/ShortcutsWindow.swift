import CAdwaita
import GtkBridge
import ListenUpCore

/// The keyboard shortcuts window (`GtkShortcutsWindow`,
/// `data/ui/shortcuts-window.ui`), transient for `parent`.
@MainActor
enum ShortcutsWindow {
    static func present(over parent: UnsafeMutablePointer<GtkWidget>) {
        let window: Window = PageTemplates.load("shortcuts-window").child("root")
        // GTK leaves the window's search button and field unnamed.
        gtk_window_get_titlebar(window.pointer.cast(to: GtkWindow.self))?
            .firstDescendant(ofType: gtk_toggle_button_get_type())?.setAccessibleLabel(tr("Search Shortcuts"))
        window.firstDescendant(ofType: gtk_search_entry_get_type())?.setAccessibleLabel(tr("Search Shortcuts"))
        gtk_window_set_transient_for(window.pointer.cast(to: GtkWindow.self), parent.cast(to: GtkWindow.self))
        window.present()
    }
}
