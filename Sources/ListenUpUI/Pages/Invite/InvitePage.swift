import CAdwaita
import GtkBridge
import ListenUpCore

/// Use an invite: paste the link and Continue; then who invited you to
/// which server, and a name (today's server) and a password to create the
/// account; or why the invite cannot be used. The tree is the shared form
/// layout with `data/ui/invite-page.ui`'s preview and buttons.
@MainActor
final class InvitePage: RoutePage {
    var widget: UnsafeMutablePointer<GtkWidget> { layout.widget }
    private let layout: FormPageLayout
    private let model: InviteModel
    let linkField: GlassTextField
    let continueButton: ListenUpButton
    /// The invite's preview: `invitedBy` and `account` in a box.
    let preview: Box
    let invitedBy: Label
    let account: Label
    let nameField: GlassTextField
    let passwordField: GlassTextField
    let claimButton: ListenUpButton
    let noticeRow: NoticeRow
    let anotherLinkButton: Button
    let backButton: Button
    private let ref: GObjectRef<UnsafeMutablePointer<GtkWidget>>
    private var connections: [SignalConnection] = []
    private var observation: StateObservation?

    init(model: InviteModel) {
        self.model = model
        layout = FormPageLayout(icon: "mail-unread-symbolic", title: tr("Use an Invite"),
                                subtitle: tr("Paste the invite link you were sent to make your account."))
        let ui = PageTemplates.load("invite-page")
        (preview, ref) = ui.root("root")
        (invitedBy, account) = (ui.child("invited-by"), ui.child("account"))
        (anotherLinkButton, backButton) = (ui.child("another-link"), ui.child("back"))
        linkField = GlassTextField(label: tr("Invite Link"), placeholder: "https://link.listenup.audio/o?t=invite…",
                                   purpose: GTK_INPUT_PURPOSE_URL)
        continueButton = ListenUpButton(title: tr("Continue"))
        nameField = GlassTextField(label: tr("Your Name"), placeholder: "Ada Lovelace", purpose: GTK_INPUT_PURPOSE_NAME)
        passwordField = GlassTextField(label: tr("Password"), placeholder: "", isSecret: true)
        claimButton = ListenUpButton(title: tr("Create Account"))
        noticeRow = NoticeRow()

        layout.card.append(linkField.widget)
        layout.card.append(continueButton.widget)
        layout.card.append(preview)
        layout.card.append(nameField.widget)
        layout.card.append(passwordField.widget)
        layout.card.append(claimButton.widget)
        layout.card.append(noticeRow.widget)
        layout.card.append(anotherLinkButton)
        layout.appendToColumn(backButton)

        linkField.onChange { [weak model] in model?.send(.linkChanged($0)) }
        linkField.onActivate { [weak model] in model?.send(.lookUp) }
        continueButton.onClick { [weak model] in model?.send(.lookUp) }
        nameField.onChange { [weak model] in model?.send(.displayNameChanged($0)) }
        nameField.onActivate { [weak self] in self?.passwordField.grabFocus() }
        passwordField.onChange { [weak model] in model?.send(.passwordChanged($0)) }
        passwordField.onActivate { [weak model] in model?.send(.claim) }
        claimButton.onClick { [weak model] in model?.send(.claim) }
        connections.append(anotherLinkButton.connect(.clicked) { [weak model] in model?.send(.anotherLink) })
        connections.append(backButton.connect(.clicked) { [weak model] in model?.send(.back) })
        observation = StateObservation { [weak self] in self?.render() }
    }

    /// Draws the model's state. Runs now and on every change.
    private func render() {
        let status = model.status
        let onLink: Bool
        let onForm: Bool
        switch status {
        case .editing, .checking, .failed: (onLink, onForm) = (true, false)
        case .ready, .claiming, .claimFailed: (onLink, onForm) = (false, true)
        case .unusable: (onLink, onForm) = (false, false)
        }
        linkField.text = model.linkText
        Widget(linkField.widget).isVisible = onLink
        Widget(linkField.entry).isSensitive = status != .checking
        Widget(continueButton.widget).isVisible = onLink
        continueButton.isEnabled = model.canLookUp || status == .checking
        continueButton.setLoading(status == .checking)

        if let invite = model.preview {
            invitedBy.text = tr("%@ invited you to %@.", invite.invitedByName, invite.serverName)
            account.text = tr("Your account: %@", invite.email)
        }
        preview.isVisible = model.preview != nil
        nameField.text = model.displayName
        Widget(nameField.widget).isVisible = onForm && model.takesDisplayName
        Widget(passwordField.widget).isVisible = onForm
        if model.passwordLength == 0 { passwordField.text = "" }
        passwordField.errorText = onForm ? model.passwordProblem : nil
        let claiming = status == .claiming
        Widget(nameField.entry).isSensitive = !claiming
        Widget(passwordField.entry).isSensitive = !claiming
        Widget(claimButton.widget).isVisible = onForm
        claimButton.isEnabled = model.canClaim || claiming
        claimButton.setLoading(claiming)
        anotherLinkButton.isVisible = !onLink

        if let error = model.errorMessage {
            noticeRow.show(error, isError: true)
        } else {
            noticeRow.show(status == .checking ? tr("Checking the invite…") : nil)
        }
        let button = onLink ? continueButton : claimButton
        button.widget.setAccessibleDescription(model.errorMessage)
    }

    func focusDefault() {
        switch model.status {
        case .ready, .claimFailed: if model.takesDisplayName, model.displayName.isEmpty { nameField.grabFocus() } else { passwordField.grabFocus() }
        default: linkField.grabFocus()
        }
    }

    func teardown() {
        observation?.cancel()
        observation = nil
        connections.removeAll()
    }
}
