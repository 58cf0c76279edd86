import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// Pieces the player page and the now-playing bar share.
@MainActor
enum PlayerControls {
    /// A skip button's name: "Back 10 Seconds". (The templates name them
    /// "Skip Back"/"Skip Forward" until their page does: the now-playing
    /// bar, made at start-up, does so before it is first shown; formatting
    /// a number loads ICU's data, ~3 MiB resident, which a start that plays
    /// nothing need not pay.)
    static func skipName(back: Bool, seconds: Int) -> String {
        back
            // TRANSLATORS: a button; %@ is a number of seconds.
            ? tr("Back %@ Seconds", Localization.number(seconds))
            // TRANSLATORS: a button; %@ is a number of seconds.
            : tr("Forward %@ Seconds", Localization.number(seconds))
    }

    /// The play/pause button's icon and name for `status`.
    static func playPause(_ status: PlayerModel.Status) -> (icon: String, name: String) {
        switch status {
        case .playing, .buffering, .loading: ("listenup-pause-symbolic", tr("Pause"))
        default: ("media-playback-start-symbolic", tr("Play"))
        }
    }

    /// `1:02:03` or `2:03`.
    static func time(_ milliseconds: Int64) -> String {
        BookDetailsPanel.timestamp(max(0, milliseconds))
    }

    /// "1.5×".
    static func rate(_ rate: Double) -> String {
        let text = rate == rate.rounded() ? String(format: "%.1f", rate) : String(format: "%.2f", rate)
        let trimmed = text.hasSuffix("0") && text.contains(".") && !text.hasSuffix(".0") ? String(text.dropLast()) : text
        // TRANSLATORS: a playback speed, e.g. “1.5×”.
        return tr("%@×", trimmed)
    }

    /// What the sleep timer shows: "12:14 left" or "End of chapter".
    static func sleep(_ timer: PlayerModel.SleepTimer?, remaining: Int64?) -> String? {
        guard let timer else { return nil }
        let left = remaining.map { time($0) } ?? ""
        switch timer {
        // TRANSLATORS: the sleep timer; %@ is the time left, e.g. “12:14”.
        case .minutes: return tr("Sleep in %@", left)
        // TRANSLATORS: the sleep timer stops at the end of the chapter; %@ is the time left.
        case .endOfChapter: return tr("Sleep at chapter end (%@)", left)
        }
    }

    /// Shows the cover of the book playing in `view` (placeholder first).
    static func loadCover(of player: PlayerModel, into view: CoverView) -> Task<Void, Never>? {
        guard let book = player.nowPlaying else { return nil }
        view.showPlaceholder(for: book.title)
        let size = view.size
        return Task { [weak view] in
            guard let data = await player.cover(), let texture = await CoverTexture.decode(data.bytes, size: size * 2) else { return }
            guard !Task.isCancelled else { return }
            view?.show(texture)
        }
    }
}
