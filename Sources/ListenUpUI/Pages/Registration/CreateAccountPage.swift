import CAdwaita
import GtkBridge
import ListenUpCore

/// Create Account: a new account on a server whose registration is open or
/// queued. Name, email, password with their errors under each field (the
/// rules of Create admin); then the user is signed in or waits for approval.
@MainActor
final class CreateAccountPage: RoutePage {
    var widget: UnsafeMutablePointer<GtkWidget> { layout.widget }
    private let layout: FormPageLayout
    private let model: CreateAccountModel
    let fields: [CreateAccountModel.Field: GlassTextField]
    let createButton: ListenUpButton
    let backButton: Button
    let noticeRow: NoticeRow
    private var connections: [SignalConnection] = []
    private var observation: StateObservation?

    init(model: CreateAccountModel) {
        self.model = model
        layout = FormPageLayout(icon: "contact-new-symbolic", title: tr("Create Account"),
                                subtitle: model.serverURL.map { tr("Create an account on %@.", $0.absoluteString) } ?? tr("Create an account on this server."))
        fields = [
            .displayName: GlassTextField(label: tr("Name"), placeholder: "Ada Lovelace", purpose: GTK_INPUT_PURPOSE_NAME),
            .email: GlassTextField(label: tr("Email"), placeholder: "ada@example.com", purpose: GTK_INPUT_PURPOSE_EMAIL),
            .password: GlassTextField(label: tr("Password"), placeholder: tr("At least 8 characters"), isSecret: true),
        ]
        createButton = ListenUpButton(title: tr("Create Account"))
        noticeRow = NoticeRow()
        backButton = Button(unchecked: newObject(gtk_button_new_with_label(tr("Back to Sign In"))))
        backButton.addClasses(StyleClass("flat"))
        gtk_widget_set_halign(backButton.pointer, GTK_ALIGN_CENTER)

        layout.card.append(noticeRow.widget)
        for field in CreateAccountModel.Field.allCases {
            if let widget = fields[field]?.widget { layout.card.append(widget) }
        }
        layout.card.append(createButton.widget)
        layout.appendToColumn(backButton)

        AccountFormControls.connect(fields, in: CreateAccountModel.Field.allCases, createButton: createButton, to: model,
                                    changed: { $0.send(.changed($1, $2)) }, create: { $0.send(.create) })
        connections.append(backButton.connect(.clicked) { [weak model] in model?.send(.cancel) })
        observation = StateObservation { [weak self] in self?.render() }
    }

    private func render() {
        fields[.displayName]?.text = model.displayName
        fields[.email]?.text = model.email
        AccountFormControls.render(model, fields: fields, createButton: createButton, noticeRow: noticeRow)
    }

    func focusDefault() {
        fields[.displayName]?.grabFocus()
    }

    func teardown() {
        observation?.cancel()
        observation = nil
        connections.removeAll()
    }
}
