import Foundation
import GtkBridge
import ListenUpCore

/// *Jumped to 2:14:05* with Undo: each jump of the player (a seek, a
/// chapter, a long skip, another device's position; ``PlayerModel/lastJump``)
/// is said in a toast whose button goes back, at once (a toast on screen
/// waits behind it). A newer jump replaces the
/// toast (a burst of jumps is one toast, not a queue of them); an undo,
/// from the toast, Ctrl+Z or elsewhere, takes it away.
extension MainWindow {
    /// How long the toast stays, seconds.
    static let jumpToastSeconds = 6
    /// A jump older than this when the window first sees it (a window made
    /// after it) is not announced, seconds.
    static let jumpNewsAge: TimeInterval = 10

    /// Follows `player`'s last jump.
    func followJumps(_ player: PlayerModel) {
        let jump = player.lastJump
        guard jump?.id != shownJump?.id else { return }
        shownJump = jump
        jumpToast?.dismiss()
        jumpToast = nil
        guard let jump, Date().timeIntervalSince(jump.at) < Self.jumpNewsAge else { return }
        // TRANSLATORS: a toast after a jump in the book (a seek, a chapter); %@ is where it landed, e.g. “2:14:05”.
        let text = tr("Jumped to %@", PlayerControls.time(jump.position))
        noteToast(text)
        // At once, before any toast waiting (Undo is for now); one on
        // screen comes back after it.
        // TRANSLATORS: the button of the “Jumped to …” toast: back to where the book was.
        jumpToast = toasts.present(text, button: tr("Undo"), seconds: Self.jumpToastSeconds, urgent: true) { [weak player] in
            // Only while the same book is loaded (its places are its own).
            guard let player, player.nowPlaying?.bookID == jump.bookID else { return }
            player.send(.undoJump)
        }
        nameToastCloseButton()
    }
}
