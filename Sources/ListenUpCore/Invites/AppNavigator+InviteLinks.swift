import Foundation

/// Invite links handed to the app from outside (the desktop opening a
/// `listenup://join/…` link, `listenup LINK`).
extension AppNavigator {
    /// What became of an invite link.
    public enum InviteLinkOutcome: Equatable, Sendable {
        /// The invite page has it (the one on screen, or a new one).
        case opened
        /// Someone is signed in: an invite makes a new account, so the
        /// link waits until the user chooses to sign out
        /// (``AppNavigator/signOutAndOpen(invite:)``) or not.
        case signedIn(server: String, account: String)
    }

    /// Hands `link` to the invite page, unless someone is signed in.
    @discardableResult
    public func openInvite(link: String) -> InviteLinkOutcome {
        if let invite = activeModel(.invite) {
            invite.open(link: link)
            return .opened
        }
        if let session = authState.session {
            let url = session.serverURL
            let server = url.host().map { host in url.port.map { "\(host):\($0)" } ?? host } ?? url.absoluteString
            return .signedIn(server: server, account: session.displayName)
        }
        send(.inviteOpened(link: link))
        return .opened
    }

    /// Signs out, then opens `link`'s invite page (the user chose so).
    /// Signed out already, it opens the page at once.
    public func signOutAndOpen(invite link: String) {
        guard authState.session != nil else {
            openInvite(link: link)
            return
        }
        if overlayRoute != nil { closeOverlay() }
        guard let library = activeModel(.library) else { return }
        inviteAfterSignOut = link
        library.send(.signOut)
    }
}
