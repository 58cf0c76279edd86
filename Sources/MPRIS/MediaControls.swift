import CGio
import Foundation
import ListenUpCore
import Logging

/// The desktop's media controls: MPRIS (`org.mpris.MediaPlayer2`) on the
/// session bus, as `org.mpris.MediaPlayer2.io.github.listenup.Desktop`.
///
/// GDBus runs on a thread of its own with its own main context, so the
/// controls work the same in the window and in `--headless` (which has no
/// GLib main loop). The state is observed on the main actor and kept in a
/// lock-guarded snapshot the D-Bus thread answers from; commands go to the
/// main actor and are answered at once. With no session bus the controls
/// say so once (info) and do nothing.
@MainActor
public final class MediaControls {
    public nonisolated static let busName = MPRISService.busName

    private let source: any MediaPlayerSource
    private let service: MPRISService
    private var observation: StateObservation?
    private var last: MediaState?
    private var lastTaken = ContinuousClock.now

    /// - Parameters:
    ///   - raise: shows the window (nil: `CanRaise` is false, headless).
    ///   - quit: ends the app.
    ///   - busAddress: a bus to use instead of the session bus (tests).
    public init(player: any MediaPlayerSource, raise: (@MainActor () -> Void)?, quit: @escaping @MainActor () -> Void,
                busAddress: String? = nil, logger: Logger) {
        source = player
        let target = WeakSource(player)
        let raiser: (@Sendable () -> Void)? = raise.map { raise in
            let box = MainActorBox(raise)
            return { Task { @MainActor in box.value() } }
        }
        let quitter = MainActorBox(quit)
        let commands = MPRISService.Commands(
            send: { intent in Task { @MainActor in target.source?.send(intent) } },
            raise: raiser,
            quit: { Task { @MainActor in quitter.value() } })
        service = MPRISService(commands: commands, busAddress: busAddress, logger: logger)
        service.start()
        observation = StateObservation { [weak self] in self?.changed() }
    }

    /// Leaves the bus.
    public func stop() {
        observation?.cancel()
        observation = nil
        service.stop()
    }

    /// Whether the name is owned (tests).
    public var ownsName: Bool { service.ownedName != nil }

    /// The bus name actually owned (the second instance gets `.instance<pid>`).
    public var ownedName: String? { service.ownedName }

    private func changed() {
        let state = source.mediaState
        let now = ContinuousClock.now
        defer {
            last = state
            lastTaken = now
        }
        service.update(state)
        guard let last else { return }
        // A jump the clock does not explain is a seek (a chapter jump too).
        let elapsed = Double((now - lastTaken).milliseconds) * 1_000 * (last.status == .playing ? last.rate : 0)
        let expected = Double(last.position) + elapsed
        if state.bookID == last.bookID, state.hasTrack, abs(Double(state.position) - expected) > 1_500_000 {
            service.emitSeeked(state.position)
        }
    }
}

/// The player, held weakly for the D-Bus thread's commands.
private final class WeakSource: Sendable {
    @MainActor weak var source: (any MediaPlayerSource)?

    @MainActor init(_ source: any MediaPlayerSource) { self.source = source }
}

/// A main-actor closure carried to another thread and run back on the main actor.
private final class MainActorBox: Sendable {
    let value: @MainActor () -> Void

    init(_ value: @escaping @MainActor () -> Void) { self.value = value }
}
