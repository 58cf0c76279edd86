import CAdwaita
import GtkBridge
import ListenUpCore

/// The dialogs of shelves: New Shelf / Edit Shelf (`shelf-dialog.ui`: the
/// name, the description and, where the server has the flag, Private;
/// Save stays off while the name cannot be sent), Delete Shelf?
/// (`delete-shelf.ui`, Cancel the default) and, when the server refused a
/// change, why (`shelf-problem.ui`). Each is transient for the window of
/// the widget that asked; a dialog is GTK's own until it is destroyed.
@MainActor
final class ShelfDialogs {
    private let shelves: ShelvesModel
    /// The dialog shown, if any (tests answer it).
    private(set) var shown: MessageDialog?
    private var connections: [SignalConnection] = []
    private var task: Task<Void, Never>?
    /// What waits for a preview's page to be on screen.
    private var pending: SignalConnection?
    /// ``teardown()`` ran: no dialog opens any more.
    private var tornDown = false

    init(shelves: ShelvesModel) {
        self.shelves = shelves
    }

    /// New Shelf… (then `bookID` goes on it), or Edit Shelf for `shelf`.
    func edit(_ shelf: Shelf?, addingBook bookID: String? = nil, over parent: Widget) {
        close()
        let ui = PageTemplates.load("shelf-dialog")
        let dialog: MessageDialog = ui.child("root")
        let (name, description, privacy): (Entry, Entry, Switch) = (ui.child("name"), ui.child("description"), ui.child("private"))
        let problem: Label = ui.child("problem")
        dialog.heading = shelf == nil ? tr("New Shelf") : tr("Edit Shelf")
        adw_message_dialog_set_response_label(dialog.pointer.cast(to: AdwMessageDialog.self), "save", shelf == nil ? tr("Create") : tr("Save"))
        name.text = shelf?.name ?? ""
        description.text = shelf?.description ?? ""
        ui.child("private-row", as: Box.self).isVisible = shelves.offersPrivacy
        privacy.isOn = shelf?.isPrivate ?? false
        let limit = shelves.nameLimit
        let check = {
            let found = ShelfName.problem(name.text, limit: limit)
            adw_message_dialog_set_response_enabled(dialog.pointer.cast(to: AdwMessageDialog.self), "save", found == nil ? 1 : 0)
            // An empty name only turns Save off; a long one says why.
            problem.show(name.text.isEmpty ? "" : found?.message ?? "")
        }
        check()
        connections.append(name.connect(.changed) { check() })
        connections.append(dialog.connect(.response) { [weak self] response in
            guard let self else { return }
            let (text, about, isPrivate) = (name.text, description.text, privacy.isOn)
            self.dismissed()
            guard response == "save" else { return }
            let intent: ShelvesModel.Intent = shelf.map {
                .update(id: $0.id, name: text, description: about, isPrivate: isPrivate)
            } ?? .create(name: text, description: about, isPrivate: isPrivate, addingBook: bookID)
            self.perform(intent, over: parent)
        })
        present(dialog, over: parent)
        _ = name.grabFocus()
    }

    /// New Shelf… once `parent` is on screen (a preview's screenshot).
    func editWhenShown(over parent: Widget) {
        pending = parent.connect(.map) { [weak self] in
            MainContext.idle { [weak self] in self?.edit(nil, over: parent) }
        }
    }

    /// Delete Shelf? for `shelf`; Delete deletes it (its page closes once the cache follows).
    func confirmDelete(_ shelf: Shelf, over parent: Widget) {
        close()
        let dialog: MessageDialog = PageTemplates.load("delete-shelf").child("root")
        // TRANSLATORS: the body of “Delete Shelf?”; %@ is the shelf's name.
        dialog.body = tr("“%@” will be deleted on the server, for all your devices. Its books stay in the library.", shelf.name)
        connections.append(dialog.connect(.response) { [weak self] response in
            self?.dismissed()
            if response == "delete" { self?.perform(.delete(id: shelf.id), over: parent) }
        })
        present(dialog, over: parent)
    }

    /// Sends `intent`; a refusal is said in a dialog.
    func perform(_ intent: ShelvesModel.Intent, over parent: Widget) {
        let shelves = shelves
        task = Task { [weak self] in
            guard case .failure(let problem) = await shelves.perform(intent) else { return }
            self?.say(problem, over: parent)
        }
    }

    private func say(_ problem: ShelfProblem, over parent: Widget) {
        close()
        let dialog: MessageDialog = PageTemplates.load("shelf-problem").child("root")
        dialog.body = problem.message
        connections.append(dialog.connect(.response) { [weak self] _ in self?.dismissed() })
        present(dialog, over: parent)
    }

    private func present(_ dialog: MessageDialog, over parent: Widget) {
        guard !tornDown else {
            dialog.window.destroy()
            return
        }
        if let root = gtk_widget_get_root(parent.pointer) {
            dialog.window.setTransientFor(Widget(unchecked: UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWidget.self)))
        }
        shown = dialog
        dialog.window.present()
    }

    /// The dialog answered (GTK closes it itself).
    private func dismissed() {
        connections.forEach { $0.disconnect() }
        connections = []
        shown = nil
    }

    /// Closes the dialog shown, if any.
    func close() {
        let dialog = shown
        dismissed()
        dialog?.window.destroy()
    }

    func teardown() {
        tornDown = true
        pending?.disconnect()
        pending = nil
        task?.cancel()
        close()
    }
}
