import CAdwaita
import GtkBridge
import XCTest
@testable import ListenUpUI

/// `TextRow` (`text-row.ui`) stands in for `AdwActionRow` in long lists, so
/// it must look like one: the same height, and its cover, texts and arrow
/// in the same places, at a width where the texts fit and at one where the
/// title wraps (or, limited to two lines, is ellipsized).
final class TextRowTests: XCTestCase {
    private static let title = "Grace Hopper finished The Extraordinarily Long and Winding Chronicle of Everything"
    private static let subtitle = "5 minutes ago"

    func testItLaysOutLikeAnActionRow() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            for width: Int32 in [700, 260] {
                for lines: Int32 in [0, 2] {
                    let list = ListBox(unchecked: newObject(gtk_list_box_new()))
                    list.setCSSClass("boxed-list", true)
                    let reference = Self.actionRow(titleLines: lines)
                    let (row, parts) = Self.textRow(titleLines: lines)
                    list.append(reference.row)
                    list.append(row)
                    let window = TestWindow(child: list, width: width, height: 600)
                    defer { window.close() }
                    let context = "\(width) px wide, title lines \(lines)"
                    XCTAssertEqual(gtk_widget_get_height(row.pointer), gtk_widget_get_height(reference.row.pointer), context)
                    for (name, mine, theirs) in [("cover", parts.cover, reference.cover), ("arrow", parts.arrow, reference.arrow),
                                                 ("title", Self.label(Self.title, in: row.pointer), Self.label(Self.title, in: reference.row.pointer)),
                                                 ("subtitle", Self.label(Self.subtitle, in: row.pointer),
                                                  Self.label(Self.subtitle, in: reference.row.pointer))] {
                        XCTAssertEqual(Self.bounds(of: mine, in: row.pointer), Self.bounds(of: theirs, in: reference.row.pointer),
                                       "the \(name), \(context)")
                    }
                }
            }
        }
    }

    /// The preferences' downloads, signed-in devices and paired devices are
    /// `TextRow`s in an `AdwPreferencesGroup`, which puts a row in its
    /// boxed list only when it is a preferences row (anything else goes
    /// under the list, unframed).
    func testAPreferencesGroupListsItAsItListsAnActionRow() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let group = PreferencesGroup(unchecked: newObject(adw_preferences_group_new()))
            let reference = ActionRow(title: Self.title, subtitle: Self.subtitle)
            let row = TextRow(title: Self.title, subtitle: Self.subtitle)
            reference.addSuffix(Self.revokeButton())
            row.addSuffix(Self.revokeButton())
            group.add(reference)
            group.add(row)
            let window = TestWindow(child: group, width: 500, height: 400)
            defer { window.close() }
            let list = gtk_widget_get_parent(reference.pointer)
            XCTAssertNotNil(list.flatMap { ListBox(checking: Widget(unchecked: $0)) }, "an action row is in the group's list")
            XCTAssertEqual(gtk_widget_get_parent(row.pointer), list, "so is the text row, right under it")
            XCTAssertEqual(gtk_widget_get_height(row.pointer), gtk_widget_get_height(reference.pointer))
            XCTAssertEqual(Self.bounds(of: Self.label(Self.title, in: row.pointer), in: row.pointer),
                           Self.bounds(of: Self.label(Self.title, in: reference.pointer), in: reference.pointer), "the title")
        }
    }

    func testTheSubtitleArrowAndEndsShowOnlyWhenUsed() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let row = TextRow()
            let list = ListBox(unchecked: newObject(gtk_list_box_new()))
            list.append(row)
            let window = TestWindow(child: list)
            defer { window.close() }
            row.title = "Middlemarch & Co"
            XCTAssertEqual(row.title, "Middlemarch & Co", "plain text")
            let subtitle = Self.label("", in: row.pointer, subtitle: true)
            XCTAssertFalse(gtk_widget_get_visible(subtitle) != 0, "no subtitle yet")
            row.subtitle = "2 books"
            XCTAssertEqual(row.subtitle, "2 books")
            XCTAssertTrue(gtk_widget_get_visible(subtitle) != 0)
            row.subtitle = ""
            XCTAssertFalse(gtk_widget_get_visible(subtitle) != 0, "an empty subtitle hides")

            XCTAssertFalse(row.isActivatable, "a row opens nothing unless told")
            XCTAssertFalse(row.showsArrow)
            (row.isActivatable, row.showsArrow) = (true, true)
            XCTAssertEqual(gtk_list_box_row_get_activatable(row.pointer.cast(to: GtkListBoxRow.self)), 1)
            XCTAssertTrue(row.showsArrow)

            let prefix: UnsafeMutablePointer<GtkWidget> = newObject(gtk_image_new())
            let suffix: UnsafeMutablePointer<GtkWidget> = newObject(gtk_button_new())
            row.addPrefix(prefix)
            row.addSuffix(suffix)
            for widget in [prefix, suffix] {
                let holder = gtk_widget_get_parent(widget)
                XCTAssertNotNil(holder)
                XCTAssertEqual(holder.map { gtk_widget_get_visible($0) }, 1, "a box shows once it holds something")
            }
        }
    }

    /// An `AdwActionRow` as the app made them: a 40-pixel cover first, an
    /// arrow last.
    @MainActor
    private static func actionRow(titleLines: Int32) -> (row: ActionRow, cover: UnsafeMutablePointer<GtkWidget>,
                                                         arrow: UnsafeMutablePointer<GtkWidget>) {
        let row = ActionRow(title: title, subtitle: subtitle, activatable: true)
        adw_action_row_set_title_lines(row.pointer.cast(to: AdwActionRow.self), titleLines)
        let cover = Self.cover()
        adw_action_row_add_prefix(row.pointer.cast(to: AdwActionRow.self), cover)
        let arrow: UnsafeMutablePointer<GtkWidget> = newObject(gtk_image_new_from_icon_name("go-next-symbolic"))
        row.addSuffix(arrow)
        return (row, cover, arrow)
    }

    @MainActor
    private static func textRow(titleLines: Int32) -> (row: TextRow, parts: (cover: UnsafeMutablePointer<GtkWidget>,
                                                                              arrow: UnsafeMutablePointer<GtkWidget>)) {
        let row = TextRow(titleLines: titleLines)
        (row.title, row.subtitle, row.isActivatable, row.showsArrow) = (title, subtitle, true, true)
        let cover = Self.cover()
        row.addPrefix(cover)
        let arrow = row.descendants(ofType: gtk_image_get_type()).last { gtk_widget_get_visible($0) != 0 }
        return (row, (cover, arrow ?? cover))
    }

    @MainActor
    private static func revokeButton() -> UnsafeMutablePointer<GtkWidget> {
        let button: UnsafeMutablePointer<GtkWidget> = newObject(gtk_button_new_with_label("Revoke"))
        gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
        return button
    }

    @MainActor
    private static func cover() -> UnsafeMutablePointer<GtkWidget> {
        let cover: UnsafeMutablePointer<GtkWidget> = newObject(gtk_drawing_area_new())
        gtk_widget_set_size_request(cover, 40, 40)
        return cover
    }

    @MainActor
    private static func label(_ text: String, in row: UnsafeMutablePointer<GtkWidget>,
                              subtitle: Bool = false) -> UnsafeMutablePointer<GtkWidget> {
        let labels = row.descendants(ofType: gtk_label_get_type())
        let found = subtitle ? labels.last : labels.first { Label(unchecked: $0).text == text }
        guard let found else {
            XCTFail("no label \(text)")
            return row
        }
        return found
    }

    @MainActor
    private static func bounds(of widget: UnsafeMutablePointer<GtkWidget>, in row: UnsafeMutablePointer<GtkWidget>) -> [Float] {
        var rect = graphene_rect_t()
        XCTAssertNotEqual(gtk_widget_compute_bounds(widget, row, &rect), 0)
        return [rect.origin.x, rect.origin.y, rect.size.width, rect.size.height]
    }
}

@MainActor
private extension ActionRow {
    /// A new action row as libadwaita makes one, the reference a `TextRow`
    /// is held against (plain text, like the app's rows).
    init(title: String, subtitle: String, activatable: Bool = false) {
        self.init(unchecked: newObject(adw_action_row_new()))
        adw_preferences_row_set_use_markup(pointer.cast(to: AdwPreferencesRow.self), 0)
        adw_preferences_row_set_title(pointer.cast(to: AdwPreferencesRow.self), title)
        adw_action_row_set_subtitle(pointer.cast(to: AdwActionRow.self), subtitle)
        gtk_list_box_row_set_activatable(pointer.cast(to: GtkListBoxRow.self), activatable ? 1 : 0)
    }

    func addSuffix(_ widget: UnsafeMutablePointer<GtkWidget>) {
        adw_action_row_add_suffix(pointer.cast(to: AdwActionRow.self), widget)
    }
}
