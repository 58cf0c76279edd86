import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore
import PairingProtocol

/// The "Pair with …?" dialog: the comparison code, large, with Refuse
/// (the default, also on Escape) and Pair. Transient for the page's window.
@MainActor
final class PairingConfirmation {
    /// The open dialog, if any.
    private(set) var dialog: UnsafeMutablePointer<GtkWidget>?
    /// The request the open dialog asks about.
    private(set) var request: UUID?
    private var connection: SignalConnection?
    private let onAnswer: @MainActor (_ request: UUID, _ accept: Bool) -> Void

    /// - Parameter onAnswer: runs once per dialog with its request and the
    ///   answer (`pair` accepts, any other response refuses).
    init(onAnswer: @escaping @MainActor (_ request: UUID, _ accept: Bool) -> Void) {
        self.onAnswer = onAnswer
    }

    /// Opens the dialog for `request` over `parent`, closing any other.
    func open(_ request: PairingRequest, over parent: UnsafeMutablePointer<GtkWindow>) {
        close()
        let device = request.clientModel.isEmpty ? request.clientName : "\(request.clientName) (\(request.clientModel))"
        // The consent: what pairing lets the device do, then the check.
        let body = tr("Once paired, %@ can see what you are listening to and control playback. Pair only if it shows this same code:", device)
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
        self.request = request.id
        connection = made.connect(.response) { [weak self] response in self?.respond(response) }
        gtk_window_present(made.cast(to: GtkWindow.self))
    }

    /// The dialog's answer: `pair` accepts, anything else refuses. Only the
    /// first answer to a dialog counts.
    func respond(_ response: String) {
        guard let request else { return }
        self.request = nil
        onAnswer(request, response == "pair")
    }

    /// Closes the dialog, if open, without answering.
    func close() {
        connection?.disconnect()
        connection = nil
        request = nil
        if let dialog { gtk_window_destroy(dialog.cast(to: GtkWindow.self)) }
        dialog = nil
    }

    /// "042917" → "042 917" (easier to compare aloud).
    static func spaced(_ code: String) -> String {
        code.count == 6 ? "\(code.prefix(3)) \(code.suffix(3))" : code
    }
}
