import CAdwaita
import GtkBridge
import ListenUpCore

/// *Add to Shelf* in a book's details (`add-to-shelf.ui`): a menu button
/// whose popover lists the user's shelves, each checked when the book is on
/// it; toggling one puts the book on it or takes it off (through
/// ``ShelvesModel``); New Shelf… makes one with the book on it. The checks
/// follow the model, so a change made elsewhere shows too.
@MainActor
final class AddToShelfButton {
    let button: MenuButton
    private let root: GObjectRef<UnsafeMutablePointer<GtkWidget>>
    private let list: Box
    /// New Shelf… in the popover (tests press it).
    let newButton: Button
    private let bookID: String
    private let shelves: ShelvesModel
    private var observation: StateObservation?
    private var connections: [SignalConnection] = []
    private var checkConnections: [SignalConnection] = []
    /// What the checks show: each shelf's id, name and whether it holds the book.
    private var shown: [(String, String, Bool)] = []
    /// Set while the checks are made, so their toggles are not the user's.
    private var rendering = false
    /// The check buttons, by shelf id (tests).
    private(set) var checks: [String: CheckButton] = [:]
    /// New Shelf… was pressed: the dialog (with this book).
    var onNewShelf: (String) -> Void = { _ in }

    init(bookID: String, shelves: ShelvesModel) {
        self.bookID = bookID
        self.shelves = shelves
        let ui = PageTemplates.load("add-to-shelf")
        (button, root) = ui.root("root")
        (list, newButton) = (ui.child("shelves"), ui.child("new-shelf"))
        connections.append(newButton.connect(.clicked) { [weak self] in
            guard let self else { return }
            self.button.popdown()
            self.onNewShelf(self.bookID)
        })
        observation = StateObservation { [weak self] in self?.render() }
    }

    private func render() {
        let holding = shelves.shelves(holding: bookID)
        let wanted = shelves.mine.map { ($0.id, $0.name, holding.contains($0.id)) }
        guard !wanted.elementsEqual(shown, by: { $0.0 == $1.0 && $0.1 == $1.1 && $0.2 == $1.2 }) else { return }
        shown = wanted
        rendering = true
        defer { rendering = false }
        checkConnections.forEach { $0.disconnect() }
        checkConnections = []
        checks = [:]
        list.removeAll()
        for (id, name, holds) in wanted {
            let check = CheckButton(unchecked: newObject(gtk_check_button_new_with_label(name)))
            check.isChecked = holds
            // TRANSLATORS: a check button in Add to Shelf; %@ is the shelf's name.
            check.setAccessibleLabel(tr("On Shelf %@", name))
            checkConnections.append(check.connect(.toggled) { [weak self, check] in
                guard let self, !self.rendering else { return }
                self.toggle(shelfID: id, on: check.isChecked)
            })
            list.append(check)
            checks[id] = check
        }
    }

    /// The popover (a preview's screenshot).
    var popover: UnsafeMutablePointer<GtkWidget>? {
        gtk_menu_button_get_popover(button.opaque).map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWidget.self) }
    }

    /// Opens the popover once the button is on screen (a preview).
    func openWhenShown() {
        connections.append(button.connect(.map) { [weak self] in
            MainContext.idle { self?.button.popup() }
        })
    }

    private func toggle(shelfID: String, on: Bool) {
        shelves.send(on ? .add(bookID: bookID, shelfID: shelfID) : .remove(bookID: bookID, shelfID: shelfID))
    }

    func teardown() {
        observation?.cancel()
        observation = nil
        (connections + checkConnections).forEach { $0.disconnect() }
        connections = []
        checkConnections = []
    }
}
