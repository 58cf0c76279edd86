import ListenUpCore

/// The player's keys, wherever the focus is in the window (a capture-phase
/// controller, `addPlayerShortcuts`), except where the focused widget needs
/// them: a text field or a slider keeps every key; a list, a grid or a
/// menu keeps its arrows (↑/↓ and ←/→ move through the library's books).
///
/// | keys | does |
/// |---|---|
/// | Space | play or pause |
/// | ←/→ (not in a list) | skip back / forward |
/// | Ctrl+←/→ | previous / next chapter |
/// | ↑/↓ (not in a list) | volume up / down, by 5 % |
/// | + (also = and keypad +) / − (also keypad −) | faster / slower, by 0.05× |
/// | M | mute, and back to the volume before |
/// | Ctrl+Z | undo the last jump (the key goes on when there is none) |
///
/// The shortcuts window lists every trigger (a test checks).
extension MainWindow {
    /// A player shortcut.
    struct PlayerKey {
        /// Its keys, as `gtk_shortcut_trigger_parse_string` reads them.
        let triggers: [String]
        /// Whether a list, grid or menu with the focus keeps it (arrows).
        let isArrow: Bool
        /// Returns whether the key was used.
        let run: @MainActor (PlayerModel) -> Bool

        init(_ triggers: [String], arrow: Bool = false, _ run: @escaping @MainActor (PlayerModel) -> Bool) {
            self.triggers = triggers
            isArrow = arrow
            self.run = run
        }

        /// A key that always sends `intent`.
        init(_ triggers: [String], arrow: Bool = false, sends intent: @escaping @MainActor (PlayerModel) -> PlayerModel.Intent) {
            self.init(triggers, arrow: arrow) { player in
                player.send(intent(player))
                return true
            }
        }
    }

    static let playerKeys: [PlayerKey] = [
        PlayerKey(["space"]) { _ in .togglePlayPause },
        PlayerKey(["Left"], arrow: true) { _ in .skipBack },
        PlayerKey(["Right"], arrow: true) { _ in .skipForward },
        PlayerKey(["<Control>Left"]) { _ in .previousChapter },
        PlayerKey(["<Control>Right"]) { _ in .nextChapter },
        PlayerKey(["Up"], arrow: true) { .volume($0.volume(steppedBy: 1)) },
        PlayerKey(["Down"], arrow: true) { .volume($0.volume(steppedBy: -1)) },
        PlayerKey(["plus", "equal", "KP_Add"]) { .rate($0.rate(steppedBy: 1)) },
        PlayerKey(["minus", "KP_Subtract"]) { .rate($0.rate(steppedBy: -1)) },
        PlayerKey(["m"]) { _ in .toggleMute },
        PlayerKey(["<Control>z"]) { player in
            guard !player.recentPositions.isEmpty else { return false }
            player.send(.undoJump)
            return true
        },
    ]
}
