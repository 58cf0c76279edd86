import CAdwaita
import GtkBridge
import ListenUpCore

/// Create admin: the server's first account. Name, email, password with
/// confirmation; errors under each field; then the user is signed in.
@MainActor
final class AdminSetupPage: RoutePage {
    var widget: UnsafeMutablePointer<GtkWidget> { layout.widget }
    private let layout: FormPageLayout
    private let model: AdminSetupModel
    let fields: [AdminSetupModel.Field: GlassTextField]
    let createButton: ListenUpButton
    let changeServerButton: Button
    let noticeRow: NoticeRow
    private var connections: [SignalConnection] = []
    private var observation: StateObservation?

    init(model: AdminSetupModel) {
        self.model = model
        layout = FormPageLayout(icon: "system-users-symbolic", title: tr("Create the Admin Account"),
                                subtitle: tr("This server is new. The first account you create manages it."))
        fields = [
            .firstName: GlassTextField(label: tr("First Name"), placeholder: "Ada", purpose: GTK_INPUT_PURPOSE_NAME),
            .lastName: GlassTextField(label: tr("Last Name"), placeholder: "Lovelace", purpose: GTK_INPUT_PURPOSE_NAME),
            .email: GlassTextField(label: tr("Email"), placeholder: "ada@example.com", purpose: GTK_INPUT_PURPOSE_EMAIL),
            .password: GlassTextField(label: tr("Password"), placeholder: tr("At least 8 characters"), isSecret: true),
            .confirmation: GlassTextField(label: tr("Confirm Password"), placeholder: "", isSecret: true),
        ]
        createButton = ListenUpButton(title: tr("Create Account"))
        noticeRow = NoticeRow()

        let names = Box(unchecked: newObject(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)))
        gtk_box_set_homogeneous(names.pointer.cast(to: GtkBox.self), 1)
        for field in [AdminSetupModel.Field.firstName, .lastName] {
            if let widget = fields[field]?.widget { names.append(widget) }
        }
        layout.card.append(noticeRow.widget)
        layout.card.append(names)
        for field in [AdminSetupModel.Field.email, .password, .confirmation] {
            if let widget = fields[field]?.widget { layout.card.append(widget) }
        }
        layout.card.append(createButton.widget)
        changeServerButton = layout.appendChangeServer()

        AccountFormControls.connect(fields, in: AdminSetupModel.Field.allCases, createButton: createButton, to: model,
                                    changed: { $0.send(.changed($1, $2)) }, create: { $0.send(.create) })
        connections.append(changeServerButton.connect(.clicked) { [weak model] in model?.send(.changeServer) })
        observation = StateObservation { [weak self] in self?.render() }
    }

    private func render() {
        fields[.firstName]?.text = model.firstName
        fields[.lastName]?.text = model.lastName
        fields[.email]?.text = model.email
        AccountFormControls.render(model, fields: fields, createButton: createButton, noticeRow: noticeRow)
    }

    func focusDefault() {
        fields[.firstName]?.grabFocus()
    }

    func teardown() {
        observation?.cancel()
        observation = nil
        connections.removeAll()
    }
}
