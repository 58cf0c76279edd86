import Foundation
import PairingProtocol

/// The player as paired devices see and drive it: the ``RemotePlayer`` the
/// discovery server serves (`/api/v1/player…`, docs/pairing-protocol.md).
///
/// One per app (``Dependencies/playerRemote``): it follows whichever player
/// the navigator has (the signed-in session's, or none), publishes its state
/// to the server on every change, and carries out commands on the main
/// actor as the window's own controls would. Each command a device sends
/// is announced on the player (``PlayerModel/remoteNotice``) so the window
/// can say where it came from.
///
/// The server calls in from its tasks; everything here runs on the main
/// actor but ``stateChanges()``, which only touches the locked subscriber
/// table.
@MainActor
public final class PlayerRemote: RemotePlayer {
    private nonisolated let subscribers = LockedValue<[UUID: AsyncStream<RemotePlayerState>.Continuation]>([:])
    /// The state last published (what a new subscriber gets first).
    private nonisolated let latest = LockedValue(RemotePlayerState())
    /// Whether a paired device follows the state (the server says so).
    private nonisolated let followed = LockedValue(false)
    private var player: () -> PlayerModel? = { nil }
    private var follower: ModelFollower<PlayerModel>?

    public nonisolated init() {}

    /// Follows the player `current` returns (read inside an observation:
    /// a new session's player is picked up as it appears).
    public func follow(_ current: @escaping @MainActor () -> PlayerModel?) {
        player = current
        follower?.cancel()
        follower = ModelFollower(current, replaced: { [weak self] player in if player == nil { self?.publish(nil) } },
                                 follow: { [weak self] player in self?.publish(player) })
        follower?.start()
    }

