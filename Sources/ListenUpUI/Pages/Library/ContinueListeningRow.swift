import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// *Continue listening*: the books in progress, most recent first, in a
/// row above the library (from the server, cached for offline). Each is a
/// glass button (`data/ui/continue-item.ui`) that plays the book from
/// where it was left. The row itself is in the library page's template
/// (`library-page.ui`).
@MainActor
final class ContinueListeningRow {
    let box: Box
    private let items: Box
    private let player: PlayerModel?
    private var shown: [ContinueListeningItem] = []
    private var covers: [Task<Void, Never>] = []
    private var connections: [SignalConnection] = []
    private var observation: StateObservation?
    /// The item buttons, by book id (tests).
    private(set) var buttons: [String: Button] = [:]

    /// - Parameter template: the library page's, which holds the row.
    init(player: PlayerModel?, template: Template) {
        self.player = player
        (box, items) = (template.child("continue-listening"), template.child("continue-items"))
        observation = StateObservation { [weak self] in self?.render() }
    }

    private func render() {
        let list = player?.continueListening ?? []
        box.isVisible = !list.isEmpty
        guard list != shown, let player else { return }
        shown = list
        covers.forEach { $0.cancel() }
        covers = []
        connections = []
        buttons = [:]
        items.removeAll()
        for item in list {
            // The template's builder holds the button until it is in the row.
            let ui = PageTemplates.load("continue-item")
            defer { withExtendedLifetime(ui) {} }
            let button: Button = ui.child("root")
            // TRANSLATORS: a button in Continue listening; %@ is the book's title.
            button.setAccessibleLabel(tr("Play %@", item.title))
            button.tooltip = item.title
            let cover = CoverView(size: 56)
            cover.showPlaceholder(for: item.title)
            ui.child("content", as: Box.self).prepend(cover.widget)
            ui.child("title", as: Label.self).text = item.title
            ui.child("author", as: Label.self).text = item.author ?? ""
            ui.child("progress", as: ProgressBar.self).fraction = min(1, max(0, item.progress))
            let id = item.bookID
            connections.append(button.connect(.clicked) { [weak player] in player?.send(.play(bookID: id)) })
            items.append(button)
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
