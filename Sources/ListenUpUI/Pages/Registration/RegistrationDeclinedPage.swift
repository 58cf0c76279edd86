import CAdwaita
import GtkBridge
import ListenUpCore

/// Account declined: an administrator turned the registration down. The
/// server's reason when it gave one, and the way back to Sign in.
@MainActor
final class RegistrationDeclinedPage: RoutePage {
    var widget: UnsafeMutablePointer<GtkWidget> { layout.widget }
    private let layout: FormPageLayout
    private let model: RegistrationDeclinedModel
    let reasonLabel: Label
    let backButton: ListenUpButton
    private var observation: StateObservation?

    init(model: RegistrationDeclinedModel) {
        self.model = model
        layout = FormPageLayout(icon: "dialog-error-symbolic", title: tr("Account Declined"), subtitle: model.message)
        reasonLabel = Label(unchecked: newObject(gtk_label_new("")))
        gtk_label_set_wrap(reasonLabel.opaque, 1)
        gtk_label_set_justify(reasonLabel.opaque, GTK_JUSTIFY_CENTER)
        backButton = ListenUpButton(title: tr("Back to Sign In"))
        layout.card.append(reasonLabel)
        layout.card.append(backButton.widget)
        backButton.onClick { [weak model] in model?.send(.backToSignIn) }
        observation = StateObservation { [weak self] in self?.render() }
    }

    private func render() {
        reasonLabel.show(model.reason.map { tr("Reason: %@", $0) } ?? "")
    }

    func focusDefault() {
        _ = Widget(backButton.widget).grabFocus()
    }

    func teardown() {
        observation?.cancel()
        observation = nil
    }
}
