import Foundation

/// The seam between the discovery server and the app's player: what a paired
/// device may see and do of playback (docs/pairing-protocol.md, "Remote
/// control"). The app implements it over its player and hands it to
/// `DiscoveryServer`; without one, the remote endpoints answer 503.
///
/// Threading: the server calls every requirement from Swift concurrency tasks
/// (never from the main thread or a NIO event loop), concurrently for
/// different requests. An implementation over a `@MainActor` player can be
/// `@MainActor` itself (its `async` requirements are then run on the main
/// actor), with ``stateChanges()`` `nonisolated`; it returns plain values.
/// The app's is `PlayerRemote` (`ListenUpCore`):
///
/// ```swift
/// @MainActor final class PlayerRemote: RemotePlayer {
///     private var player: () -> PlayerModel? = { nil }   // the session's, or none
///     func state() async -> RemotePlayerState { Self.state(of: player()) }
///     nonisolated func stateChanges() -> AsyncStream<RemotePlayerState> { … }
///     func perform(_ command: RemoteCommand, from device: RemoteDevice) async throws(RemoteCommandError) {
///         guard let player = player() else { throw .unavailable(…) }
///         let (intent, change) = try Self.map(command, on: player)
///         player.send(intent)
///         player.announceRemote(change, from: device.name)
///     }
///     …
/// }
/// ```
public protocol RemotePlayer: Sendable {
    /// The player's state now.
    ///
    /// Called on each `GET /api/v1/player`, and for the first event of a
    /// stream until ``stateChanges()`` has delivered a state.
    func state() async -> RemotePlayerState

    /// The player's state, first as it is now, then after every change
    /// (including position ticks while playing: yield as often as is
    /// convenient, the server coalesces to at most a few events a second).
    ///
    /// Called once each time the server starts; the server stops iterating
    /// when it stops. The stream may end when the player goes away; the
    /// remote then sees the last state until the server restarts.
    /// - Returns: a new stream on every call.
    func stateChanges() -> AsyncStream<RemotePlayerState>

    /// The cover of the book loaded (`GET /api/v1/player/cover`).
    /// - Returns: the image, or nil when nothing is loaded or the book has none (404).
    func cover() async -> RemoteCover?

    /// Carries out a command from a paired device. The values' types and
    /// ranges are already checked (see ``RemoteCommand``); the device is named
    /// so the desktop can say where the command came from ("Paused from My Phone").
    ///
    /// Returns once the player has accepted the command (not when its effect
    /// is audible); the new state follows through ``stateChanges()``.
    /// - Parameters:
    ///   - command: what to do.
    ///   - device: the paired device that asked.
    /// - Throws: ``RemoteCommandError`` when the command cannot be carried out.
    func perform(_ command: RemoteCommand, from device: RemoteDevice) async throws(RemoteCommandError)

    /// Whether any device follows the state (`GET /api/v1/player/events`
    /// open): a player that reports its position sparingly when nobody
    /// watches should report it as it moves while this is true.
    ///
    /// Called from the server's event loops when the first stream opens and
    /// when the last one closes; returns at once.
    func setFollowed(_ followed: Bool)
}

extension RemotePlayer {
    /// Players whose state needs no care for followers ignore it.
    public func setFollowed(_ followed: Bool) {}
}

/// The paired device a ``RemoteCommand`` came from.
public struct RemoteDevice: Sendable, Equatable, Hashable {
    /// The ``PairedDevice/id``.
    public var id: String
    /// The name it paired with (``PairedDevice/name``), e.g. "My Phone".
    public var name: String

    /// A device as the server names it.
    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}

/// A cover image as the player has it.
public struct RemoteCover: Sendable, Equatable {
    /// The encoded image.
    public var data: Data
    /// Its media type (`image/jpeg`, `image/png`, …), sent as `Content-Type`.
    public var contentType: String

    /// An image and its media type.
    public init(data: Data, contentType: String) {
        self.data = data
        self.contentType = contentType
    }
}
