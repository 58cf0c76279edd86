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
/// The widget tree is `data/ui/download-control.ui`.
@MainActor
final class DownloadControl {
    let box: Box
    private let ref: GObjectRef<UnsafeMutablePointer<GtkWidget>>
    /// The state, or why it stopped.
    private let status: Label
    private let bar: ProgressBar
    /// The bytes under the bar.
    private let detail: Label
    /// The buttons, each shown in some states (tests press them).
    let downloadButton: Button, pauseButton: Button, resumeButton: Button, retryButton: Button, cancelButton: Button, removeButton: Button
    /// The buttons' contents (icon and label), in the buttons' order.
    private let contents: [ButtonContent]
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
        let ui = PageTemplates.load("download-control")
        (box, ref) = ui.root("root")
        (status, bar, detail) = (ui.child("status"), ui.child("bar"), ui.child("detail"))
        (downloadButton, pauseButton, resumeButton) = (ui.child("download"), ui.child("pause"), ui.child("resume"))
        (retryButton, cancelButton, removeButton) = (ui.child("retry"), ui.child("cancel"), ui.child("remove"))
        contents = ["download", "pause", "resume", "retry", "cancel", "remove"].map { ui.child($0 + "-content") }
        // The Download button's text carries the size.
        let download = DownloadText.downloadButton(size: size)
        contents[0].label = download
        downloadButton.setAccessibleLabel(download)

        let intents: [(Button, DownloadsModel.Intent)] = [
            (downloadButton, .download(bookID: bookID)), (pauseButton, .pause(bookID: bookID)),
            (resumeButton, .resume(bookID: bookID)), (retryButton, .download(bookID: bookID)),
            (cancelButton, .cancel(bookID: bookID)), (removeButton, .remove(bookID: bookID)),
        ]
        connections = intents.map { button, intent in button.connect(.clicked) { send(intent) } }
        observation = StateObservation { [weak self, weak downloads] in
            guard let self, let downloads else { return }
            self.show(downloads.item(self.bookID))
        }
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
        status.show(text)
        status.setClass(.error, state == .failed)
        detail.show(bytes)
        bar.isVisible = !bytes.isEmpty
        bar.fraction = item?.fraction ?? 0
        bar.setClass(StyleClass("paused"), state == .paused)
        let visible: [(Button, Bool)] = [
            (downloadButton, state == .available),
            (pauseButton, state == .downloading),
            (resumeButton, state == .paused),
            (retryButton, state == .failed),
            (cancelButton, [.waiting, .downloading, .paused, .failed].contains(state)),
            (removeButton, state == .downloaded),
        ]
        for (button, shown) in visible { button.isVisible = shown }
    }

    /// The buttons shown now, by their names (tests).
    var shownButtons: [String] {
        zip([downloadButton, pauseButton, resumeButton, retryButton, cancelButton, removeButton], contents)
            .filter { $0.0.isVisible }
            .map { $0.1.label }
    }

    /// The status and bytes lines shown now, without empty ones (tests).
    var statusText: String {
        [status, detail].filter(\.isVisible).map(\.text).joined(separator: "\n")
    }

    func teardown() {
        observation?.cancel()
        observation = nil
        connections.removeAll()
    }
}
