import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore
import Pairing

/// Pair a device: the QR code (dark on white in every theme, drawn at an
/// integer number of pixels per module so it stays crisp), the pairing link
/// with Copy Link, a countdown to the next code, "Show a New Code" once
/// pairing has expired, the "Pair with …?" confirmation, and the paired
/// devices with Revoke. Close (or Escape) returns to the previous screen.
@MainActor
final class PairingPage: RoutePage {
    var widget: UnsafeMutablePointer<GtkWidget> { layout.widget }
    private let layout: FormPageLayout
    private let model: PairingModel
    private let qr: PairingQRView
    let countdownLabel: OpaquePointer
    let linkLabel: OpaquePointer
    let copyButton: UnsafeMutablePointer<GtkWidget>
    let newCodeButton: ListenUpButton
    let noticeRow: NoticeRow
    private let devicesCard: ListCard
    private let devices: PairedDeviceList
    let closeButton: UnsafeMutablePointer<GtkWidget>
    private let confirmation: PairingConfirmation
    private var ticker: MainLoopSource?
    private var connections: [SignalConnection] = []
    private var observation: StateObservation?
    /// The text last put on the clipboard (tests).
    private(set) var copiedText: String?

    init(model: PairingModel) {
        self.model = model
        layout = FormPageLayout(icon: "phone-symbolic", title: tr("Pair a Device"),
                                subtitle: tr("Scan this code with the ListenUp app on your phone or tablet."))
        qr = PairingQRView()

        countdownLabel = OpaquePointer(newObject(gtk_label_new(nil)))
        countdownLabel.addClasses(.dimLabel)
        gtk_label_set_wrap(countdownLabel, 1)
        gtk_label_set_justify(countdownLabel, GTK_JUSTIFY_CENTER)

        linkLabel = OpaquePointer(newObject(gtk_label_new(nil)))
        linkLabel.addClasses(.caption, .dimLabel, StyleClass("pairing-link"))
        gtk_label_set_selectable(linkLabel, 1)
        gtk_label_set_wrap(linkLabel, 1)
        gtk_label_set_wrap_mode(linkLabel, PANGO_WRAP_CHAR)
        gtk_label_set_xalign(linkLabel, 0)
        linkLabel.widget.setAccessibleLabel(tr("Pairing link"))

        copyButton = newObject(gtk_button_new_with_label(tr("Copy Link")))
        copyButton.addClasses(.pill)
        gtk_widget_set_halign(copyButton, GTK_ALIGN_CENTER)
        newCodeButton = ListenUpButton(title: tr("Show a New Code"))
        noticeRow = NoticeRow()

        layout.card.append(qr.widget)
        layout.card.append(countdownLabel.widget)
        layout.card.append(noticeRow.widget)
        layout.card.append(newCodeButton.widget)
        layout.card.append(linkLabel.widget)
        layout.card.append(copyButton)

        devicesCard = ListCard(title: tr("Paired Devices"), caption: tr("No devices are paired with this computer yet."),
                               listLabel: tr("Paired devices"))
        devices = PairedDeviceList(in: .listBox(devicesCard.list), detail: .pairedAndLastSeen) { [weak model] id in
            model?.send(.revoke(deviceID: id))
        }
        layout.appendToColumn(devicesCard.widget)

        closeButton = newObject(gtk_button_new_with_label(tr("Close")))
        closeButton.addClasses(.pill)
        gtk_widget_set_halign(closeButton, GTK_ALIGN_CENTER)
        gtk_widget_set_margin_top(closeButton, 8)
        closeButton.setAccessibleDescription(tr("Stops pairing and goes back"))
        layout.appendToColumn(closeButton)

        confirmation = PairingConfirmation { [weak model] request, accept in
            guard let model, model.request?.id == request else { return }
            model.send(.answer(accept: accept))
        }

        connections.append(copyButton.connect(.clicked) { [weak self] in self?.copyLink() })
        qr.followScaleFactor { [weak model] in model?.qrImage }
        // The dialog is transient for the window: a request that came before the page was shown waits for it.
        connections.append(widget.connect(.map) { [weak self] in
            guard let self else { return }
            self.renderRequest(self.model.request)
        })
        connections.append(closeButton.connect(.clicked) { [weak model] in model?.dismiss() })
        newCodeButton.onClick { [weak model] in model?.send(.showNewCode) }
        let shortcuts: OpaquePointer = newObject(gtk_shortcut_controller_new())
        gtk_shortcut_controller_set_scope(shortcuts, GTK_SHORTCUT_SCOPE_GLOBAL)
        Shortcuts.add("Escape", to: shortcuts) { [weak model] in
            model?.dismiss()
            return true
        }
        gtk_widget_add_controller(widget, shortcuts)
        observation = StateObservation { [weak self] in self?.render() }
    }

