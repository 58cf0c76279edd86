import CAdwaita
import GtkBridge
import ListenUpCore

/// Home's shelves (`home-view.ui`'s `my-shelves` and `other-shelves`):
/// *My Shelves*, each with its name and how many books, and New Shelf…;
/// *Shelves from Others* when the server shares some, each with its name
/// and whose it is. A row opens the shelf's page (``onOpen``). Rows are
/// ``TextRow``s, made again when the shelves change (a few dozen at most).
@MainActor
final class HomeShelves {
    private let shelves: ShelvesModel
    private let mineBox: Box
    private let mineList: ListBox
    private let othersBox: Box
    private let othersList: ListBox
    /// New Shelf… (tests press it).
    let newButton: Button
    private var observation: StateObservation?
    private var connections: [SignalConnection] = []
    private var shown: ([Shelf], [Shelf])?
    /// The rows' shelf ids, by the row's address.
    private var rowShelves: [Int: String] = [:]
    /// The rows, by shelf id (tests).
    private(set) var rows: [String: TextRow] = [:]
    /// Opens a shelf's page.
    var onOpen: (String) -> Void = { _ in }
    /// New Shelf… was pressed.
    var onNew: () -> Void = {}

    init(template ui: Template, shelves: ShelvesModel) {
        self.shelves = shelves
        (mineBox, mineList, othersBox, othersList) = (ui.child("my-shelves"), ui.child("my-shelves-list"), ui.child("other-shelves"),
                                                      ui.child("other-shelves-list"))
        newButton = ui.child("new-shelf")
        connections.append(newButton.connect(.clicked) { [weak self] in self?.onNew() })
        for list in [mineList, othersList] {
            connections.append(list.connect(.rowActivated) { [weak self] row in
                guard let self, let id = self.rowShelves[Int(bitPattern: row)] else { return }
                self.onOpen(id)
            })
        }
        observation = StateObservation { [weak self] in self?.render() }
    }

    private func render() {
        let (mine, others, reads) = (shelves.mine, shelves.discovered, shelves.reads)
        mineBox.isVisible = reads > 0
        mineList.isVisible = !mine.isEmpty
        othersBox.isVisible = !others.isEmpty
        if let shown, shown.0 == mine, shown.1 == others { return }
        shown = (mine, others)
        rowShelves = [:]
        rows = [:]
        for list in [mineList, othersList] {
            while let row = list.row(at: 0) { list.remove(row) }
        }
        for shelf in mine { add(shelf, to: mineList) }
        for shelf in others { add(shelf, to: othersList) }
    }

    private func add(_ shelf: Shelf, to list: ListBox) {
        let row = TextRow()
        (row.isActivatable, row.showsArrow) = (true, true)
        row.title = shelf.name
        let count = BrowseListView.bookCount(shelf.bookIDs.count)
        // TRANSLATORS: a shelf someone else made, on Home: whose it is, then how many books, e.g. “Mara · 3 books”.
        row.subtitle = shelf.owner.map { tr("%@ · %@", $0.name, count) } ?? count
        // TRANSLATORS: a shelf's row on Home; %@ is the shelf's name.
        row.setAccessibleLabel(tr("Open Shelf %@", shelf.name))
        rowShelves[Int(bitPattern: row.pointer)] = shelf.id
        rows[shelf.id] = row
        list.append(row)
    }

    func teardown() {
        observation?.cancel()
        observation = nil
        connections.forEach { $0.disconnect() }
        connections = []
    }
}
