import CAdwaita
import GtkBridge
import ListenUpCore

/// Server setup: type the server's address and Connect, or pick a server
/// found on the local network.
///
/// Layout: the shared form layout (icon, heading, glass card holding the URL
/// field, the Connect button and a status line), then a second card listing
/// ListenUp servers seen on the LAN.
@MainActor
final class ServerSetupPage: RoutePage {
    var widget: UnsafeMutablePointer<GtkWidget> { layout.widget }
    private let layout: FormPageLayout
    private let model: ServerSetupModel
    let field: GlassTextField
    let connectButton: ListenUpButton
    let noticeRow: NoticeRow
    private let lanCard: ListCard
    var lanList: OpaquePointer { lanCard.list }
    var lanStatus: OpaquePointer { lanCard.caption }
    private let lanSpinner: OpaquePointer
    /// Ends the "searching" spinner: browsing goes on, but an endless
    /// animation would keep redrawing the window (and a CPU busy) for nothing.
    private var lanSpinnerTimer: MainLoopSource?
    private var lanSearchSettled = false
    /// How long the LAN spinner turns after the page opens.
    let lanSpinnerDuration: Duration
    private var lanRows: [(row: UnsafeMutablePointer<GtkWidget>, server: LANServer)] = []
    /// "Pair a Device…" (runs `win.pair-device`).
    let pairLink: UnsafeMutablePointer<GtkWidget>
    private var connections: [SignalConnection] = []
    private var observation: StateObservation?

    var notice: OpaquePointer { noticeRow.label }

    init(model: ServerSetupModel, lanSpinnerDuration: Duration = .seconds(4)) {
        self.model = model
        self.lanSpinnerDuration = lanSpinnerDuration
        layout = FormPageLayout(icon: "network-server-symbolic", title: tr("Connect to Your Server"),
                                subtitle: tr("Enter the address of your ListenUp server to get started."))

        field = GlassTextField(label: tr("Server Address"), placeholder: "https://listenup.example.com", purpose: GTK_INPUT_PURPOSE_URL)
        connectButton = ListenUpButton(title: tr("Connect"))
        noticeRow = NoticeRow()
        layout.card.append(field.widget)
        layout.card.append(connectButton.widget)
        layout.card.append(noticeRow.widget)

        // Servers on this network.
        lanSpinner = OpaquePointer(newObject(gtk_spinner_new()))
        lanCard = ListCard(title: tr("On This Network"), caption: nil, listLabel: tr("ListenUp servers on this network"),
                           accessory: lanSpinner.widget)
        layout.appendToColumn(lanCard.widget)
        pairLink = PairDeviceLink.make()
        layout.appendToColumn(pairLink)

        field.onChange { [weak model] text in model?.send(.urlChanged(text)) }
        field.onActivate { [weak model] in model?.send(.connect) }
        connectButton.onClick { [weak model] in model?.send(.connect) }
        connections.append(lanList.connect(.rowActivated) { [weak self] row in self?.activate(row) })
        observation = StateObservation { [weak self] in self?.render() }
    }

    /// Draws the model's state. Runs now and on every change.
    private func render() {
        field.text = model.urlText
        field.errorText = model.fieldError
        connectButton.isEnabled = model.canConnect || model.isChecking
        connectButton.setLoading(model.isChecking)
        connectButton.title = model.isChecking ? tr("Checking…") : tr("Connect")
        noticeRow.show(model.notice)
        // Announce the outcome to screen readers through the button's description.
        connectButton.widget.setAccessibleDescription(model.notice ?? model.fieldError)
        renderLAN()
    }

    private func renderLAN() {
        let servers = model.discovered
        switch model.discoveryStatus {
        case .searching:
            let spinning = !lanSearchSettled
            gtk_spinner_set_spinning(lanSpinner, spinning ? 1 : 0)
            gtk_widget_set_visible(lanSpinner.widget, spinning ? 1 : 0)
            if servers.isEmpty {
                gtk_label_set_label(lanStatus, spinning ? tr("Looking for ListenUp servers…")
                                                        : tr("No ListenUp servers found on this network yet. Servers that appear are listed here."))
            } else {
                gtk_label_set_label(lanStatus, tr("Pick a server to connect to it."))
            }
            if spinning, lanSpinnerTimer == nil {
                lanSpinnerTimer = MainContext.timeout(after: lanSpinnerDuration) { [weak self] in
                    guard let self else { return }
                    self.lanSpinnerTimer = nil
                    self.lanSearchSettled = true
                    self.renderLAN()
                }
            }
        case .unavailable(let reason):
            lanSpinnerTimer?.cancel()
            lanSpinnerTimer = nil
            gtk_spinner_set_spinning(lanSpinner, 0)
            gtk_widget_set_visible(lanSpinner.widget, 0)
            gtk_label_set_label(lanStatus, tr("Finding servers on this network isn't available (%@). You can still type an address above.", reason))
        }
        gtk_widget_set_visible(lanList.widget, servers.isEmpty ? 0 : 1)
        guard servers != lanRows.map(\.server) else { return }
        for (row, _) in lanRows { gtk_list_box_remove(lanList, row) }
        lanRows = servers.map { server in
            let row = newObject(adw_action_row_new())
            adw_preferences_row_set_title(row.cast(to: AdwPreferencesRow.self), server.name)
            // TRANSLATORS: a server found on the network: its address, then its version (e.g. “nas.local:8080 · version 1.0.0”).
            let subtitle = server.version.map { tr("%@ · version %@", server.hostAndPort, $0) } ?? server.hostAndPort
            adw_action_row_set_subtitle(row.cast(to: AdwActionRow.self), subtitle)
            gtk_list_box_row_set_activatable(row.cast(to: GtkListBoxRow.self), 1)
            let arrow = newObject(gtk_image_new_from_icon_name("go-next-symbolic"))
            adw_action_row_add_suffix(row.cast(to: AdwActionRow.self), arrow)
            gtk_list_box_append(lanList, row)
            return (row, server)
        }
        gtk_widget_set_visible(lanList.widget, servers.isEmpty ? 0 : 1)
    }

    private func activate(_ row: UnsafeMutablePointer<GtkListBoxRow>) {
        guard let match = lanRows.first(where: { $0.row.rawPointer == row.rawPointer }) else { return }
        model.send(.pick(match.server))
    }

    /// Picks the LAN server shown at `index` (tests).
    func pickLANRow(at index: Int) {
        guard lanRows.indices.contains(index) else { return }
        gtk_widget_activate(lanRows[index].row)
    }

    var lanRowTitles: [String] { lanRows.map(\.server.name) }

    /// Whether the LAN spinner turns (tests).
    var isLANSpinnerSpinning: Bool { gtk_widget_get_visible(lanSpinner.widget) != 0 && gtk_spinner_get_spinning(lanSpinner) != 0 }

    func focusDefault() {
        field.grabFocus()
    }

    func teardown() {
        lanSpinnerTimer?.cancel()
        lanSpinnerTimer = nil
        observation?.cancel()
        observation = nil
        connections.removeAll()
    }
}