    /// Draws the model's state. Runs now and on every change.
    private func render() {
        let phase = model.phase
        qr.show(model.qrImage)
        var showsNewCode = false
        switch phase {
        case .closed, .starting:
            noticeRow.show(nil)
            gtk_label_set_label(linkLabel, "")
        case .open(let uri, _, _):
            noticeRow.show(nil)
            gtk_label_set_label(linkLabel, uri)
        case .expired:
            noticeRow.show(tr("This code has expired. Show a new code to pair another device."))
            gtk_label_set_label(linkLabel, "")
            showsNewCode = true
        case .failed:
            noticeRow.show(tr("Pairing could not start. Check that this computer is on a network, then try again."), isError: true)
            gtk_label_set_label(linkLabel, "")
            showsNewCode = true
        }
        let isOpen = if case .open = phase { true } else { false }
        gtk_widget_set_visible(qr.widget, isOpen ? 1 : (phase == .starting ? 1 : 0))
        gtk_widget_set_visible(linkLabel.widget, isOpen ? 1 : 0)
        gtk_widget_set_visible(copyButton, isOpen ? 1 : 0)
        gtk_widget_set_visible(newCodeButton.widget, showsNewCode ? 1 : 0)
        newCodeButton.title = phase == .expired ? tr("Show a New Code") : tr("Try Again")
        updateCountdown()
        if isOpen, ticker == nil {
            ticker = MainContext.every(.seconds(1)) { [weak self] in
                guard let self else { return false }
                self.updateCountdown()
                return true
            }
        } else if !isOpen {
            ticker?.cancel()
            ticker = nil
        }
        renderRequest(model.request)
        renderDevices(model.devices)
    }

    private func updateCountdown() {
        switch model.phase {
        case .open(_, let rotatesAt, let closesAt):
            let seconds = max(0, Int(rotatesAt.timeIntervalSinceNow.rounded(.up)))
            let minutes = max(0, Int(closesAt.timeIntervalSinceNow.rounded(.up)) + 59) / 60
            gtk_label_set_label(countdownLabel, tr("New code in %@ s · pairing stays open for %@ min", String(seconds), String(minutes)))
            gtk_widget_set_visible(countdownLabel.widget, 1)
        case .starting:
            gtk_label_set_label(countdownLabel, tr("Preparing a code…"))
            gtk_widget_set_visible(countdownLabel.widget, 1)
        default:
            gtk_widget_set_visible(countdownLabel.widget, 0)
        }
    }

    private func copyLink() {
        guard case .open(let uri, _, _) = model.phase else { return }
        let clipboard = gdk_display_get_clipboard(gtk_widget_get_display(widget))
        gdk_clipboard_set_text(clipboard, uri)
        copiedText = uri
    }

    // MARK: Confirmation

    /// The open confirmation dialog, if any.
    var dialog: UnsafeMutablePointer<GtkWidget>? { confirmation.dialog }

    private func renderRequest(_ request: PairingRequest?) {
        if let request, request.id == confirmation.request { return }
        confirmation.close()
        guard let request, let root = gtk_widget_get_root(widget), gtk_widget_get_mapped(widget) != 0 else { return }
        confirmation.open(request, over: UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWindow.self))
    }

    // MARK: Devices

    private func renderDevices(_ list: [PairedDevice]) {
        gtk_widget_set_visible(devicesCard.caption.widget, list.isEmpty ? 1 : 0)
        gtk_widget_set_visible(devicesCard.list.widget, list.isEmpty ? 0 : 1)
        devices.show(list)
    }

    /// The device rows' titles (tests).
    var deviceTitles: [String] { devices.titles }

    /// The Revoke button of the device row at `index` (tests).
    func revokeButton(at index: Int) -> UnsafeMutablePointer<GtkWidget>? { devices.revokeButton(at: index) }

    /// Shows the QR texture at its natural size (tests).
    var picture: OpaquePointer { qr.picture }

    /// Whether the QR picture shows a texture.
    var showsQR: Bool { qr.showsQR }

    func focusDefault() {
        gtk_widget_grab_focus(isShowingQR ? copyButton : closeButton)
    }

    private var isShowingQR: Bool { if case .open = model.phase { true } else { false } }

    /// Ready once the QR is on screen, or the page says why there is none.
    var isContentReady: Bool {
        switch model.phase {
        case .closed, .starting: false
        case .open: showsQR
        case .expired, .failed: true
        }
    }

    func teardown() {
        ticker?.cancel()
        ticker = nil
        observation?.cancel()
        observation = nil
        confirmation.close()
        connections.removeAll()
    }
}
