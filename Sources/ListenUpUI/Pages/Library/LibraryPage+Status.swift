import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// The library's summary line and status pages.
extension LibraryPage {
    /// The line under the title: how many books, who, offline, updating.
    func summaryLine() -> String {
        let books = model.books
        let count = trn("%@ book", "%@ books", count: books.count, Localization.number(books.count))
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
            adw_status_page_set_icon_name(statusPage.opaque, "folder-download-symbolic")
            adw_status_page_set_title(statusPage.opaque, tr("Setting Up Your Library"))
            let progress = model.syncProgress
            if let progress, let expected = progress.expected {
                let text = trn("Downloading your library: %@ of %@ book", "Downloading your library: %@ of %@ books",
                               count: expected, Localization.number(progress.stored), Localization.number(expected))
                adw_status_page_set_description(statusPage.opaque, text)
            } else {
                adw_status_page_set_description(statusPage.opaque, tr("Downloading your library…"))
            }
            if let fraction = progress?.fraction {
                gtk_progress_bar_set_fraction(statusProgress, fraction)
            } else {
                gtk_progress_bar_pulse(statusProgress)
            }
            showProgress = true
        case .failed(_, let message) where books.isEmpty:
            adw_status_page_set_icon_name(statusPage.opaque, "network-offline-symbolic")
            adw_status_page_set_title(statusPage.opaque, tr("Couldn't Load Your Library"))
            adw_status_page_set_description(statusPage.opaque, message)
            showRetry = true
        default:
            if books.isEmpty {
                adw_status_page_set_icon_name(statusPage.opaque, "accessories-dictionary-symbolic")
                adw_status_page_set_title(statusPage.opaque, tr("No Books Yet"))
                adw_status_page_set_description(statusPage.opaque, tr("Books added to your server's library appear here."))
            } else if visible.isEmpty, model.filter == .downloaded, model.query.isEmpty || model.downloadedBookIDs.isEmpty {
                adw_status_page_set_icon_name(statusPage.opaque, "document-save-symbolic")
                adw_status_page_set_title(statusPage.opaque, tr("No Downloaded Books"))
                adw_status_page_set_description(statusPage.opaque,
                                                tr("Download a book to listen to it without a connection: use the button on its cover or in its details."))
                showAll = true
            } else if visible.isEmpty, let finished = model.finishedFilter, model.query.isEmpty {
                adw_status_page_set_icon_name(statusPage.opaque, "object-select-symbolic")
                adw_status_page_set_title(statusPage.opaque, finished ? tr("No Finished Books") : tr("Every Book Is Finished"))
                adw_status_page_set_description(statusPage.opaque, finished
                    ? tr("A book is finished when you reach its end or mark it as finished.")
                    : tr("Mark a book as not started to listen to it again."))
                showAll = true
            } else if visible.isEmpty {
                adw_status_page_set_icon_name(statusPage.opaque, "edit-find-symbolic")
                adw_status_page_set_title(statusPage.opaque, tr("No Results"))
                let text = model.filter == .downloaded
                    ? tr("No downloaded book's title, author, narrator or series matches “%@”.", model.query)
                    : tr("No title, author, narrator or series matches “%@”.", model.query)
                adw_status_page_set_description(statusPage.opaque, text)
            }
        }
        gtk_widget_set_visible(statusProgress.widget, showProgress ? 1 : 0)
        gtk_widget_set_visible(retryButton.widget, showRetry ? 1 : 0)
        gtk_widget_set_visible(showAllButton.widget, showAll ? 1 : 0)
        gtk_stack_set_visible_child_name(stack.opaque, visible.isEmpty ? "status" : "books")
    }
}
