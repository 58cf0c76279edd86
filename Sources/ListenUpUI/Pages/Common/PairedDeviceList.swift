import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore
import PairingProtocol

/// The paired devices as rows with Revoke, shared by Pair a Device (a boxed
/// list in a card) and the preferences (a preferences group).
///
/// Rows are rebuilt only when the devices change; each Revoke button calls
/// `onRevoke` with its device's id for as long as the list lives. Either way
/// they are ``TextRow``s.
@MainActor
final class PairedDeviceList {
    /// Where the rows go.
    enum Container {
        /// A `GtkListBox`.
        case listBox(ListBox)
        /// An `AdwPreferencesGroup`.
        case preferencesGroup(PreferencesGroup)
    }

    /// What a row's subtitle says besides the model.
    enum Detail {
        /// When it was paired and last seen (Pair a Device).
        case pairedAndLastSeen
        /// When it was last seen (the preferences).
        case lastSeen
    }

    private let container: Container
    private let detail: Detail
    private let emptyTitle: String?
    private let onRevoke: @MainActor (String) -> Void
    private var shown: [PairedDevice]?
    private var rows: [(row: UnsafeMutablePointer<GtkWidget>, device: PairedDevice?, revoke: Button?)] = []
    private var connections: [SignalConnection] = []

    /// - Parameters:
    ///   - container: where the rows go.
    ///   - detail: what the subtitles say.
    ///   - emptyTitle: the title of a row shown while no device is paired
    ///     (nil: no row, the page says so itself).
    ///   - onRevoke: runs with the device's id when its Revoke is clicked.
    init(in container: Container, detail: Detail, emptyTitle: String? = nil, onRevoke: @escaping @MainActor (String) -> Void) {
        self.container = container
        self.detail = detail
        self.emptyTitle = emptyTitle
        self.onRevoke = onRevoke
    }

    /// Shows `devices`, in order.
    func show(_ devices: [PairedDevice]) {
        guard devices != shown else { return }
        shown = devices
        connections.removeAll()
        for entry in rows { remove(entry.row) }
        rows.removeAll()
        if devices.isEmpty, let emptyTitle {
            rows.append((add(title: emptyTitle, subtitle: "", suffix: nil), nil, nil))
            return
        }
        for device in devices {
            let revoke = Button(unchecked: newObject(gtk_button_new_with_label(tr("Revoke"))))
            revoke.addClasses(.destructiveAction)
            gtk_widget_set_valign(revoke.pointer, GTK_ALIGN_CENTER)
            revoke.setAccessibleLabel(tr("Revoke %@", device.name))
            let row = add(title: device.name, subtitle: subtitle(of: device), suffix: revoke)
            let id = device.id
            connections.append(revoke.connect(.clicked) { [weak self] in self?.onRevoke(id) })
            rows.append((row, device, revoke))
        }
    }

    /// The devices' names, in order (tests).
    var titles: [String] { rows.compactMap(\.device?.name) }

    /// The Revoke button of the device at `index` (tests).
    func revokeButton(at index: Int) -> Button? {
        let buttons = rows.compactMap(\.revoke)
        return buttons.indices.contains(index) ? buttons[index] : nil
    }

    private func subtitle(of device: PairedDevice) -> String {
        switch detail {
        case .pairedAndLastSeen:
            var parts: [String] = []
            if !device.model.isEmpty { parts.append(device.model) }
            // TRANSLATORS: %@ is a date and time, e.g. “23 Nov 2026, 10:04”.
            parts.append(tr("Paired %@", Localization.dateAndTime(device.pairedAt)))
            // TRANSLATORS: %@ is a date and time, e.g. “23 Nov 2026, 10:04”.
            parts.append(tr("Last seen %@", Localization.dateAndTime(device.lastSeen)))
            return parts.joined(separator: " · ")
        case .lastSeen:
            // TRANSLATORS: a paired device's model and when it was last seen, e.g. “Pixel 8 · last seen 23 Nov 2026, 10:04”.
            return tr("%@ · last seen %@", device.model, Localization.dateAndTime(device.lastSeen))
        }
    }

    /// Adds a row of `title` and `subtitle` ending in `suffix`; returns it.
    private func add(title: String, subtitle: String, suffix: Button?) -> UnsafeMutablePointer<GtkWidget> {
        let row = TextRow(title: title, subtitle: subtitle)
        if let suffix { row.addSuffix(suffix) }
        switch container {
        case .listBox(let list): list.append(row)
        case .preferencesGroup(let group): group.add(row)
        }
        return row.pointer
    }

    private func remove(_ row: UnsafeMutablePointer<GtkWidget>) {
        switch container {
        case .listBox(let list): list.remove(row)
        case .preferencesGroup(let group): group.remove(row)
        }
    }
}
