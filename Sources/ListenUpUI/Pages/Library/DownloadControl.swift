import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// The details panel's download control, following one book's download:
///
/// | state | shows | buttons |
/// |---|---|---|
/// | not downloaded | | Download (512.3 MB) |
/// | queued | "Waiting to download" | Cancel |
/// | downloading | bar, "120 MB of 512 MB · 23 %" | Pause, Cancel |
/// | paused | the reason (if any), bar, "Paused · 120 MB of 512 MB" | Resume, Cancel |
/// | failed | the reason (in the error colour) | Try Again, Cancel |
/// | done | "Downloaded · 512 MB" | Remove Download |
///
/// It observes the downloads itself (one control, shown with the panel)
/// and redraws only when its own book's download changed; clicks go out as
/// intents through `send`.
@MainActor
final class DownloadControl {
    let widget: UnsafeMutablePointer<GtkWidget>
    /// The state, or why it stopped.
    private let status: OpaquePointer
    private let bar: OpaquePointer
    /// The bytes under the bar.
    private let detail: OpaquePointer
    /// The buttons, each shown in some states (tests press them).
    let downloadButton: UnsafeMutablePointer<GtkWidget>
    let pauseButton: UnsafeMutablePointer<GtkWidget>
    let resumeButton: UnsafeMutablePointer<GtkWidget>
    let retryButton: UnsafeMutablePointer<GtkWidget>
    let cancelButton: UnsafeMutablePointer<GtkWidget>
    let removeButton: UnsafeMutablePointer<GtkWidget>
    private let bookID: String
    private var connections: [SignalConnection] = []
    private var observation: StateObservation?
    /// What is shown (nil: not downloaded); `shownOnce` tells it from "never shown".
    private(set) var shown: DownloadsModel.Item?
    private var shownOnce = false

