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
    /// waits (up to 10 s) so the invite page comes after it; signed in, the
    /// link is not used (signing out comes first) and the log says so.
    func open(_ links: [String], navigator: AppNavigator, logger: Logger) {
        guard let link = links.last else { return }
        var waited = 0
        MainContext.every(.milliseconds(100)) {
            if navigator.authState == .initializing, waited < 100 {
                waited += 1
                return true
            }
            Self.deliver(link, to: navigator, logger: logger)
            return false
        }
    }

    /// Hands `link` to the invite page (the one on screen, or a new one).
    static func deliver(_ link: String, to navigator: AppNavigator, logger: Logger) {
        if let invite = navigator.activeModel(.invite) {
            invite.open(link: link)
            return
        }
        if case .authenticated = navigator.authState {
            logger.warning("An invite link was opened while signed in; sign out to use it")
            return
        }
        navigator.send(.inviteOpened(link: link))
    }
}
