import CAdwaita
import GtkBridge
import ListenUpCore

/// Waiting for Approval: the account is registered; a spinner while the
/// app waits live for an administrator, the address registered, why the
/// wait is interrupted (if it is), and a way to give up.
@MainActor
final class AwaitingApprovalPage: RoutePage {
    var widget: UnsafeMutablePointer<GtkWidget> { layout.widget }
    private let layout: FormPageLayout
    private let model: AwaitingApprovalModel
    let spinner: Spinner
    let emailLabel: Label
    let noticeRow: NoticeRow
    let cancelButton: Button
    private var connections: [SignalConnection] = []
    private var observation: StateObservation?

    init(model: AwaitingApprovalModel) {
        self.model = model
        layout = FormPageLayout(icon: "appointment-soon-symbolic", title: tr("Waiting for Approval"),
                                subtitle: tr("An administrator must approve your account before you can sign in. This page signs you in as soon as they do."))
        spinner = Spinner(unchecked: newObject(gtk_spinner_new()))
        gtk_widget_set_halign(spinner.pointer, GTK_ALIGN_CENTER)
        spinner.run(true)
        spinner.pointer.setAccessibleLabel(tr("Waiting for Approval"))
        emailLabel = Label(unchecked: newObject(gtk_label_new("")))
        gtk_label_set_wrap(emailLabel.opaque, 1)
        gtk_label_set_justify(emailLabel.opaque, GTK_JUSTIFY_CENTER)
        noticeRow = NoticeRow()
        cancelButton = Button(unchecked: newObject(gtk_button_new_with_label(tr("Cancel Registration"))))
        cancelButton.addClasses(StyleClass("flat"))
        gtk_widget_set_halign(cancelButton.pointer, GTK_ALIGN_CENTER)

        layout.card.append(spinner)
        layout.card.append(emailLabel)
        layout.card.append(noticeRow.widget)
        layout.appendToColumn(cancelButton)
        connections.append(cancelButton.connect(.clicked) { [weak model] in model?.send(.cancel) })
        observation = StateObservation { [weak self] in self?.render() }
    }

    private func render() {
        emailLabel.text = tr("Registered as %@", model.email)
        noticeRow.show(model.problem, isError: true)
    }

    func focusDefault() {
        _ = Widget(cancelButton.pointer).grabFocus()
    }

    func teardown() {
        observation?.cancel()
        observation = nil
        connections.removeAll()
    }
}
