import CAdwaita
import GtkBridge
import ListenUpCore
import Logging

/// Invite links handed to the app: `listenup LINK`, or the desktop opening
/// a `listenup://join/<code>` link (the desktop entry's `MimeType=`). With
/// `G_APPLICATION_HANDLES_OPEN` a second launch hands its links to the
/// running app (GApplication's `open`, over D-Bus) and exits.
extension ListenUpApplication {
    /// Shows the window on the invite page with `links`' last link: the
    /// page checks it. While the saved state is still read at launch, it
    /// waits (up to 10 s) so the invite page comes after it; signed in,
    /// `dialog` asks whether to sign out first.
    func open(_ links: [String], navigator: AppNavigator, dialog: InviteSignOutDialog, parent: UnsafeMutablePointer<GtkWidget>?) {
        guard let link = links.last else { return }
        var waited = 0
        MainContext.every(.milliseconds(100)) {
            if navigator.authState == .initializing, waited < 100 {
                waited += 1
                return true
            }
            if case .signedIn(let server, let account) = navigator.openInvite(link: link), let parent {
                dialog.ask(link, server: server, account: account, over: parent)
            }
            return false
        }
    }
}
