import CAdwaita
import GtkBridge

/// "Use an Invite…" (`data/ui/invite-link.ui`): the flat button server
/// setup and sign in put under their card; it opens the invite page.
@MainActor
final class InviteLinkButton {
    let button: Button
    private let ref: GObjectRef<UnsafeMutablePointer<GtkWidget>>

    init() {
        let ui = PageTemplates.load("invite-link")
        (button, ref) = ui.root("root")
    }
}