    private func publish(_ current: PlayerModel?) {
        current?.hasRemoteFollowers = followed.value
        let state = Self.state(of: current)
        guard state != latest.value else { return }
        latest.value = state
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(state) }
    }

    // MARK: RemotePlayer

    public func state() async -> RemotePlayerState {
        Self.state(of: player())
    }

    public nonisolated func stateChanges() -> AsyncStream<RemotePlayerState> {
        let (stream, continuation) = AsyncStream.makeStream(of: RemotePlayerState.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        continuation.onTermination = { [subscribers] _ in _ = subscribers.withLock { $0.removeValue(forKey: id) } }
        subscribers.withLock { $0[id] = continuation }
        continuation.yield(latest.value)
        return stream
    }

    public nonisolated func setFollowed(_ followed: Bool) {
        self.followed.value = followed
        Task { @MainActor in self.applyFollowed() }
    }

    /// The latest word wins, whatever order the hops arrive in.
    private func applyFollowed() {
        player()?.hasRemoteFollowers = followed.value
    }

    public func cover() async -> RemoteCover? {
        guard let cover = await player()?.cover() else { return nil }
        return RemoteCover(data: cover.bytes, contentType: cover.format.mimeType)
    }

    public func perform(_ command: RemoteCommand, from device: RemoteDevice) async throws(RemoteCommandError) {
        guard let player = player() else { throw .unavailable(tr("Nobody is signed in on this desktop.")) }
        let (intent, change) = try Self.map(command, on: player)
        player.send(intent)
        player.announceRemote(change, from: device.name)
    }

    // MARK: Mapping

    /// What a remote command changed, for the window to say
    /// (``PlayerModel/RemoteNotice``).
    enum Change: Equatable, Sendable {
        case playing
        case paused
        /// Playing or paused, whichever the player does now.
        case toggled
        case stopped
        case moved
        case speed
        case sleepSet
        case sleepOff
    }

    /// The one mapping of a remote command: what `command` asks of
    /// `player`, checked against the book loaded, and what changes for the
    /// user.
    static func map(_ command: RemoteCommand, on player: PlayerModel) throws(RemoteCommandError)
        -> (intent: PlayerModel.Intent, change: Change) {
        if case .playBook(let bookID) = command {
            // Read once here; the player is handed the book.
            guard let book = player.playableBook(bookID), !book.audioFiles.isEmpty else { throw .unknownBook(bookID) }
            return (.playBook(book), .playing)
        }
        guard let book = player.nowPlaying, player.status != .idle, player.status != .stopped else {
            // A stopped book can still be resumed.
            if command == .play || command == .toggle, let book = player.nowPlaying {
                return (.play(bookID: book.bookID), command == .play ? .playing : .toggled)
            }
            throw .nothingLoaded
        }
        switch command {
        case .play: return (.resume, .playing)
        case .pause: return (.pause, .paused)
        case .toggle: return (.togglePlayPause, .toggled)
        case .stop: return (.stop, .stopped)
        case .seek(let position):
            guard position <= book.duration else {
                throw .invalidValue(tr("The position is past the end of the book."))
            }
            return (.seek(position), .moved)
        case .skip(let seconds): return (.skip(seconds: seconds), .moved)
        case .chapter(let index):
            guard book.chapters.indices.contains(index) else {
                throw .invalidValue(tr("The book has no chapter at index %@ (it has %@).", String(index), String(book.chapters.count)))
            }
            return (.chapter(index), .moved)
        case .rate(let value): return (.rate(value), .speed)
        case .sleep(.minutes(let minutes)): return (.sleep(.minutes(minutes)), .sleepSet)
        case .sleep(.endOfChapter): return (.sleep(.endOfChapter), .sleepSet)
        case .sleep(.off): return (.sleep(nil), .sleepOff)
        case .playBook(let bookID): return (.play(bookID: bookID), .playing)
        }
    }

    /// The state a remote sees of `player` (nothing signed in: idle).
    static func state(of player: PlayerModel?) -> RemotePlayerState {
        guard let player else { return RemotePlayerState() }
        var state = RemotePlayerState(rate: player.rate, volume: player.volume)
        state.continueListening = player.continueListening.map {
            RemotePlayerState.Book(bookID: $0.bookID, title: $0.title, authors: Self.names($0.author ?? ""),
                                   positionMs: $0.position, durationMs: $0.duration)
        }
        state.status = switch player.status {
        case .idle: .idle
        case .loading: .loading
        case .playing: .playing
        case .paused: .paused
        case .buffering: .buffering
        case .ended: .ended
        case .stopped: .stopped
        case .error: .error
        }
        guard let book = player.nowPlaying, player.status != .idle else { return state }
        state.bookID = book.bookID
        state.title = book.title
        state.authors = Self.names(book.authors)
        state.hasCover = book.hasCover
        state.positionMs = player.position
        state.durationMs = book.duration
        state.chapterIndex = player.chapterIndex
        state.chapterTitle = player.chapter?.title
        state.chapterPositionMs = player.chapterElapsed
        state.chapterDurationMs = player.chapterDuration
        state.sleepRemainingMs = player.sleepRemaining
        state.sleepEndOfChapter = player.sleepTimer == .endOfChapter
        return state
    }

    /// "Ann Leckie, Ursula K. Le Guin" → two names.
    private static func names(_ joined: String) -> [String] {
        joined.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

extension PlayerModel {
    /// A command a paired device sent, for the window to say so ("Paused
    /// from My Phone"). `id` tells two equal notices apart.
    public struct RemoteNotice: Equatable, Sendable {
        public var id: UUID
        public var deviceName: String
        /// What happened, in a sentence naming the device.
        public var message: String
    }

    /// `bookID` as the library's cache holds it, or nil (not there, or unreadable).
    func playableBook(_ bookID: String) -> PlayableBook? {
        try? PlayableBook.read(bookID, from: library)
    }

    /// Says what a paired device changed (``remoteNotice``).
    func announceRemote(_ change: PlayerRemote.Change, from device: String) {
        let message = switch change {
        case .playing: tr("Playing from %@", device)
        case .paused: tr("Paused from %@", device)
        case .toggled: wantsToPlay ? tr("Playing from %@", device) : tr("Paused from %@", device)
        case .stopped: tr("Stopped from %@", device)
        case .moved: tr("Moved from %@", device)
        case .speed: tr("Speed changed from %@", device)
        case .sleepOff: tr("Sleep timer turned off from %@", device)
        case .sleepSet: tr("Sleep timer set from %@", device)
        }
        remoteNotice = RemoteNotice(id: UUID(), deviceName: device, message: message)
    }
}
