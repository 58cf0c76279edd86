import CAdwaita
import GtkBridge
import ListenUpCore

/// Reset Password: the email form, then a spinner while an administrator
/// decides, then the code and new password form; an ended request says why
/// and offers to start again. *Back to Sign In* leaves at any step.
@MainActor
final class ResetPasswordPage: RoutePage {
    var widget: UnsafeMutablePointer<GtkWidget> { layout.widget }
    private let layout: FormPageLayout
    private let model: ResetPasswordModel
    let fields: [ResetPasswordModel.Field: GlassTextField]
    let spinner: Spinner
    let waitingLabel: Label
    let primaryButton: ListenUpButton
    let backButton: Button
    let noticeRow: NoticeRow
    private var connections: [SignalConnection] = []
    private var observation: StateObservation?

    init(model: ResetPasswordModel) {
        self.model = model
        layout = FormPageLayout(icon: "dialog-password-symbolic", title: tr("Reset Password"), subtitle: "")
        fields = [
            .email: GlassTextField(label: tr("Email"), placeholder: "ada@example.com", purpose: GTK_INPUT_PURPOSE_EMAIL),
            .code: GlassTextField(label: tr("Code"), placeholder: "ABCD-2345"),
            .password: GlassTextField(label: tr("New Password"), placeholder: tr("At least 8 characters"), isSecret: true),
            .confirmation: GlassTextField(label: tr("Confirm New Password"), placeholder: "", isSecret: true),
        ]
        spinner = Spinner(unchecked: newObject(gtk_spinner_new()))
        gtk_widget_set_halign(spinner.pointer, GTK_ALIGN_CENTER)
        spinner.pointer.setAccessibleLabel(tr("Waiting for an administrator"))
        waitingLabel = Label(unchecked: newObject(gtk_label_new("")))
        gtk_label_set_wrap(waitingLabel.opaque, 1)
        gtk_label_set_justify(waitingLabel.opaque, GTK_JUSTIFY_CENTER)
        primaryButton = ListenUpButton(title: tr("Send Request"))
        noticeRow = NoticeRow()
        backButton = Button(unchecked: newObject(gtk_button_new_with_label(tr("Back to Sign In"))))
        backButton.addClasses(StyleClass("flat"))
        gtk_widget_set_halign(backButton.pointer, GTK_ALIGN_CENTER)

        layout.card.append(noticeRow.widget)
        layout.card.append(spinner)
        layout.card.append(waitingLabel)
        for field in ResetPasswordModel.Field.allCases {
            if let widget = fields[field]?.widget { layout.card.append(widget) }
        }
        layout.card.append(primaryButton.widget)
        layout.appendToColumn(backButton)
        connect()
        observation = StateObservation { [weak self] in self?.render() }
    }

    private func connect() {
        let order: [ResetPasswordModel.Field] = [.code, .password, .confirmation]
        for (field, textField) in fields {
            textField.onChange { [weak model] in model?.send(.changed(field, $0)) }
        }
        fields[.email]?.onActivate { [weak model] in model?.send(.request) }
        for (index, field) in order.enumerated() {
            let next = index + 1 < order.count ? fields[order[index + 1]] : nil
            fields[field]?.onActivate { [weak model] in
                model?.touch(field)
                if let next { next.grabFocus() } else { model?.send(.complete) }
            }
        }
        primaryButton.onClick { [weak self] in self?.primaryAction() }
        connections.append(backButton.connect(.clicked) { [weak model] in model?.send(.cancel) })
    }

    private func primaryAction() {
        switch model.step {
        case .enterEmail, .requesting: model.send(.request)
        case .enterCode, .completing: model.send(.complete)
        case .ended: model.send(.startAgain)
        case .waiting: break
        }
    }

    private func render() {
        let step = model.step
        let asksEmail = step == .enterEmail || step == .requesting
        let asksCode = step == .enterCode || step == .completing
        let isWaiting = step == .waiting
        fields[.email]?.text = model.email
        fields[.code]?.text = model.code
        if model.passwordLength == 0 { fields[.password]?.text = "" }
        for (field, textField) in fields {
            textField.errorText = model.visibleError(for: field)
            let shown = field == .email ? asksEmail : asksCode
            Widget(textField.widget).isVisible = shown
            Widget(textField.entry).isSensitive = step == .enterEmail || step == .enterCode
        }
        Widget(spinner.pointer).isVisible = isWaiting
        spinner.run(isWaiting)
        Widget(waitingLabel.pointer).isVisible = isWaiting
        waitingLabel.text = tr("Asked for %@", model.email)
        layout.subtitle = subtitle(for: step)
        primaryButton.title = switch step {
        case .enterEmail, .requesting, .waiting: tr("Send Request")
        case .enterCode, .completing: tr("Change Password")
        case .ended: tr("Start Again")
        }
        Widget(primaryButton.widget).isVisible = !isWaiting
        primaryButton.setLoading(step == .requesting || step == .completing)
        let notice: String? = if case .ended(let end) = step { end.message } else { model.errorMessage ?? model.problem }
        noticeRow.show(notice, isError: true)
        primaryButton.widget.setAccessibleDescription(notice)
    }

    private func subtitle(for step: ResetPasswordModel.Step) -> String {
        switch step {
        case .enterEmail, .requesting:
            model.serverURL.map { tr("Enter the email of your account on %@. An administrator must approve the reset.", $0.absoluteString) }
                ?? tr("Enter the email of your account. An administrator must approve the reset.")
        case .waiting:
            tr("An administrator must approve this reset; they will give you a code. Keep this page open.")
        case .enterCode, .completing:
            tr("Your reset was approved. Enter the code your administrator gave you and choose a new password.")
        case .ended:
            tr("This reset can't be finished.")
        }
    }

    func focusDefault() {
        fields[model.step == .enterCode ? .code : .email]?.grabFocus()
    }

    func teardown() {
        observation?.cancel()
        observation = nil
        connections.removeAll()
    }
}
