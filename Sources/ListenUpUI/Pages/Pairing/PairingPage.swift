import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore
import Pairing
import QRCode

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
    /// Shows the QR texture at its natural size (never scaled by GTK).
    let picture: OpaquePointer
    private let qrFrame: UnsafeMutablePointer<GtkWidget>
    private let spinner: OpaquePointer
    let countdownLabel: OpaquePointer
    let linkLabel: OpaquePointer
    let copyButton: UnsafeMutablePointer<GtkWidget>
    let newCodeButton: ListenUpButton
    let noticeRow: NoticeRow
    let deviceList: OpaquePointer
    private let devicesEmpty: OpaquePointer
    let closeButton: UnsafeMutablePointer<GtkWidget>
    /// The open confirmation dialog and the request it asks about.
    private(set) var dialog: UnsafeMutablePointer<GtkWidget>?
    private var dialogRequest: UUID?
    private var dialogConnection: SignalConnection?
    private var shownImage: QRImage?
    private var deviceRows: [(row: UnsafeMutablePointer<GtkWidget>, device: PairedDevice, revoke: UnsafeMutablePointer<GtkWidget>,
                              connection: SignalConnection)] = []
    private var ticker: MainLoopSource?
    private var connections: [SignalConnection] = []
    private var observation: StateObservation?
    /// The text last put on the clipboard (tests).
    private(set) var copiedText: String?

    init(model: PairingModel) {
        self.model = model
        layout = FormPageLayout(icon: "phone-symbolic", title: tr("Pair a Device"),
                                subtitle: tr("Scan this code with the ListenUp app on your phone or tablet."))

        picture = OpaquePointer(newObject(gtk_picture_new()))
        // Sized by hand to the image's size in logical pixels (see renderQR).
        gtk_picture_set_can_shrink(picture, 1)
        gtk_widget_set_halign(picture.widget, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(picture.widget, GTK_ALIGN_CENTER)
        picture.widget.setAccessibleLabel(tr("Pairing QR code"))
        gtk_picture_set_alternative_text(picture, tr("Pairing QR code"))
        spinner = OpaquePointer(newObject(gtk_spinner_new()))
        gtk_widget_set_size_request(spinner.widget, 32, 32)
        gtk_widget_set_halign(spinner.widget, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(spinner.widget, GTK_ALIGN_CENTER)
        qrFrame = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))
        qrFrame.addClasses(StyleClass("qr-frame"))
        gtk_widget_set_halign(qrFrame, GTK_ALIGN_CENTER)
        gtk_box_append(qrFrame.cast(to: GtkBox.self), picture.widget)
        gtk_box_append(qrFrame.cast(to: GtkBox.self), spinner.widget)

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

        layout.card.append(qrFrame)
        layout.card.append(countdownLabel.widget)
        layout.card.append(noticeRow.widget)
        layout.card.append(newCodeButton.widget)
        layout.card.append(linkLabel.widget)
        layout.card.append(copyButton)

        // Paired devices.
        let devicesCard = GlassCard(spacing: 8)
        let heading = OpaquePointer(newObject(gtk_label_new(tr("Paired Devices"))))
        heading.addClasses(.heading)
        gtk_label_set_xalign(heading, 0)
        devicesEmpty = OpaquePointer(newObject(gtk_label_new(tr("No devices are paired with this computer yet."))))
        devicesEmpty.addClasses(.dimLabel, .caption)
        gtk_label_set_wrap(devicesEmpty, 1)
        gtk_label_set_xalign(devicesEmpty, 0)
        deviceList = OpaquePointer(newObject(gtk_list_box_new()))
        gtk_list_box_set_selection_mode(deviceList, GTK_SELECTION_NONE)
        deviceList.addClasses(StyleClass("boxed-list"))
        deviceList.widget.setAccessibleLabel(tr("Paired devices"))
        devicesCard.append(heading)
        devicesCard.append(devicesEmpty.widget)
        devicesCard.append(deviceList.widget)
        layout.appendToColumn(devicesCard.widget)
        gtk_widget_set_margin_top(devicesCard.widget, 8)

        closeButton = newObject(gtk_button_new_with_label(tr("Close")))
        closeButton.addClasses(.pill)
        gtk_widget_set_halign(closeButton, GTK_ALIGN_CENTER)
        gtk_widget_set_margin_top(closeButton, 8)
        closeButton.setAccessibleDescription(tr("Stops pairing and goes back"))
        layout.appendToColumn(closeButton)

        connections.append(copyButton.connect(.clicked) { [weak self] in self?.copyLink() })
        // On a HiDPI screen the texture is redrawn for the new scale.
        connections.append(picture.connect(.notify("scale-factor")) { [weak self] in
            guard let self else { return }
            self.shownImage = nil
            self.renderQR(self.model.qrImage)
        })
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
        renderQR(model.qrImage)
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
        gtk_widget_set_visible(qrFrame, isOpen ? 1 : (phase == .starting ? 1 : 0))
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

    private func renderQR(_ image: QRImage?) {
        gtk_widget_set_visible(picture.widget, image == nil ? 0 : 1)
        gtk_widget_set_visible(spinner.widget, image == nil ? 1 : 0)
        gtk_spinner_set_spinning(spinner, image == nil ? 1 : 0)
        guard image != shownImage else { return }
        shownImage = image
        guard let image else {
            gtk_picture_set_paintable(picture, nil)
            return
        }
        // One texture pixel per device pixel: the picture's logical size is
        // the image's, the texture has `scale` times as many pixels, so GTK
        // draws it 1:1 and never smooths a module edge.
        let scale = max(1, Int(gtk_widget_get_scale_factor(picture.widget)))
        let texture = Self.texture(for: image, scale: scale)
        gtk_widget_set_size_request(picture.widget, Int32(image.size), Int32(image.size))
        gtk_picture_set_paintable(picture, texture?.pointer)
    }

    /// The image as a texture, each pixel repeated `scale`×`scale` times
    /// (nearest neighbour: the model draws at an integer module size, and
    /// GTK 4.8's GtkPicture has no filter setting, so scaling is done here).
    static func texture(for image: QRImage, scale: Int = 1) -> GObjectRef<OpaquePointer>? {
        let pixels = Self.rgba(image, scale: scale)
        let side = image.size * scale
        let bytes = pixels.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        return gdk_memory_texture_new(Int32(side), Int32(side), GDK_MEMORY_R8G8B8A8, bytes, gsize(side * 4)).map { GObjectRef(taking: $0) }
    }

    /// RGBA bytes of `image` upscaled by `scale` (nearest neighbour).
    nonisolated static func rgba(_ image: QRImage, scale: Int) -> [UInt8] {
        guard scale > 1 else { return image.rgbaPixels }
        let size = image.size, side = size * scale
        var out = [UInt8](repeating: 255, count: side * side * 4)
        image.grayPixels.withUnsafeBufferPointer { gray in
            for y in 0..<side {
                let row = (y / scale) * size
                for x in 0..<side {
                    let value = gray[row + x / scale]
                    let index = (y * side + x) * 4
                    out[index] = value
                    out[index + 1] = value
                    out[index + 2] = value
                }
            }
        }
        return out
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

    private func renderRequest(_ request: PairingHost.Request?) {
        if let request, request.id == dialogRequest { return }
        closeDialog()
        guard let request, let root = gtk_widget_get_root(widget), gtk_widget_get_mapped(widget) != 0 else { return }
        let parent = UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWindow.self)
        let device = request.clientModel.isEmpty ? request.clientName : "\(request.clientName) (\(request.clientModel))"
        let body = tr("Pair only if %@ shows this same code:", device)
        let made = newObject(adw_message_dialog_new(parent, tr("Pair with %@?", request.clientName), body))
        let code = OpaquePointer(newObject(gtk_label_new(Self.spaced(request.comparisonCode))))
        code.addClasses(.title1, StyleClass("comparison-code"))
        gtk_label_set_selectable(code, 1)
        code.widget.setAccessibleLabel(tr("Comparison code %@", request.comparisonCode.map(String.init).joined(separator: " ")))
        let message = made.cast(to: AdwMessageDialog.self)
        adw_message_dialog_set_extra_child(message, code.widget)
        adw_message_dialog_add_response(message, "refuse", tr("Refuse"))
        adw_message_dialog_add_response(message, "pair", tr("Pair"))
        adw_message_dialog_set_response_appearance(message, "pair", ADW_RESPONSE_SUGGESTED)
        adw_message_dialog_set_default_response(message, "refuse")
        adw_message_dialog_set_close_response(message, "refuse")
        dialog = made
        dialogRequest = request.id
        dialogConnection = made.connect(.response) { [weak self] response in self?.respond(response) }
        gtk_window_present(made.cast(to: GtkWindow.self))
    }

    /// "042917" → "042 917" (easier to compare aloud).
    static func spaced(_ code: String) -> String {
        code.count == 6 ? "\(code.prefix(3)) \(code.suffix(3))" : code
    }

    /// The dialog's answer: `pair` accepts, anything else refuses.
    func respond(_ response: String) {
        guard dialogRequest != nil, model.request?.id == dialogRequest else { return }
        dialogRequest = nil
        model.send(.answer(accept: response == "pair"))
    }

    private func closeDialog() {
        dialogConnection?.disconnect()
        dialogConnection = nil
        dialogRequest = nil
        if let dialog { gtk_window_destroy(dialog.cast(to: GtkWindow.self)) }
        dialog = nil
    }

    // MARK: Devices

    private func renderDevices(_ devices: [PairedDevice]) {
        gtk_widget_set_visible(devicesEmpty.widget, devices.isEmpty ? 1 : 0)
        gtk_widget_set_visible(deviceList.widget, devices.isEmpty ? 0 : 1)
        guard devices != deviceRows.map(\.device) else { return }
        for entry in deviceRows {
            entry.connection.disconnect()
            gtk_list_box_remove(deviceList, entry.row)
        }
        deviceRows = devices.map { device in
            let row = newObject(adw_action_row_new())
            adw_preferences_row_set_title(row.cast(to: AdwPreferencesRow.self), device.name)
            var parts: [String] = []
            if !device.model.isEmpty { parts.append(device.model) }
            // TRANSLATORS: %@ is a date and time, e.g. “23 Nov 2026, 10:04”.
            parts.append(tr("Paired %@", Localization.dateAndTime(device.pairedAt)))
            // TRANSLATORS: %@ is a date and time, e.g. “23 Nov 2026, 10:04”.
            parts.append(tr("Last seen %@", Localization.dateAndTime(device.lastSeen)))
            adw_action_row_set_subtitle(row.cast(to: AdwActionRow.self), parts.joined(separator: " · "))
            let revoke = newObject(gtk_button_new_with_label(tr("Revoke")))
            revoke.addClasses(StyleClass("destructive-action"))
            gtk_widget_set_valign(revoke, GTK_ALIGN_CENTER)
            revoke.setAccessibleLabel(tr("Revoke %@", device.name))
            adw_action_row_add_suffix(row.cast(to: AdwActionRow.self), revoke)
            gtk_list_box_append(deviceList, row)
            let id = device.id
            let connection = revoke.connect(.clicked) { [weak model] in model?.send(.revoke(deviceID: id)) }
            return (row, device, revoke, connection)
        }
    }

    /// The device rows' titles (tests).
    var deviceTitles: [String] { deviceRows.map(\.device.name) }

    /// The Revoke button of the device row at `index` (tests).
    func revokeButton(at index: Int) -> UnsafeMutablePointer<GtkWidget>? {
        deviceRows.indices.contains(index) ? deviceRows[index].revoke : nil
    }

    /// Whether the QR picture shows a texture.
    var showsQR: Bool { gtk_widget_get_visible(picture.widget) != 0 && gtk_picture_get_paintable(picture) != nil }

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
        closeDialog()
        for entry in deviceRows { entry.connection.disconnect() }
        connections.removeAll()
    }
}
