import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore
import PairingProtocol

/// The "Pair with …?" dialog (`data/ui/pairing-confirmation.ui`): the
/// comparison code, large, with Refuse (the default, also on Escape) and
/// Pair. Transient for the page's window.
@MainActor
final class PairingConfirmation {
    /// The open dialog, if any.
    private(set) var dialog: MessageDialog?
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
    func open(_ request: PairingRequest, over parent: some GPointer) {
        close()
        let ui = PageTemplates.load("pairing-confirmation")
        // A window is GTK's own until destroyed (close()): no reference kept.
        let made: MessageDialog = ui.child("root")
        let code: Label = ui.child("code")
        let device = request.clientModel.isEmpty ? request.clientName : "\(request.clientName) (\(request.clientModel))"
        made.heading = tr("Pair with %@?", request.clientName)
        // The consent: what pairing lets the device do, then the check.
        made.body = tr("Once paired, %@ can see what you are listening to and control playback. Pair only if it shows this same code:", device)
        code.text = Self.spaced(request.comparisonCode)
        code.setAccessibleLabel(tr("Comparison code %@", request.comparisonCode.map(String.init).joined(separator: " ")))
        made.window.setTransientFor(parent)
        dialog = made
        self.request = request.id
        connection = made.connect(.response) { [weak self] response in self?.respond(response) }
        made.window.present()
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
        dialog?.window.destroy()
        dialog = nil
    }

    /// "042917" → "042 917" (easier to compare aloud).
    static func spaced(_ code: String) -> String {
        code.count == 6 ? "\(code.prefix(3)) \(code.suffix(3))" : code
    }
}
