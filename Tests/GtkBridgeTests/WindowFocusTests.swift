import CAdwaita
import GtkBridge
import XCTest

/// Which widgets keep their keys from the window's player shortcuts:
/// typing (text fields, sliders) and arrow navigation (lists, grids,
/// menus), so ↑/↓ and ←/→ move through the library's grid, not the book.
final class WindowFocusTests: XCTestCase {
    func testTextFieldsSlidersListsAndMenusKeepTheirKeys() throws {
        try MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let window: UnsafeMutablePointer<GtkWidget> = newObject(gtk_window_new())
            defer { gtk_window_destroy(window.cast(to: GtkWindow.self)); MainContext.drainPending() }
            let box: UnsafeMutablePointer<GtkWidget> = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 4))
            gtk_window_set_child(window.cast(to: GtkWindow.self), box)
            func add(_ widget: UnsafeMutablePointer<GtkWidget>?) -> UnsafeMutablePointer<GtkWidget> {
                let widget = newObject(widget)
                gtk_box_append(box.cast(to: GtkBox.self), widget)
                return widget
            }
            let button = add(gtk_button_new_with_label("Play"))
            let entry = add(gtk_entry_new())
            let scale = add(gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, 0, 1, 0.1))
            let list = add(gtk_list_box_new())
            let rowLabel: UnsafeMutablePointer<GtkWidget> = newObject(gtk_label_new("A row"))
            gtk_list_box_append(OpaquePointer(list), rowLabel)
            let grid = add(Self.gridView(items: ["One", "Two", "Three"]))
            gtk_widget_set_size_request(grid, 300, 100)
            let menu = add(gtk_menu_button_new())
            let popover: UnsafeMutablePointer<GtkWidget> = newObject(gtk_popover_new())
            let inMenu: UnsafeMutablePointer<GtkWidget> = newObject(gtk_button_new_with_label("In a menu"))
            gtk_popover_set_child(popover.cast(to: GtkPopover.self), inMenu)
            gtk_menu_button_set_popover(OpaquePointer(menu), popover)
            gtk_window_present(window.cast(to: GtkWindow.self))
            MainContext.iterate(until: { gtk_widget_get_mapped(grid) != 0 && gtk_widget_get_first_child(grid) != nil })
            let root = Window(unchecked: window)

            @MainActor func focus(_ widget: UnsafeMutablePointer<GtkWidget>) -> (keys: Bool, arrows: Bool) {
                XCTAssertNotEqual(gtk_widget_grab_focus(widget), 0, "focus went nowhere")
                MainContext.iterate(until: { false }, timeout: .milliseconds(30))
                return (root.focusTakesKeys, root.focusTakesArrows)
            }
            XCTAssertTrue(focus(button) == (false, false), "a button: every player key is the player's")
            XCTAssertTrue(focus(entry) == (true, true), "a text field types")
            XCTAssertTrue(focus(scale) == (true, true), "a slider takes arrows")
            let row = try XCTUnwrap(gtk_widget_get_parent(rowLabel))
            XCTAssertTrue(focus(row) == (false, true), "a list's row: arrows move through the list, Space stays the player's")
            let item = try XCTUnwrap(gtk_widget_get_first_child(grid))
            XCTAssertTrue(focus(item) == (false, true), "a grid's item: arrows move through the grid")
            XCTAssertTrue(gtk_widget_is_ancestor(try XCTUnwrap(gtk_root_get_focus(OpaquePointer(window))), grid) != 0, "the focus is in the grid")
            gtk_menu_button_popup(OpaquePointer(menu))
            MainContext.iterate(until: { gtk_widget_get_mapped(inMenu) != 0 })
            XCTAssertTrue(focus(inMenu) == (false, true), "a menu: arrows move through it")
            gtk_popover_popdown(popover.cast(to: GtkPopover.self))
        }
    }

    /// A GtkGridView of labels (a builder factory: no C callbacks).
    @MainActor
    static func gridView(items: [String]) -> UnsafeMutablePointer<GtkWidget>? {
        let strings = gtk_string_list_new(nil)
        for item in items { gtk_string_list_append(strings, item) }
        let selection = gtk_single_selection_new(strings)
        let ui = """
            <interface><template class="GtkListItem"><property name="child"><object class="GtkLabel">
            <binding name="label"><lookup name="string" type="GtkStringObject"><lookup name="item">GtkListItem</lookup></lookup></binding>
            </object></property></template></interface>
            """
        let bytes = ui.withCString { g_bytes_new($0, gsize(strlen($0))) }
        defer { g_bytes_unref(bytes) }
        let factory = gtk_builder_list_item_factory_new_from_bytes(nil, bytes)
        return gtk_grid_view_new(selection, factory)
    }
}
