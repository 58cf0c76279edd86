import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// The library's summary line and status pages.
extension LibraryPage {
    /// The line under the title: how many books, who, offline, updating.
    func summaryLine() -> String {
        let books = model.books
        let count = trn("%@ book", "%@ books", count: model.bookCount, Localization.number(model.bookCount))
        let user = model.session?.displayName ?? ""
        // TRANSLATORS: the library subtitle; %@ is the book count, e.g. “1,204 books”.
        if model.isOffline { return tr("Offline · %@ saved on this computer", count) }
        if case .loading = model.status { return tr("Setting up your library…") }
        if let progress = model.syncProgress, !books.isEmpty, progress.stored > 0 {
            return tr("%@ · updating…", count)
        }
        if !model.query.isEmpty || model.filter != .all {
            // TRANSLATORS: search results: matching books “of” all books, e.g. “12 of 1,204 books”.
            return tr("%@ of %@", Localization.number(model.visible.count), count)
        }
        return user.isEmpty ? count : tr("%@ · signed in as %@", count, user)
    }

    /// The status page for an empty library, no results, no downloaded
    /// books, the first sync or a failure; the books otherwise.
    func showStatus(books: [LibraryModel.Book], visible: [LibraryModel.Book]) {
        var showProgress = false
        var showRetry = false
        var showAll = false
        switch model.status {
        case .loading where books.isEmpty:
            let progress = model.syncProgress
            var text = tr("Downloading your library…")
            if let progress, let expected = progress.expected {
                text = trn("Downloading your library: %@ of %@ book", "Downloading your library: %@ of %@ books",
                           count: expected, Localization.number(progress.stored), Localization.number(expected))
            }
            statusPage.show(icon: "listenup-download-symbolic", title: tr("Setting Up Your Library"), description: text)
            if let fraction = progress?.fraction {
                statusProgress.fraction = fraction
            } else {
                statusProgress.pulse()
            }
            showProgress = true
        case .failed(_, let message) where books.isEmpty:
            statusPage.show(icon: "listenup-offline-symbolic", title: tr("Couldn't Load Your Library"), description: message)
            showRetry = true
        default:
            if books.isEmpty {
                statusPage.show(icon: "listenup-books-symbolic", title: tr("No Books Yet"),
                                description: tr("Books added to your server's library appear here."))
            } else if visible.isEmpty, model.filter == .downloaded, model.query.isEmpty || model.downloadedBookIDs.isEmpty {
                statusPage.show(icon: "listenup-download-symbolic", title: tr("No Downloaded Books"),
                                description: tr("Download a book to listen to it without a connection: use the button on its cover or in its details."))
                showAll = true
            } else if visible.isEmpty, let finished = model.finishedFilter, model.query.isEmpty {
                statusPage.show(icon: "listenup-done-symbolic", title: finished ? tr("No Finished Books") : tr("Every Book Is Finished"),
                                description: finished
                                    ? tr("A book is finished when you reach its end or mark it as finished.")
                                    : tr("Mark a book as not started to listen to it again."))
                showAll = true
            } else if visible.isEmpty {
                let text = model.filter == .downloaded
                    ? tr("No downloaded book's title, author, narrator or series matches “%@”.", model.query)
                    : tr("No title, author, narrator or series matches “%@”.", model.query)
                statusPage.show(icon: "listenup-search-symbolic", title: tr("No Results"), description: text)
            }
        }
        statusProgress.isVisible = showProgress
        Widget(retryButton.widget).isVisible = showRetry
        Widget(showAllButton.widget).isVisible = showAll
        stack.visibleChildName = visible.isEmpty ? "status" : "books"
    }
}
