import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// The cells' download buttons: one observation of the session's downloads
/// for the whole collection (never one per cell), which hands a new state
/// only to the bound cells of the books whose download changed.
///
/// The model publishes progress a few times a second while books download;
/// each time, the downloads (a handful, not the library) are compared with
/// those the cells last showed, and only the cells of changed books redraw
/// their ring. A cell bound later reads `downloadsShown` as it binds.
extension BookCollectionView {
    /// Shows `downloads` on the cells, and sends their buttons' intents to
    /// it, from now until ``stopFollowingDownloads()``.
    func follow(_ downloads: DownloadsModel) {
        onDownload = { [weak downloads] intent in downloads?.send(intent) }
        downloadsObservation?.cancel()
        downloadsObservation = StateObservation { [weak self, weak downloads] in
            guard let self, let downloads else { return }
            self.showDownloads(downloads.currentItems)
        }
    }

    func stopFollowingDownloads() {
        downloadsObservation?.cancel()
        downloadsObservation = nil
    }

    /// Updates the bound cells whose book's download differs from what
    /// they show.
    /// - Returns: the ids of the books whose download changed.
    @discardableResult
    func showDownloads(_ items: [String: DownloadsModel.Item]) -> Set<String> {
        var changed: Set<String> = []
        for (id, item) in items where downloadsShown[id] != item { changed.insert(id) }
        for id in downloadsShown.keys where items[id] == nil { changed.insert(id) }
        downloadsShown = items
        guard !changed.isEmpty else { return changed }
        for cell in cells.values {
            guard let id = cell.book?.id, changed.contains(id) else { continue }
            cell.showDownload(items[id])
        }
        return changed
    }

    /// The download button of the bound cell showing `bookID` (tests).
    func downloadButton(of bookID: String) -> DownloadButton? {
        cells.values.first { $0.book?.id == bookID }?.download
    }
}
