import CAdwaita
import GtkBridge
import ListenUpCore

/// Sign in: email and password for the saved server, and a way back to
/// choosing another server.
@MainActor
final class LoginPage: RoutePage {
    var widget: UnsafeMutablePointer<GtkWidget> { layout.widget }
    private let layout: FormPageLayout
    private let model: LoginModel
    let emailField: GlassTextField
    let passwordField: GlassTextField
    let signInButton: ListenUpButton
    let changeServerButton: Button
    let noticeRow: NoticeRow
    /// "Pair a Device…" (runs `win.pair-device`).
    let pairLink: Button
    /// "Use an Invite…".
    let inviteButton: Button
    private let inviteLink: InviteLinkButton
    /// "Create Account…", shown where the server takes new accounts.
    let createAccountButton: Button
    /// "Forgot Password?", shown where the server can reset passwords.
    let forgotPasswordButton: Button
    private var connections: [SignalConnection] = []
    private var observation: StateObservation?

    init(model: LoginModel) {
        self.model = model
        layout = FormPageLayout(icon: "avatar-default-symbolic", title: tr("Sign In"),
                                subtitle: model.serverURL.map { tr("Sign in to %@.", $0.absoluteString) } ?? tr("Sign in to your server."))
        emailField = GlassTextField(label: tr("Email"), placeholder: "ada@example.com", purpose: GTK_INPUT_PURPOSE_EMAIL)
        passwordField = GlassTextField(label: tr("Password"), placeholder: "", isSecret: true)
        signInButton = ListenUpButton(title: tr("Sign In"))
        noticeRow = NoticeRow()

        layout.card.append(noticeRow.widget)
        layout.card.append(emailField.widget)
        layout.card.append(passwordField.widget)
        // A link-style button under the password, as GNOME apps place it.
        forgotPasswordButton = Button(unchecked: newObject(gtk_button_new_with_label(tr("Forgot Password?"))))
        forgotPasswordButton.addClasses(StyleClass("flat"), StyleClass("caption"))
        gtk_widget_set_halign(forgotPasswordButton.pointer, GTK_ALIGN_END)
        Widget(forgotPasswordButton.pointer).isVisible = false
        layout.card.append(forgotPasswordButton)
        layout.card.append(signInButton.widget)
        createAccountButton = Button(unchecked: newObject(gtk_button_new_with_label(tr("Create Account…"))))
        createAccountButton.addClasses(StyleClass("flat"))
        gtk_widget_set_halign(createAccountButton.pointer, GTK_ALIGN_CENTER)
        Widget(createAccountButton.pointer).isVisible = false
        inviteLink = InviteLinkButton()
        inviteButton = inviteLink.button
        // The two ways to a new account side by side, under the form.
        let newAccount = Box(unchecked: newObject(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)))
        gtk_widget_set_halign(newAccount.pointer, GTK_ALIGN_CENTER)
        newAccount.append(createAccountButton)
        newAccount.append(inviteButton)
        layout.appendToColumn(newAccount)
        changeServerButton = layout.appendChangeServer()
        pairLink = layout.appendPairLink()

        emailField.onChange { [weak model] in model?.send(.emailChanged($0)) }
        passwordField.onChange { [weak model] in model?.send(.passwordChanged($0)) }
        emailField.onActivate { [weak self] in self?.passwordField.grabFocus() }
        passwordField.onActivate { [weak model] in model?.send(.signIn) }
        signInButton.onClick { [weak model] in model?.send(.signIn) }
        connections.append(changeServerButton.connect(.clicked) { [weak model] in model?.send(.changeServer) })
        connections.append(inviteButton.connect(.clicked) { [weak model] in model?.send(.useInvite) })
        connections.append(createAccountButton.connect(.clicked) { [weak model] in model?.send(.createAccount) })
        connections.append(forgotPasswordButton.connect(.clicked) { [weak model] in model?.send(.forgotPassword) })
        observation = StateObservation { [weak self] in self?.render() }
    }

    private func render() {
        emailField.text = model.email
        if !model.hasPassword { passwordField.text = "" }
        let busy = model.status == .signingIn
        signInButton.isEnabled = model.canSignIn || busy
        signInButton.setLoading(busy)
        Widget(emailField.entry).isSensitive = !busy
        Widget(passwordField.entry).isSensitive = !busy
        if let error = model.errorMessage {
            noticeRow.show(error, isError: true)
        } else {
            noticeRow.show(model.notice)
        }
        signInButton.widget.setAccessibleDescription(model.errorMessage ?? model.notice)
        Widget(createAccountButton.pointer).isVisible = model.offersCreateAccount
        Widget(createAccountButton.pointer).isSensitive = !busy
        Widget(forgotPasswordButton.pointer).isVisible = model.offersPasswordReset
        Widget(forgotPasswordButton.pointer).isSensitive = !busy
    }

    func focusDefault() {
        if model.email.isEmpty { emailField.grabFocus() } else { passwordField.grabFocus() }
    }

    func teardown() {
        observation?.cancel()
        observation = nil
        connections.removeAll()
    }
}