    /// - Parameters:
    ///   - bookID: the book whose download it shows.
    ///   - size: the book's size for the Download button, when known.
    ///   - downloads: read for the book's download, now and on each change.
    ///   - send: receives the buttons' intents.
    init(bookID: String, size: Int64?, downloads: DownloadsModel, send: @escaping @MainActor (DownloadsModel.Intent) -> Void) {
        self.bookID = bookID
        widget = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 6))
        widget.addClasses(StyleClass("download-control"))
        status = OpaquePointer(newObject(gtk_label_new(nil)))
        status.addClasses(.caption)
        gtk_label_set_xalign(status, 0)
        gtk_label_set_wrap(status, 1)
        gtk_label_set_wrap_mode(status, PANGO_WRAP_WORD_CHAR)
        detail = OpaquePointer(newObject(gtk_label_new(nil)))
        detail.addClasses(.caption, .dimLabel)
        gtk_label_set_xalign(detail, 0)
        bar = OpaquePointer(newObject(gtk_progress_bar_new()))
        bar.addClasses(StyleClass("download-progress"))
        bar.widget.setAccessibleLabel(tr("Download Progress"))

        downloadButton = Self.button(DownloadText.downloadButton(size: size), icon: "document-save-symbolic")
        pauseButton = Self.button(tr("Pause"), icon: "media-playback-pause-symbolic")
        resumeButton = Self.button(tr("Resume"), icon: "document-save-symbolic")
        retryButton = Self.button(tr("Try Again"), icon: "view-refresh-symbolic")
        cancelButton = Self.button(tr("Cancel"), icon: "process-stop-symbolic")
        removeButton = Self.button(tr("Remove Download"), icon: "user-trash-symbolic")
        cancelButton.setAccessibleDescription(tr("Stops the download and deletes what was downloaded"))
        removeButton.setAccessibleDescription(tr("Deletes the book's files from this computer"))

        // Two at most are shown at once.
        let buttons = newObject(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6))
        for made in [downloadButton, pauseButton, resumeButton, retryButton, cancelButton, removeButton] {
            gtk_box_append(buttons.cast(to: GtkBox.self), made)
        }
        let intents: [(UnsafeMutablePointer<GtkWidget>, DownloadsModel.Intent)] = [
            (downloadButton, .download(bookID: bookID)), (pauseButton, .pause(bookID: bookID)),
            (resumeButton, .resume(bookID: bookID)), (retryButton, .download(bookID: bookID)),
            (cancelButton, .cancel(bookID: bookID)), (removeButton, .remove(bookID: bookID)),
        ]
        connections = intents.map { button, intent in button.connect(.clicked) { send(intent) } }
        let box = widget.cast(to: GtkBox.self)
        gtk_box_append(box, status.widget)
        gtk_box_append(box, bar.widget)
        gtk_box_append(box, detail.widget)
        gtk_box_append(box, buttons)
        observation = StateObservation { [weak self, weak downloads] in
            guard let self, let downloads else { return }
            self.show(downloads.items[self.bookID])
        }
    }

    /// A glass pill with an icon and a label (also its accessible name).
    private static func button(_ title: String, icon: String) -> UnsafeMutablePointer<GtkWidget> {
        let made = newObject(gtk_button_new())
        let content = newObject(adw_button_content_new())
        adw_button_content_set_icon_name(content.opaque, icon)
        adw_button_content_set_label(content.opaque, title)
        gtk_button_set_child(made.cast(to: GtkButton.self), content)
        made.addClasses(.glass, .glassClear, .glassInteractive, .pill, StyleClass("download-action"))
        made.setAccessibleLabel(title)
        return made
    }

    /// Shows `item` (nil: the book is not downloaded).
    func show(_ item: DownloadsModel.Item?) {
        guard !shownOnce || item != shown else { return }
        shownOnce = true
        shown = item
        let state = DownloadButton.State(item)
        var text = ""
        var bytes = ""
        switch (state, item) {
        case (.waiting, _): text = tr("Waiting to download")
        case (.downloading, let item?): bytes = DownloadText.progressWithPercent(item)
        case (.paused, let item?):
            text = item.failure?.message ?? ""
            bytes = DownloadText.paused(item)
        case (.failed, let item?): text = item.failure?.message ?? tr("The download failed.")
        case (.downloaded, let item?): text = DownloadText.downloaded(item)
        default: break
        }
        gtk_label_set_label(status, text)
        gtk_widget_set_visible(status.widget, text.isEmpty ? 0 : 1)
        status.widget.setClass(.error, state == .failed)
        gtk_label_set_label(detail, bytes)
        gtk_widget_set_visible(detail.widget, bytes.isEmpty ? 0 : 1)
        gtk_widget_set_visible(bar.widget, bytes.isEmpty ? 0 : 1)
        gtk_progress_bar_set_fraction(bar, item?.fraction ?? 0)
        bar.widget.setClass(StyleClass("paused"), state == .paused)
        let visible: [(UnsafeMutablePointer<GtkWidget>, Bool)] = [
            (downloadButton, state == .available),
            (pauseButton, state == .downloading),
            (resumeButton, state == .paused),
            (retryButton, state == .failed),
            (cancelButton, [.waiting, .downloading, .paused, .failed].contains(state)),
            (removeButton, state == .downloaded),
        ]
        for (button, shown) in visible { gtk_widget_set_visible(button, shown ? 1 : 0) }
    }

    /// The buttons shown now, by their names (tests).
    var shownButtons: [String] {
        [downloadButton, pauseButton, resumeButton, retryButton, cancelButton, removeButton]
            .filter { gtk_widget_get_visible($0) != 0 }
            .map { String(cString: adw_button_content_get_label(OpaquePointer(gtk_button_get_child($0.cast(to: GtkButton.self))))) }
    }

    /// The status and bytes lines shown now, without empty ones (tests).
    var statusText: String {
        [status, detail].filter { gtk_widget_get_visible($0.widget) != 0 }
            .map { String(cString: gtk_label_get_label($0)) }.joined(separator: "\n")
    }

    func teardown() {
        observation?.cancel()
        observation = nil
        connections.removeAll()
    }
}
