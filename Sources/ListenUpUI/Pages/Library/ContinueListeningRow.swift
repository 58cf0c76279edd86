import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// *Continue listening*: the books in progress, most recent first, in a
/// row above the library (from the server, cached for offline). Each is a
/// glass button that plays the book from where it was left.
@MainActor
final class ContinueListeningRow {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let items: UnsafeMutablePointer<GtkWidget>
    private let player: PlayerModel?
    private var shown: [ContinueListeningItem] = []
    private var covers: [Task<Void, Never>] = []
    private var connections: [SignalConnection] = []
    private var observation: StateObservation?
    /// The item buttons, by book id (tests).
    private(set) var buttons: [String: UnsafeMutablePointer<GtkWidget>] = [:]

    init(player: PlayerModel?) {
        self.player = player
        widget = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 6))
        widget.addClasses(StyleClass("continue-listening"))
        gtk_widget_set_margin_start(widget, 18)
        gtk_widget_set_margin_end(widget, 18)
        gtk_widget_set_margin_top(widget, 6)
        let heading = OpaquePointer(newObject(gtk_label_new(tr("Continue Listening"))))
        heading.addClasses(.heading)
        gtk_label_set_xalign(heading, 0)
        items = newObject(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 10))
        let scrolled = newObject(gtk_scrolled_window_new())
        gtk_scrolled_window_set_policy(scrolled.opaque, GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER)
        gtk_scrolled_window_set_child(scrolled.opaque, items)
        scrolled.setAccessibleLabel(tr("Continue Listening"))
        gtk_box_append(widget.cast(to: GtkBox.self), heading.widget)
        gtk_box_append(widget.cast(to: GtkBox.self), scrolled)
        gtk_widget_set_visible(widget, 0)
        observation = StateObservation { [weak self] in self?.render() }
    }

    private func render() {
        let list = player?.continueListening ?? []
        gtk_widget_set_visible(widget, list.isEmpty ? 0 : 1)
        guard list != shown, let player else { return }
        shown = list
        covers.forEach { $0.cancel() }
        covers = []
        connections = []
        buttons = [:]
        while let child = gtk_widget_get_first_child(items) { gtk_box_remove(items.cast(to: GtkBox.self), child) }
        for item in list {
            let button = newObject(gtk_button_new())
            button.addClasses(.glass, .glassRegular, .glassInteractive, StyleClass("continue-item"))
            // TRANSLATORS: a button in Continue listening; %@ is the book's title.
            button.setAccessibleLabel(tr("Play %@", item.title))
            gtk_widget_set_tooltip_text(button, item.title)
            let box = newObject(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 10))
            let cover = CoverView(size: 56)
            cover.showPlaceholder(for: item.title)
            let texts = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 2))
            gtk_widget_set_valign(texts, GTK_ALIGN_CENTER)
            let title = OpaquePointer(newObject(gtk_label_new(item.title)))
            title.addClasses(.heading)
            let author = OpaquePointer(newObject(gtk_label_new(item.author ?? "")))
            author.addClasses(.caption, .dimLabel)
            for label in [title, author] {
                gtk_label_set_xalign(label, 0)
                gtk_label_set_ellipsize(label, PANGO_ELLIPSIZE_END)
                gtk_label_set_max_width_chars(label, 22)
                gtk_box_append(texts.cast(to: GtkBox.self), label.widget)
            }
            let progress = OpaquePointer(newObject(gtk_progress_bar_new()))
            gtk_progress_bar_set_fraction(progress, min(1, max(0, item.progress)))
            progress.addClasses(StyleClass("continue-progress"))
            gtk_box_append(texts.cast(to: GtkBox.self), progress.widget)
            gtk_box_append(box.cast(to: GtkBox.self), cover.widget)
            gtk_box_append(box.cast(to: GtkBox.self), texts)
            gtk_button_set_child(button.cast(to: GtkButton.self), box)
            let id = item.bookID
            connections.append(button.connect(.clicked) { [weak player] in player?.send(.play(bookID: id)) })
            gtk_box_append(items.cast(to: GtkBox.self), button)
            buttons[id] = button
            covers.append(Task { [weak cover] in
                guard let data = await player.cover(bookID: id), let texture = await CoverTexture.decode(data.bytes, size: 112) else { return }
                cover?.show(texture)
            })
        }
    }

    func teardown() {
        observation?.cancel()
        covers.forEach { $0.cancel() }
        connections = []
    }
}
