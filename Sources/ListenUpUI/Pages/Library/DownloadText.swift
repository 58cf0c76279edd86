import Foundation
import ListenUpCore

/// What the downloads UI says about a book's download, in one place: the
/// details panel, the cards' buttons, the library's total and Preferences
/// word the same state the same way.
@MainActor
enum DownloadText {
    /// A download's bytes so far and its size, formatted ("120 MB", "512 MB"):
    /// every sentence that shows them has its own message, so translators
    /// see the sizes in their sentence (a bare "%@ of %@" is the search's).
    static func sizes(_ item: DownloadsModel.Item) -> (bytes: String, total: String) {
        (Localization.bytes(item.bytes), Localization.bytes(item.totalBytes))
    }

    /// Under the details panel's bar: "120 MB of 512 MB · 23 %".
    static func progressWithPercent(_ item: DownloadsModel.Item) -> String {
        let (bytes, total) = sizes(item)
        // TRANSLATORS: a download's progress: bytes so far “of” the book's size, then the percentage, e.g. “120 MB of 512 MB · 23 %”.
        return tr("%@ of %@ · %@", bytes, total, percent(item.fraction))
    }

    /// "Paused · 120 MB of 512 MB".
    static func paused(_ item: DownloadsModel.Item) -> String {
        let (bytes, total) = sizes(item)
        // TRANSLATORS: a paused download: bytes so far “of” the book's size, e.g. “Paused · 120 MB of 512 MB”.
        return tr("Paused · %@ of %@", bytes, total)
    }

    /// "35 %", the number in the user's locale.
    static func percent(_ fraction: Double) -> String {
        // TRANSLATORS: a whole percentage, e.g. “35 %”.
        tr("%@ %", Localization.number(Int((min(1, max(0, fraction)) * 100).rounded(.down))))
    }

    /// "Download (512.3 MB)", or "Download" when the size is unknown.
    static func downloadButton(size: Int64?) -> String {
        guard let size, size > 0 else { return tr("Download") }
        // TRANSLATORS: the details panel's download button; %@ is the book's size, e.g. “Download (512.3 MB)”.
        return tr("Download (%@)", Localization.bytes(size))
    }

    /// One line for a download's state: a Preferences row, a tooltip.
    static func status(_ item: DownloadsModel.Item) -> String {
        switch item.status {
        case .queued:
            return tr("Waiting to download")
        case .downloading:
            let (bytes, total) = sizes(item)
            // TRANSLATORS: a download under way: bytes so far “of” the book's size, e.g. “Downloading · 120 MB of 512 MB”.
            return tr("Downloading · %@ of %@", bytes, total)
        case .paused:
            return item.failure?.message ?? paused(item)
        case .failed:
            return item.failure?.message ?? tr("The download failed.")
        case .done:
            return downloaded(item)
        }
    }

    /// "Downloaded · 512 MB".
    static func downloaded(_ item: DownloadsModel.Item) -> String {
        // TRANSLATORS: a book kept on this computer; %@ is its size, e.g. “Downloaded · 512 MB”.
        tr("Downloaded · %@", Localization.bytes(item.totalBytes))
    }

    /// The total of the downloads running or waiting, for the library's
    /// header: "2 books downloading · 35 %" (nil when none is).
    static func total(of downloads: DownloadsModel) -> (line: String, detail: String, fraction: Double)? {
        guard let (bytes, total) = downloads.activeProgress else { return nil }
        let fraction = total > 0 ? Double(bytes) / Double(total) : 0
        let books = downloads.items.values.count(where: \.download.isActive)
        let count = trn("%@ book downloading", "%@ books downloading", count: books, Localization.number(books))
        // TRANSLATORS: the library's download total: how many books, then the percentage, e.g. “2 books downloading · 35 %”.
        let line = tr("%@ · %@", count, percent(fraction))
        // TRANSLATORS: the download total's tooltip: bytes so far “of” all the books', e.g. “120 MB of 512 MB downloaded”.
        let detail = tr("%@ of %@ downloaded", Localization.bytes(bytes), Localization.bytes(total))
        return (line, detail, fraction)
    }
}
