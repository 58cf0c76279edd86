import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// The player's controls for the book itself: its volume boost (a menu
/// button showing "+6 dB", with a 0–12 dB scale in its popover) and the
/// book menu (*Mark as Finished*, *Mark as Not Started*). Both act on the
/// book loaded, and the book keeps what they set (its position row).
@MainActor
final class PlayerBookControls {
    /// The boost's menu button.
    let boostButton: MenuButton
    /// The boost scale, dB.
    let boostScale: Scale
    /// The book menu's button.
    let menuButton: MenuButton
    let markFinished: Button
    let markNotStarted: Button
    private let boostValue: Label
    private let model: PlayerModel
    private var connections: [SignalConnection] = []
    /// The boost the user is choosing, sent once the thumb rests.
    private var pendingBoost: Task<Void, Never>?
    private var boostPending = false
    private var applying = false

    /// - Parameter template: the player page's (`player-page.ui`), which
    ///   holds these controls.
    init(model: PlayerModel, template: Template) {
        self.model = model
        (boostButton, boostScale, boostValue) = (template.child("boost"), template.child("boost-scale"), template.child("boost-value"))
        (menuButton, markFinished, markNotStarted) = (template.child("book-menu"), template.child("mark-finished"), template.child("mark-not-started"))
        for mark in [0.0, 6, 12] { boostScale.addMark(at: mark, Self.decibels(mark)) }
        // What the boost is for, said to screen readers and as a tooltip
        // (a wrapped label under the scale was cut off by GTK 4.8's
        // popover sizing).
        let hint = tr("For quiet recordings. This book keeps it; loud passages are limited so they never clip.")
        boostScale.setAccessibleDescription(hint)
        boostScale.tooltip = hint
        connect()
    }

    /// "+6 dB" ("0 dB" for none).
    static func decibels(_ value: Double) -> String {
        let number = value == value.rounded() ? String(format: "%.0f", value) : String(format: "%.1f", value)
        // TRANSLATORS: a volume boost in decibels, e.g. “+6 dB”.
        return value > 0 ? tr("+%@ dB", number) : tr("%@ dB", number)
    }

    private func connect() {
        connections.append(boostScale.connect(.valueChanged) { [weak self] in
            guard let self, !self.applying else { return }
            let value = self.boostScale.value
            self.boostValue.text = Self.decibels(ListeningRules.boost(value))
            // Saved once the thumb rests, not at every step of a drag.
            self.pendingBoost?.cancel()
            self.boostPending = true
            self.pendingBoost = Task { [weak self] in
                try? await Task.sleep(for: .milliseconds(150))
                guard !Task.isCancelled, let self else { return }
                self.boostPending = false
                self.model.send(.boost(value))
            }
        })
        for (button, finished) in [(markFinished, true), (markNotStarted, false)] {
            connections.append(button.connect(.clicked) { [weak self] in
                guard let self, let book = self.model.nowPlaying else { return }
                self.model.send(.markFinished(bookID: book.bookID, finished: finished))
                self.menuButton.popdown()
            })
        }
    }

    /// Shows the book's boost and whether it is finished.
    func render() {
        applying = true
        defer { applying = false }
        let boost = model.volumeBoostDb
        boostButton.label = boost > 0 ? Self.decibels(boost) : tr("Boost")
        boostButton.setClass(StyleClass("active"), boost > 0)
        boostValue.text = Self.decibels(boost)
        if !boostPending, abs(boostScale.value - boost) > 0.01 { boostScale.value = boost }
        markFinished.isVisible = !model.finished
    }

    func teardown() {
        pendingBoost?.cancel()
        connections.removeAll()
    }
}
