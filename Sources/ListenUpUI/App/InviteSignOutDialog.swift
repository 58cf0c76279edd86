import CAdwaita
import GtkBridge
import ListenUpCore

/// "Sign Out to Use This Invite?" (`data/ui/invite-sign-out.ui`): an
/// invite link opened while someone is signed in. An invite makes a new
/// account, so the session ends first, and only if the user says so.
/// Transient for the main window.
@MainActor
final class InviteSignOutDialog {
    /// The open dialog, if any.
    private(set) var dialog: MessageDialog?
    private var link: String?
    private var connection: SignalConnection?
    private let navigator: AppNavigator

    init(navigator: AppNavigator) {
        self.navigator = navigator
    }

    /// Asks about `link`, opened while `account` is signed in to `server`;
    /// a dialog already open now asks about the newer link.
    func ask(_ link: String, server: String, account: String, over parent: some GPointer) {
        self.link = link
        if dialog != nil { return }
        let made: MessageDialog = PageTemplates.load("invite-sign-out").child("root")
        // TRANSLATORS: the body of “Sign Out to Use This Invite?”; the first %@ is the server, the second the account's name.
        made.body = tr("You are signed in to %@ as %@. An invite creates a new account: sign out first to use it.", server, account)
        made.window.setTransientFor(parent)
        dialog = made
        connection = made.connect(.response) { [weak self] response in self?.respond(response) }
        made.window.present()
    }

    /// The dialog's answer: `sign-out` signs out, then opens the invite.
    func respond(_ response: String) {
        let link = self.link
        connection?.disconnect()
        connection = nil
        dialog = nil
        self.link = nil
        if response == "sign-out", let link { navigator.signOutAndOpen(invite: link) }
    }
}
