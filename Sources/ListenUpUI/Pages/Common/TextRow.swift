import CAdwaita
import GtkBridge

/// A list row of a title and a subtitle, with widgets before them (a
/// cover), widgets after them (a progress, buttons) and an arrow when
/// activating it opens something: the rows of the pages' lists (Home,
/// chapters, a browse page's books and genres, servers found, recent
/// positions, the preferences' lists). Its tree is `data/ui/text-row.ui`.
///
/// It looks like libadwaita's `AdwActionRow` but measures its texts once
/// per width where an action row, in GTK 4.8, measures them dozens of times
/// at every layout (the template says why). It is an `AdwPreferencesRow`,
/// so the preferences' groups (downloads, signed-in devices, paired
/// devices) list it as they list action rows.
struct TextRow: GPointer {
    /// The `AdwPreferencesRow` (a `GtkListBoxRow`).
    let pointer: UnsafeMutablePointer<GtkWidget>
    /// Holds the row until a list does (and for as long as this is kept).
    private let ref: GObjectRef<UnsafeMutablePointer<GtkWidget>>
    private let titleLabel: Label
    private let subtitleLabel: Label
    private let prefixes: Box
    private let suffixes: Box
    private let arrow: Image

    var rawPointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(pointer) }

    /// - Parameters:
    ///   - title: the first line (plain text).
    ///   - subtitle: the dim line under it (empty: none).
    ///   - titleLines: the most lines the title takes before it is
    ///     ellipsized (0: as many as it needs).
    @MainActor
    init(title: String = "", subtitle: String = "", titleLines: Int32 = 0) {
        let ui = PageTemplates.load("text-row")
        let (root, ref): (Widget, _) = ui.root("root")
        (pointer, self.ref) = (root.pointer, ref)
        (titleLabel, subtitleLabel) = (ui.child("title"), ui.child("subtitle"))
        (prefixes, suffixes, arrow) = (ui.child("prefixes"), ui.child("suffixes"), ui.child("arrow"))
        if titleLines > 0 {
            gtk_label_set_lines(titleLabel.opaque, titleLines)
            gtk_label_set_ellipsize(titleLabel.opaque, PANGO_ELLIPSIZE_END)
        }
        titleLabel.text = title
        subtitleLabel.show(subtitle)
    }
}

@MainActor
extension TextRow {
    /// The first line (plain text, never markup).
    var title: String {
        get { titleLabel.text }
        nonmutating set { titleLabel.text = newValue }
    }

    /// The dim line under the title; hidden when empty.
    var subtitle: String {
        get { subtitleLabel.text }
        nonmutating set { subtitleLabel.show(newValue) }
    }

    /// Whether activating the row (a click, Enter) emits the list's
    /// `row-activated`.
    var isActivatable: Bool {
        get { gtk_list_box_row_get_activatable(pointer.cast(to: GtkListBoxRow.self)) != 0 }
        nonmutating set { gtk_list_box_row_set_activatable(pointer.cast(to: GtkListBoxRow.self), newValue ? 1 : 0) }
    }

    /// Whether the arrow at the row's end shows (the row opens something).
    var showsArrow: Bool {
        get { arrow.isVisible }
        nonmutating set { arrow.isVisible = newValue }
    }

    /// Activates the row as a click would.
    func activate() { _ = gtk_widget_activate(pointer) }

    /// Adds `widget` before the texts.
    func addPrefix(_ widget: some GPointer) {
        prefixes.append(widget)
        prefixes.isVisible = true
    }

    /// Adds `widget` after the texts (before the arrow).
    func addSuffix(_ widget: some GPointer) {
        suffixes.append(widget)
        suffixes.isVisible = true
    }
}
