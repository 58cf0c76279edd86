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

        let order = AdminSetupModel.Field.allCases
        for (index, field) in order.enumerated() {
            guard let textField = fields[field] else { continue }
            textField.onChange { [weak model] in model?.send(.changed(field, $0)) }
            let next = index + 1 < order.count ? fields[order[index + 1]] : nil
            textField.onActivate { [weak model] in
                model?.touch(field)
                if let next { next.grabFocus() } else { model?.send(.create) }
            }
        }
        createButton.onClick { [weak model] in model?.send(.create) }
        connections.append(changeServerButton.connect(.clicked) { [weak model] in model?.send(.changeServer) })
        observation = StateObservation { [weak self] in self?.render() }
    }

    private func render() {
        fields[.firstName]?.text = model.firstName
        fields[.lastName]?.text = model.lastName
        fields[.email]?.text = model.email
        for (field, textField) in fields {
            textField.errorText = model.visibleError(for: field)
        }
        let busy = model.status == .creating
        createButton.setLoading(busy)
        for textField in fields.values { Widget(textField.entry).isSensitive = !busy }
        noticeRow.show(model.errorMessage, isError: true)
        createButton.widget.setAccessibleDescription(model.errorMessage)
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
