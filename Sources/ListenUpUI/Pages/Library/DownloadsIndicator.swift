import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// The library heading's total while books download: a small ring with the
/// overall fraction and "2 books downloading · 35 %" beside it (the bytes,
/// "120 MB of 512 MB", in its tooltip). Hidden when nothing downloads or
/// waits. Plain text, not a control: it takes no focus, and a screen
/// reader reads it with the heading.
@MainActor
final class DownloadsIndicator {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let ring: DownloadRing
    private let label: OpaquePointer
    private var observation: StateObservation?
    private var shownLine: String?
    private var shownDetail: String?

    init(downloads: DownloadsModel?) {
        widget = newObject(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8))
        widget.addClasses(StyleClass("downloads-total"))
        gtk_widget_set_valign(widget, GTK_ALIGN_CENTER)
        ring = DownloadRing(size: 18, thickness: 0.16)
        label = OpaquePointer(newObject(gtk_label_new(nil)))
        label.addClasses(.caption)
        gtk_box_append(widget.cast(to: GtkBox.self), ring.widget)
        gtk_box_append(widget.cast(to: GtkBox.self), label.widget)
        gtk_widget_set_visible(widget, 0)
        guard let downloads else { return }
        observation = StateObservation { [weak self, weak downloads] in
            guard let self, let downloads else { return }
            self.show(DownloadText.total(of: downloads))
        }
    }

    private func show(_ total: (line: String, detail: String, fraction: Double)?) {
        gtk_widget_set_visible(widget, total == nil ? 0 : 1)
        guard let total else { return }
        ring.show(total.fraction)
        if total.line != shownLine {
            shownLine = total.line
            gtk_label_set_label(label, total.line)
        }
        if total.detail != shownDetail {
            shownDetail = total.detail
            gtk_widget_set_tooltip_text(widget, total.detail)
        }
    }

    /// The line shown, nil while hidden (tests).
    var shownText: String? {
        gtk_widget_get_visible(widget) != 0 ? String(cString: gtk_label_get_label(label)) : nil
    }

    func teardown() {
        observation?.cancel()
        observation = nil
    }
}
