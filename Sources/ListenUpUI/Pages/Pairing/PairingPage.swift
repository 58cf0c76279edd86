import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore
import PairingProtocol

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
    let countdownLabel: Label
    let linkLabel: Label
    let copyButton: Button
    let newCodeButton: ListenUpButton
    let noticeRow: NoticeRow
    private let devicesCard: ListCard
    private let devices: PairedDeviceList
    let closeButton: Button
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

        let ui = PageTemplates.load("pairing-page")
        (countdownLabel, linkLabel, copyButton, closeButton) = (ui.child("countdown"), ui.child("link"), ui.child("copy"), ui.child("close"))
        newCodeButton = ListenUpButton(title: tr("Show a New Code"))
        noticeRow = NoticeRow()
        for part in [qr.widget, countdownLabel.pointer, noticeRow.widget, newCodeButton.widget, linkLabel.pointer, copyButton.pointer] {
            layout.card.append(part)
        }
        devicesCard = ListCard(title: tr("Paired Devices"), caption: tr("No devices are paired with this computer yet."),
                               listLabel: tr("Paired devices"))
        devices = PairedDeviceList(in: .listBox(devicesCard.list), detail: .pairedAndLastSeen) { [weak model] id in
            model?.send(.revoke(deviceID: id))
        }
        layout.appendToColumn(devicesCard.widget)
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
        Shortcuts.addGlobal("Escape", to: widget) { [weak model] in
            model?.dismiss()
            return true
        }
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
            linkLabel.text = ""
        case .open(let uri, _, _):
            noticeRow.show(nil)
            linkLabel.text = uri
        case .expired:
            noticeRow.show(tr("This code has expired. Show a new code to pair another device."))
            linkLabel.text = ""
            showsNewCode = true
        case .failed:
            noticeRow.show(tr("Pairing could not start. Check that this computer is on a network, then try again."), isError: true)
            linkLabel.text = ""
            showsNewCode = true
        }
        let isOpen = if case .open = phase { true } else { false }
        Widget(qr.widget).isVisible = isOpen || phase == .starting
        linkLabel.isVisible = isOpen
        copyButton.isVisible = isOpen
        Widget(newCodeButton.widget).isVisible = showsNewCode
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
            countdownLabel.show(tr("New code in %@ s · pairing stays open for %@ min", String(seconds), String(minutes)))
        case .starting:
            countdownLabel.show(tr("Preparing a code…"))
        default:
            countdownLabel.isVisible = false
        }
    }

    private func copyLink() {
        guard case .open(let uri, _, _) = model.phase else { return }
        let clipboard = gdk_display_get_clipboard(gtk_widget_get_display(widget))
        gdk_clipboard_set_text(clipboard, uri)
        copiedText = uri
    }

    // MARK: Confirmation

    /// The open confirmation dialog, if any (as `RoutePage` asks: the
    /// screenshots take it).
    var dialog: UnsafeMutablePointer<GtkWidget>? { confirmation.dialog?.pointer }

    /// The open confirmation dialog, if any, as a dialog.
    var confirmationDialog: MessageDialog? { confirmation.dialog }

    private func renderRequest(_ request: PairingRequest?) {
        if let request, request.id == confirmation.request { return }
        confirmation.close()
        guard let request, let root = gtk_widget_get_root(widget), gtk_widget_get_mapped(widget) != 0 else { return }
        confirmation.open(request, over: root)
    }

    // MARK: Devices

    private func renderDevices(_ list: [PairedDevice]) {
        devicesCard.caption.isVisible = list.isEmpty
        devicesCard.list.isVisible = !list.isEmpty
        devices.show(list)
    }

    /// The device rows' titles (tests).
    var deviceTitles: [String] { devices.titles }

    /// The Revoke button of the device row at `index` (tests).
    func revokeButton(at index: Int) -> Button? { devices.revokeButton(at: index) }

    /// Shows the QR texture at its natural size (tests).
    var picture: Picture { qr.picture }

    /// Whether the QR picture shows a texture.
    var showsQR: Bool { qr.showsQR }

    func focusDefault() {
        (isShowingQR ? copyButton : closeButton).grabFocus()
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
