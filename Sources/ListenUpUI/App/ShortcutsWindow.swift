import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// The keyboard shortcuts window (`GtkShortcutsWindow`, built from UI XML
/// with translated titles), transient for `parent`.
@MainActor
enum ShortcutsWindow {
    /// A section of the window: a title and (accelerator, what it does) pairs.
    struct Group {
        let title: String
        let shortcuts: [(accelerator: String, title: String)]
    }

    /// What the app's shortcuts are; the window and its test read this.
    static var groups: [Group] {
        [
            Group(title: tr("General"), shortcuts: [
                ("<Control>comma", tr("Preferences")),
                ("F1 <Control>question", tr("Keyboard Shortcuts")),
                ("<Control>w", tr("Close Window")),
                ("<Control>q", tr("Quit")),
            ]),
            Group(title: tr("Library"), shortcuts: [
                ("<Control>f", tr("Search the Library")),
                ("Escape", tr("Close the Book Details")),
            ]),
            Group(title: tr("Pair a Device"), shortcuts: [
                ("Escape", tr("Stop Pairing")),
            ]),
        ]
    }

    static func present(over parent: UnsafeMutablePointer<GtkWidget>) {
        let builder = GObjectRef<OpaquePointer>(taking: newObject(gtk_builder_new_from_string(xml, -1)))
        defer { withExtendedLifetime(builder) {} }
        guard let object = gtk_builder_get_object(builder.pointer, "shortcuts") else { return }
        let window = UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkWindow.self)
        // GTK leaves the window's search button and field unnamed.
        gtk_window_get_titlebar(window)?.firstDescendant(ofType: gtk_toggle_button_get_type())?.setAccessibleLabel(tr("Search Shortcuts"))
        window.firstDescendant(ofType: gtk_search_entry_get_type())?.setAccessibleLabel(tr("Search Shortcuts"))
        gtk_window_set_transient_for(window, parent.cast(to: GtkWindow.self))
        gtk_window_set_modal(window, 1)
        gtk_window_present(window)
    }

    /// The window as GtkBuilder XML.
    static var xml: String {
        var text = #"<interface><object class="GtkShortcutsWindow" id="shortcuts"><property name="modal">1</property>"#
        text += #"<child><object class="GtkShortcutsSection"><property name="section-name">main</property>"#
        for group in groups {
            text += #"<child><object class="GtkShortcutsGroup"><property name="title">\#(escape(group.title))</property>"#
            for shortcut in group.shortcuts {
                text += #"<child><object class="GtkShortcutsShortcut">"#
                text += #"<property name="title">\#(escape(shortcut.title))</property>"#
                text += #"<property name="accelerator">\#(escape(shortcut.accelerator))</property></object></child>"#
            }
            text += "</object></child>"
        }
        return text + "</object></child></object></interface>"
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
