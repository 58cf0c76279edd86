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
    var lanList: ListBox { lanCard.list }
    var lanStatus: Label { lanCard.caption }
    private let lanSpinner: Spinner
    /// Ends the "searching" spinner: browsing goes on, but an endless
    /// animation would keep redrawing the window (and a CPU busy) for nothing.
    private var lanSpinnerTimer: MainLoopSource?
    private var lanSearchSettled = false
    /// How long the LAN spinner turns after the page opens.
    let lanSpinnerDuration: Duration
    private var lanRows: [(row: TextRow, server: LANServer)] = []
    /// "Pair a Device…" (runs `win.pair-device`).
    let pairLink: Button
    /// "Use an Invite…".
    let inviteButton: Button
    /// "Cancel": back to the server that was active (setup reached with *Add Server…*).
    let cancelButton: Button
    private let inviteLink: InviteLinkButton
    private var connections: [SignalConnection] = []
    private var observation: StateObservation?

    var notice: Label { noticeRow.label }

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
        lanSpinner = Spinner(unchecked: newObject(gtk_spinner_new()))
        lanCard = ListCard(title: tr("On This Network"), caption: nil, listLabel: tr("ListenUp servers on this network"),
                           accessory: lanSpinner.pointer)
        layout.appendToColumn(lanCard.widget)
        inviteLink = InviteLinkButton()
        inviteButton = inviteLink.button
        layout.appendToColumn(inviteButton)
        pairLink = layout.appendPairLink()
        cancelButton = Button(unchecked: newObject(gtk_button_new_with_label(tr("Cancel"))))
        cancelButton.addClasses(StyleClass("flat"))
        gtk_widget_set_halign(cancelButton.pointer, GTK_ALIGN_CENTER)
        layout.appendToColumn(cancelButton)

        field.onChange { [weak model] text in model?.send(.urlChanged(text)) }
        field.onActivate { [weak model] in model?.send(.connect) }
        connectButton.onClick { [weak model] in model?.send(.connect) }
        connections.append(lanList.connect(.rowActivated) { [weak self] row in self?.activate(row) })
        connections.append(inviteButton.connect(.clicked) { [weak model] in model?.send(.useInvite) })
        connections.append(cancelButton.connect(.clicked) { [weak model] in model?.send(.cancel) })
        observation = StateObservation { [weak self] in self?.render() }
    }

    /// Draws the model's state. Runs now and on every change.
    private func render() {
        Widget(cancelButton.pointer).isVisible = model.canCancel
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
            lanSpinner.run(spinning)
            if servers.isEmpty {
                lanStatus.text = spinning ? tr("Looking for ListenUp servers…")
                                          : tr("No ListenUp servers found on this network yet. Servers that appear are listed here.")
            } else {
                lanStatus.text = tr("Pick a server to connect to it.")
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
            lanSpinner.run(false)
            lanStatus.text = tr("Finding servers on this network isn't available (%@). You can still type an address above.", reason)
        }
        lanList.isVisible = !servers.isEmpty
        guard servers != lanRows.map(\.server) else { return }
        for (row, _) in lanRows { lanList.remove(row) }
        lanRows = servers.map { server in
            // TRANSLATORS: a server found on the network: its address, then its version (e.g. “nas.local:8080 · version 1.0.0”).
            let subtitle = server.version.map { tr("%@ · version %@", server.hostAndPort, $0) } ?? server.hostAndPort
            let row = TextRow(title: server.name, subtitle: subtitle)
            (row.isActivatable, row.showsArrow) = (true, true)
            lanList.append(row)
            return (row, server)
        }
        lanList.isVisible = !servers.isEmpty
    }

    private func activate(_ row: UnsafeMutablePointer<GtkListBoxRow>) {
        guard let match = lanRows.first(where: { $0.row.rawPointer == row.rawPointer }) else { return }
        model.send(.pick(match.server))
    }

    /// Picks the LAN server shown at `index` (tests).
    func pickLANRow(at index: Int) {
        guard lanRows.indices.contains(index) else { return }
        lanRows[index].row.activate()
    }

    var lanRowTitles: [String] { lanRows.map(\.server.name) }

    /// Whether the LAN spinner turns (tests).
    var isLANSpinnerSpinning: Bool { lanSpinner.isVisible && gtk_spinner_get_spinning(lanSpinner.opaque) != 0 }

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
