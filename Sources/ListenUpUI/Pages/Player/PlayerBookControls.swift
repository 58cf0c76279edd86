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
    let boostButton: UnsafeMutablePointer<GtkWidget>
    /// The boost scale, dB.
    let boostScale: UnsafeMutablePointer<GtkWidget>
    /// The book menu's button.
    let menuButton: UnsafeMutablePointer<GtkWidget>
    let markFinished: UnsafeMutablePointer<GtkWidget>
    let markNotStarted: UnsafeMutablePointer<GtkWidget>
    private let boostValue: OpaquePointer
    private let model: PlayerModel
    private var connections: [SignalConnection] = []
    /// The boost the user is choosing, sent once the thumb rests.
    private var pendingBoost: Task<Void, Never>?
    private var boostPending = false
    private var applying = false

    init(model: PlayerModel) {
        self.model = model
        boostButton = newObject(gtk_menu_button_new())
        boostButton.addClasses(StyleClass("player-menu"))
        gtk_widget_set_tooltip_text(boostButton, tr("Volume Boost"))
        boostButton.setAccessibleLabel(tr("Volume Boost"))
        let popover = newObject(gtk_popover_new())
        let box = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 6))
        let heading = OpaquePointer(newObject(gtk_label_new(tr("Volume Boost"))))
        heading.addClasses(.heading)
        boostValue = OpaquePointer(newObject(gtk_label_new(nil)))
        boostValue.addClasses(StyleClass("numeric"), .dimLabel)
        boostScale = newObject(gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, ListeningRules.boostRange.lowerBound,
                                                        ListeningRules.boostRange.upperBound, 0.5))
        gtk_scale_set_draw_value(boostScale.cast(to: GtkScale.self), 0)
        for mark in [0.0, 6, 12] {
            gtk_scale_add_mark(boostScale.cast(to: GtkScale.self), mark, GTK_POS_BOTTOM, Self.decibels(mark))
        }
        gtk_widget_set_size_request(boostScale, 220, -1)
        boostScale.setAccessibleLabel(tr("Volume Boost"))
        // What the boost is for, said to screen readers and as a tooltip
        // (a wrapped label under the scale was cut off by GTK 4.8's
        // popover sizing).
        let hint = tr("For quiet recordings. This book keeps it; loud passages are limited so they never clip.")
        boostScale.setAccessibleDescription(hint)
        gtk_widget_set_tooltip_text(boostScale, hint)
        gtk_widget_set_margin_start(box, 8)
        gtk_widget_set_margin_end(box, 8)
        for child in [heading.widget, boostValue.widget, boostScale] { gtk_box_append(box.cast(to: GtkBox.self), child) }
        gtk_popover_set_child(popover.cast(to: GtkPopover.self), box)
        gtk_menu_button_set_popover(boostButton.opaque, popover)

        menuButton = newObject(gtk_menu_button_new())
        gtk_menu_button_set_icon_name(menuButton.opaque, "view-more-symbolic")
        menuButton.addClasses(StyleClass("player-menu"))
        gtk_widget_set_tooltip_text(menuButton, tr("Book Menu"))
        menuButton.setAccessibleLabel(tr("Book Menu"))
        let menu = newObject(gtk_popover_new())
        let menuBox = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 2))
        markFinished = newObject(gtk_button_new_with_label(tr("Mark as Finished")))
        markNotStarted = newObject(gtk_button_new_with_label(tr("Mark as Not Started")))
        for button in [markFinished, markNotStarted] {
            button.addClasses(.flat)
            gtk_box_append(menuBox.cast(to: GtkBox.self), button)
        }
        gtk_popover_set_child(menu.cast(to: GtkPopover.self), menuBox)
        gtk_menu_button_set_popover(menuButton.opaque, menu)
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
            let value = gtk_range_get_value(self.boostScale.cast(to: GtkRange.self))
            gtk_label_set_label(self.boostValue, Self.decibels(ListeningRules.boost(value)))
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
                if let popover = gtk_menu_button_get_popover(self.menuButton.opaque) { gtk_popover_popdown(popover) }
            })
        }
    }

    /// Shows the book's boost and whether it is finished.
    func render() {
        applying = true
        defer { applying = false }
        let boost = model.volumeBoostDb
        gtk_menu_button_set_label(boostButton.opaque, boost > 0 ? Self.decibels(boost) : tr("Boost"))
        boostButton.setClass(StyleClass("active"), boost > 0)
        gtk_label_set_label(boostValue, Self.decibels(boost))
        if !boostPending, abs(gtk_range_get_value(boostScale.cast(to: GtkRange.self)) - boost) > 0.01 {
            gtk_range_set_value(boostScale.cast(to: GtkRange.self), boost)
        }
        gtk_widget_set_visible(markFinished, model.finished ? 0 : 1)
    }

    func teardown() {
        pendingBoost?.cancel()
        connections.removeAll()
    }
}
