import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// A card's (or a list row's) small round download button: Download, then
/// a progress ring with Pause while the book downloads or waits, Resume
/// when paused, Try again when it failed; a downloaded book shows a
/// "downloaded" mark in its place instead.
///
/// Made once per cell and shown again for each book the cell is bound to;
/// the collection pushes a new state only to the cells of the books whose
/// download changed (`BookCollectionView+Downloads.swift`), so it keeps no
/// observation of its own. The accessible name says what a click does and
/// to which book ("Pause download of Piranesi").
@MainActor
final class DownloadButton {
    /// What the button shows.
    enum State: Equatable {
        case available, waiting, downloading, paused, failed, downloaded

        init(_ item: DownloadsModel.Item?) {
            switch item?.status {
            case nil: self = .available
            case .queued: self = .waiting
            case .downloading: self = .downloading
            case .paused: self = .paused
            case .failed: self = .failed
            case .done: self = .downloaded
            }
        }
    }

    /// Holds the button and the mark; one of them is shown.
    var widget: UnsafeMutablePointer<GtkWidget> { root.pointer }
    private let root: GObjectRef<UnsafeMutablePointer<GtkWidget>>
    /// The round button (hidden for a downloaded book).
    let button: Button
    /// The "downloaded" mark (shown for a downloaded book only).
    let mark: Image
    let ring: DownloadRing
    private let icon: Image
    private var connection: SignalConnection?
    private(set) var state: State?
    private var bookID: String?
    private var title = ""
    private var tooltip = ""
    /// Sends a click's intent (set by the cell; nil: no downloads, hidden).
    var onIntent: (@MainActor (DownloadsModel.Intent) -> Void)?

    /// Places the button on a card's cover: its lower left corner, 8 px
    /// in, on the line of the Play button on the lower right.
    func placeOnCover() {
        let box = Widget(widget)
        box.setSizeRequest(width: -1, height: 36)
        box.halign = GTK_ALIGN_START
        box.valign = GTK_ALIGN_END
        box.marginStart = 8
        box.marginBottom = 8
    }

    /// The tree is `data/ui/download-button.ui`; the sizes follow `size`.
    /// - Parameter size: the button's diameter.
    init(size: Int32) {
        let ui = PageTemplates.load("download-button")
        (_, root) = ui.root("root", as: Box.self)
        (button, mark, icon) = (ui.child("button"), ui.child("mark"), ui.child("icon"))
        button.setSizeRequest(width: Int(size), height: Int(size))
        mark.setSizeRequest(width: Int(size) - 6, height: Int(size) - 6)
        // Inside the button's edge (high contrast draws it 2 px wide), clear
        // of the icon in its middle.
        ring = DownloadRing(size: size - 6, thickness: 0.1)
        Widget(ring.widget).halign = GTK_ALIGN_CENTER
        Widget(ring.widget).valign = GTK_ALIGN_CENTER
        ui.child("face", as: Overlay.self).addOverlay(ring.widget)
        connection = button.connect(.clicked) { [weak self] in self?.clicked() }
        // The tooltip of a book not downloaded (most are) is set while the
        // button is hidden: GTK 4.8 asks the display where the pointer is
        // whenever a shown widget's tooltip changes (on X11, round trips
        // to the server), and a list makes one of these per cell, so its
        // first book would pay for it in every cell of a cold start.
        button.isVisible = false
        tooltip = tooltip(for: .available, nil)
        button.tooltip = tooltip
        button.isVisible = true
    }

    /// Shows `item`'s download (nil: not downloaded) of the book `bookID`
    /// called `title`. Icons change only with the state and the name with
    /// the state or the title (a cell bound to another book that is not
    /// downloaded either costs one accessible update); the ring and its
    /// tooltip follow the bytes.
    func show(_ item: DownloadsModel.Item?, bookID: String, title: String) {
        let state = State(item)
        self.bookID = bookID
        if state != self.state {
            showState(state)
        }
        if state != self.state || title != self.title {
            button.setAccessibleLabel(Self.name(state, title: title))
        }
        self.state = state
        self.title = title
        ring.show(item?.fraction ?? 0)
        let tip = tooltip(for: state, item)
        if tip != tooltip {
            tooltip = tip
            button.tooltip = tip
        }
    }

    private func showState(_ state: State) {
        icon.setIcon(Self.iconName(state))
        Widget(ring.widget).isVisible = [.waiting, .downloading, .paused].contains(state)
        ring.setPaused(state != .downloading)
        button.setClass(StyleClass("failed"), state == .failed)
        button.isVisible = state != .downloaded
        mark.isVisible = state == .downloaded
    }

    private func tooltip(for state: State, _ item: DownloadsModel.Item?) -> String {
        switch (state, item) {
        // TRANSLATORS: a card's download button's tooltip; %@ is a percentage, e.g. “Downloading · 35 %”.
        case (.downloading, let item?): tr("Downloading · %@", DownloadText.percent(item.fraction))
        // TRANSLATORS: a card's download button's tooltip when paused; %@ is a percentage, e.g. “Paused · 35 %”.
        case (.paused, let item?) where item.failure == nil: tr("Paused · %@", DownloadText.percent(item.fraction))
        case (_, let item?): DownloadText.status(item)
        case (_, nil): tr("Download")
        }
    }

    /// What a click asks for now (nil: nothing, the book is downloaded).
    var intent: DownloadsModel.Intent? {
        guard let bookID, let state else { return nil }
        return switch state {
        case .available, .failed: .download(bookID: bookID)
        case .waiting, .downloading: .pause(bookID: bookID)
        case .paused: .resume(bookID: bookID)
        case .downloaded: nil
        }
    }

    private func clicked() {
        guard let intent else { return }
        onIntent?(intent)
    }

    /// The button's accessible name now (tests).
    var accessibleName: String { state.map { Self.name($0, title: title) } ?? "" }

    /// What the button is called in `state`: what a click does, to which book.
    static func name(_ state: State, title: String) -> String {
        switch state {
        // TRANSLATORS: the accessible name of a card's download button; %@ is the book's title.
        case .available: tr("Download %@", title)
        // TRANSLATORS: the accessible name of a card's download button while it downloads or waits; %@ is the title.
        case .waiting, .downloading: tr("Pause download of %@", title)
        // TRANSLATORS: the accessible name of a card's download button while paused; %@ is the title.
        case .paused: tr("Resume download of %@", title)
        // TRANSLATORS: the accessible name of a card's download button after a failure; %@ is the title.
        case .failed: tr("Try downloading %@ again", title)
        case .downloaded: tr("Downloaded")
        }
    }

    static func iconName(_ state: State) -> String {
        switch state {
        case .available, .paused: "listenup-download-symbolic"
        case .waiting, .downloading: "listenup-pause-symbolic"
        case .failed: "listenup-retry-symbolic"
        case .downloaded: "listenup-done-symbolic"
        }
    }
}
