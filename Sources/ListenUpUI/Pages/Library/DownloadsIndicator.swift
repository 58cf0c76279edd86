import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// The library heading's total while books download: a small ring with the
/// overall fraction and "2 books downloading · 35 %" beside it (the bytes,
/// "120 MB of 512 MB", in its tooltip). Hidden when nothing downloads or
/// waits. Plain text, not a control: it takes no focus, and a screen
/// reader reads it with the heading. Its box and label are in the library
/// page's template (`library-page.ui`).
@MainActor
final class DownloadsIndicator {
    let box: Box
    private let ring: DownloadRing
    private let label: Label
    private var observation: StateObservation?
    private var shownLine: String?
    private var shownDetail: String?

    /// - Parameter template: the library page's, which holds the indicator.
    init(downloads: DownloadsModel?, template: Template) {
        (box, label) = (template.child("downloads-total"), template.child("downloads-total-label"))
        ring = DownloadRing(size: 18, thickness: 0.16)
        box.prepend(ring.widget)
        guard let downloads else { return }
        observation = StateObservation { [weak self, weak downloads] in
            guard let self, let downloads else { return }
            self.show(DownloadText.total(of: downloads))
        }
    }

    private func show(_ total: (line: String, detail: String, fraction: Double)?) {
        box.isVisible = total != nil
        guard let total else { return }
        ring.show(total.fraction)
        if total.line != shownLine {
            shownLine = total.line
            label.text = total.line
        }
        if total.detail != shownDetail {
            shownDetail = total.detail
            box.tooltip = total.detail
        }
    }

    /// The line shown, nil while hidden (tests).
    var shownText: String? { box.isVisible ? label.text : nil }

    func teardown() {
        observation?.cancel()
        observation = nil
    }
}
