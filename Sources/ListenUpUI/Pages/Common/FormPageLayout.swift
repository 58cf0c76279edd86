import CAdwaita
import GtkBridge
import ListenUpCore

/// The layout the set-up pages share: on the glass backdrop, a centred
/// column (clamped to 440 px) with an icon, a title and a subtitle over a
/// glass card. The page fills the card. The tree is `data/ui/form-page.ui`.
@MainActor
final class FormPageLayout {
    /// The root widget (a scrolled window).
    let widget: UnsafeMutablePointer<GtkWidget>
    /// The glass card under the heading.
    let card: Box
    /// The column, for extra sections after the card.
    let column: Box
    private let subtitleLabel: Label
    private let ui: Template
    private let ref: GObjectRef<UnsafeMutablePointer<GtkWidget>>

    init(icon: String, title: String, subtitle: String, iconClass: StyleClass = StyleClass("page-icon")) {
        ui = PageTemplates.load("form-page")
        let root: Widget
        (root, ref) = ui.root("root")
        widget = root.pointer
        (card, column, subtitleLabel) = (ui.child("card"), ui.child("column"), ui.child("subtitle"))
        // The scrolled page can take focus (to scroll by keyboard): name it
        // after the page, as a screen reader announces it.
        widget.setAccessibleLabel(title)
        let image: Image = ui.child("icon")
        image.setIcon(icon)
        image.addClasses(iconClass)
        ui.child("title", as: Label.self).text = title
        subtitleLabel.text = subtitle
    }

    /// Changes the subtitle (e.g. to name the server).
    var subtitle: String {
        get { subtitleLabel.text }
        set { subtitleLabel.text = newValue }
    }

    /// Appends a widget to the column, after the card.
    func appendToColumn(_ child: some GPointer) {
        column.append(child)
    }

    /// Appends "Change Server" (a flat button) to the column.
    func appendChangeServer() -> Button {
        let button: Button = ui.child("change-server")
        column.append(button)
        return button
    }

    /// Appends "Pair a Device…" to the column: a link that runs the window's
    /// ``WindowAction/pairDevice`` action (the primary menu's entry), so it
    /// needs no model.
    func appendPairLink() -> Button {
        let link: Button = ui.child("pair-link")
        column.append(link)
        return link
    }
}

/// A line of text with an icon on a tinted background: status and errors
/// below a form's button. Hidden while empty. The tree is
/// `data/ui/notice-row.ui`.
@MainActor
final class NoticeRow {
    let widget: UnsafeMutablePointer<GtkWidget>
    let label: Label
    private let icon: Image
    private let ref: GObjectRef<UnsafeMutablePointer<GtkWidget>>

    init() {
        let ui = PageTemplates.load("notice-row")
        let root: Widget
        (root, ref) = ui.root("root")
        widget = root.pointer
        (label, icon) = (ui.child("label"), ui.child("icon"))
    }

    /// Shows `text` (nil hides the row); `isError` uses the error styling and icon.
    func show(_ text: String?, isError: Bool = false) {
        let row = Widget(widget)
        // A new message while one is shown: hide first, so the alert appears
        // again and is announced again.
        if text != nil, text != self.text, isVisible { row.isVisible = false }
        label.text = text ?? ""
        widget.setAccessibleLabel(text ?? "")
        row.isVisible = text != nil
        widget.setClass(.error, isError)
        icon.setIcon(isError ? "dialog-warning-symbolic" : "dialog-information-symbolic")
    }

    var text: String { label.text }
    var isVisible: Bool { Widget(widget).isVisible }
}
