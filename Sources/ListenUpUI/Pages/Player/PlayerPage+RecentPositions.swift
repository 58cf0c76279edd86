import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// *Recent Positions*: a menu button in the player's controls whose popover
/// lists where the book was before its last jumps (``PlayerModel/recentPositions``,
/// newest first), each row the place and when it was left ("1:13:00",
/// "The Other · Left 3 min ago"); choosing one goes there. The button is
/// insensitive while the list is empty.
extension PlayerPage {
    /// Wires the list (once, from `init`).
    func connectRecentPositions() {
        connections.append(recentList.connect(.rowActivated) { [weak self] row in
            guard let self else { return }
            let index = Int(gtk_list_box_row_get_index(row))
            self.recentButton.popdown()
            self.model.send(.jumpToRecent(index))
        })
        // "Left 3 min ago" is as of when the list opens.
        if let popover = gtk_menu_button_get_popover(recentButton.opaque) {
            connections.append(popover.connect(.map) { [weak self] in self?.renderRecentPositions(force: true) })
        }
        // A preview opens the list for its screenshot (the page's `dialog`).
        if model.opensRecentPositions {
            connections.append(recentButton.connect(.map) { [weak self] in
                MainContext.idle { self?.recentButton.popup() }
            })
        }
    }

    /// The list's popover while it is open, or about to be (a preview's
    /// screenshot waits for it to map).
    var recentPopover: UnsafeMutablePointer<GtkWidget>? {
        guard let popover = gtk_menu_button_get_popover(recentButton.opaque) else { return nil }
        let widget = UnsafeMutableRawPointer(popover).assumingMemoryBound(to: GtkWidget.self)
        return gtk_widget_get_visible(widget) != 0 || model.opensRecentPositions ? widget : nil
    }

    /// Rebuilds the rows when the places changed, or `force`d (the texts
    /// say how long ago).
    func renderRecentPositions(force: Bool = false) {
        let positions = model.recentPositions
        recentButton.isSensitive = !positions.isEmpty
        // Most renders are the position moving: nothing to do here.
        guard force || positions != shownRecent else { return }
        shownRecent = positions
        let now = Date()
        let book = model.nowPlaying
        let rows = positions.map { place -> [String] in
            let chapter = book?.chapters.last { $0.start <= place.position }?.title
            let left = Self.leftText(place.leftAt, now: now)
            return [PlayerControls.time(place.position), chapter.map { tr("%@ · %@", $0, left) } ?? left]
        }
        guard rows != shownRecentRows else { return }
        shownRecentRows = rows
        while let child = gtk_widget_get_first_child(recentList.pointer) { recentList.remove(child) }
        for row in rows {
            let item = TextRow(title: row[0], subtitle: row[1])
            item.isActivatable = true
            recentList.append(item)
        }
    }

    /// "Left just now", "Left 3 min ago", "Left at 14:05" (earlier today),
    /// else "Left at" the date and time.
    static func leftText(_ date: Date, now: Date) -> String {
        let seconds = max(0, now.timeIntervalSince(date))
        // TRANSLATORS: when the book was moved away from a place (Recent Positions).
        if seconds < 60 { return tr("Left just now") }
        // TRANSLATORS: when the book was moved away from a place; %@ is a number of minutes.
        if seconds < 3_600 { return tr("Left %@ min ago", Localization.number(Int(seconds / 60))) }
        let sameDay = Calendar.current.isDate(date, inSameDayAs: now)
        // TRANSLATORS: when the book was moved away from a place; %@ is a time of day, or a date and time.
        return tr("Left at %@", sameDay ? clockTime(date) : Localization.dateAndTime(date))
    }

    /// "14:05" or "2:05 PM", in the user's locale.
    private static func clockTime(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Localization.timeLocale
        formatter.dateStyle = .none
        formatter.timeStyle = .short
        return formatter.string(from: date)
    }
}
