import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// Preferences → Downloads: the space downloads use ("Downloads use
/// 1.2 GB on this computer."), each download with its status and a Remove
/// button, and Remove All Downloads… (disabled when there are none), which
/// asks first (an `AdwMessageDialog` whose Remove All is destructive).
///
/// Follows the session's downloads with an observation of its own, so the
/// rest of the window is not redrawn as bytes arrive; rows are rebuilt only
/// when the downloads listed change, and otherwise only their subtitles.
@MainActor
final class DownloadsGroup {
    /// The `AdwPreferencesGroup`.
    var widget: UnsafeMutablePointer<GtkWidget> { group.pointer }
    private let group: PreferencesGroup
    let removeAllButton: Button
    private let model: PreferencesModel
    private weak var shownDownloads: DownloadsModel?
    private var rows: [(id: String, row: TextRow, remove: Button)] = []
    private var subtitles: [String: String] = [:]
    private var rowConnections: [SignalConnection] = []
    private var connections: [SignalConnection] = []
    private var observation: StateObservation?
    /// The open "Remove All Downloads?" dialog, if any.
    private(set) var confirmation: MessageDialog?
    private var confirmationConnection: SignalConnection?
    /// The window the confirmation is transient for.
    private let parent: UnsafeMutablePointer<GtkWidget>

    /// - Parameter template: the preferences window's, which holds the group.
    init(model: PreferencesModel, template: Template, parent: UnsafeMutablePointer<GtkWidget>) {
        self.model = model
        self.parent = parent
        (group, removeAllButton) = (template.child("downloads"), template.child("remove-all"))
        connections.append(removeAllButton.connect(.clicked) { [weak self] in self?.confirmRemoveAll() })
        observation = StateObservation { [weak self] in self?.follow() }
    }

    private func follow() {
        let downloads = model.downloads
        let items = downloads?.ordered ?? []
        let description = if downloads == nil {
            tr("Sign in to download books.")
        } else if items.isEmpty {
            tr("No books are downloaded. Download one from the library to listen to it without a connection.")
        } else {
            // TRANSLATORS: Preferences → Downloads; %@ is a size, e.g. “1.2 GB”.
            tr("Downloads use %@ on this computer.", Localization.bytes(downloads?.bytesOnDisk ?? 0))
        }
        group.groupDescription = description
        removeAllButton.isSensitive = !items.isEmpty
        if downloads !== shownDownloads || items.map(\.id) != rows.map(\.id) {
            shownDownloads = downloads
            rebuild(items)
        }
        for item in items {
            let subtitle = DownloadText.status(item)
            guard subtitles[item.id] != subtitle, let row = rows.first(where: { $0.id == item.id })?.row else { continue }
            subtitles[item.id] = subtitle
            row.subtitle = subtitle
        }
    }

    private func rebuild(_ items: [DownloadsModel.Item]) {
        rowConnections.removeAll()
        for entry in rows { group.remove(entry.row) }
        rows.removeAll()
        subtitles.removeAll()
        for item in items {
            let row = TextRow(title: item.download.title)
            let remove = Button(unchecked: newObject(gtk_button_new_from_icon_name("user-trash-symbolic")))
            remove.addClasses(.flat, StyleClass("circular"))
            gtk_widget_set_valign(remove.pointer, GTK_ALIGN_CENTER)
            remove.tooltip = tr("Remove Download")
            // TRANSLATORS: the accessible name of a download's Remove button in Preferences; %@ is the book's title.
            remove.setAccessibleLabel(tr("Remove Download of %@", item.download.title))
            row.addSuffix(remove)
            group.add(row)
            let id = item.id
            rowConnections.append(remove.connect(.clicked) { [weak self] in self?.model.downloads?.send(.remove(bookID: id)) })
            rows.append((id, row, remove))
        }
    }

    /// Asks before removing every download; Cancel is the default (and Escape).
    private func confirmRemoveAll() {
        guard confirmation == nil, let downloads = model.downloads, !downloads.items.isEmpty else { return }
        let count = downloads.items.count
        // TRANSLATORS: Remove All Downloads? — how many books, then their size, e.g. “3 downloaded books (1.2 GB)”.
        let body = trn("%@ downloaded book (%@) will be deleted from this computer. You can download it again.",
                       "%@ downloaded books (%@) will be deleted from this computer. You can download them again.",
                       count: count, Localization.number(count), Localization.bytes(downloads.bytesOnDisk))
        // A window is GTK's own until destroyed (teardown): no reference kept.
        let made: MessageDialog = PageTemplates.load("remove-all-downloads").child("root")
        made.body = body
        made.window.setTransientFor(parent)
        confirmation = made
        confirmationConnection = made.connect(.response) { [weak self] response in self?.answered(response) }
        made.window.present()
    }

    private func answered(_ response: String) {
        confirmationConnection?.disconnect()
        confirmationConnection = nil
        confirmation = nil
        if response == "remove" { model.downloads?.send(.removeAll) }
    }

    /// The titles listed, in order (tests).
    var titles: [String] {
        rows.map(\.row.title)
    }

    /// The Remove button of the download at `index` (tests).
    func removeButton(at index: Int) -> Button? {
        rows.indices.contains(index) ? rows[index].remove : nil
    }

    func teardown() {
        observation?.cancel()
        observation = nil
        confirmationConnection?.disconnect()
        confirmationConnection = nil
        confirmation?.window.destroy()
        confirmation = nil
        connections.removeAll()
        rowConnections.removeAll()
    }
}
