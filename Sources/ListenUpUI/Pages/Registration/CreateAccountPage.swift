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

        let order = CreateAccountModel.Field.allCases
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
        connections.append(backButton.connect(.clicked) { [weak model] in model?.send(.cancel) })
        observation = StateObservation { [weak self] in self?.render() }
    }

    private func render() {
        fields[.displayName]?.text = model.displayName
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
        fields[.displayName]?.grabFocus()
    }

    func teardown() {
        observation?.cancel()
        observation = nil
        connections.removeAll()
    }
}
