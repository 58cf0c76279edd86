import Foundation
import NIOConcurrencyHelpers
@testable import Pairing

/// A ``RemotePlayer`` the test scripts: its state is set by hand (and sent to
/// every follower), commands are recorded with their device, and the next
/// refusal can be chosen. A double inside this unit test only.
final class ScriptedRemotePlayer: RemotePlayer {
    private struct Script {
        var state: RemotePlayerState
        var cover: RemoteCover?
        var commands: [(RemoteCommand, RemoteDevice)] = []
        var refusal: RemoteCommandError?
        var followers: [UUID: AsyncStream<RemotePlayerState>.Continuation] = [:]
        var stateCalls = 0
        /// What the server said of followers, in order.
        var followedCalls: [Bool] = []
    }

    private let script: NIOLockedValueBox<Script>

    init(_ state: RemotePlayerState = .playingSample, cover: RemoteCover? = nil) {
        script = NIOLockedValueBox(Script(state: state, cover: cover))
    }

    func state() async -> RemotePlayerState {
        script.withLockedValue {
            $0.stateCalls += 1
            return $0.state
        }
    }

    func stateChanges() -> AsyncStream<RemotePlayerState> {
        let (stream, continuation) = AsyncStream.makeStream(of: RemotePlayerState.self, bufferingPolicy: .unbounded)
        let id = UUID()
        continuation.onTermination = { [weak self] _ in _ = self?.script.withLockedValue { $0.followers.removeValue(forKey: id) } }
        script.withLockedValue {
            $0.followers[id] = continuation
            continuation.yield($0.state)
        }
        return stream
    }

    func cover() async -> RemoteCover? { script.withLockedValue { $0.cover } }

    func setFollowed(_ followed: Bool) { script.withLockedValue { $0.followedCalls.append(followed) } }

    /// What the server said of followers, in order.
    var followedCalls: [Bool] { script.withLockedValue { $0.followedCalls } }

    func perform(_ command: RemoteCommand, from device: RemoteDevice) async throws(RemoteCommandError) {
        let refusal = script.withLockedValue { script -> RemoteCommandError? in
            script.commands.append((command, device))
            defer { script.refusal = nil }
            return script.refusal
        }
        if let refusal { throw refusal }
        // What a player does with the common ones, so followers see them.
        change { state in
            switch command {
            case .pause: state.status = .paused
            case .play: state.status = .playing
            case .playBook(let id):
                state.bookID = id
                state.title = state.continueListening.first { $0.bookID == id }?.title
                state.status = .playing
            case .toggle: state.status = state.status == .playing ? .paused : .playing
            case .seek(let position): state.positionMs = position
            case .chapter(let index):
                state.chapterIndex = index
                state.chapterTitle = "Chapter \(index + 1)"
                state.chapterPositionMs = 0
            case .rate(let rate): state.rate = rate
            case .sleep(.minutes(let minutes)): state.sleepRemainingMs = Int64(minutes) * 60_000
            case .sleep(.endOfChapter): state.sleepEndOfChapter = true
            case .sleep(.off):
                state.sleepRemainingMs = nil
                state.sleepEndOfChapter = false
            case .skip(let seconds): state.positionMs += Int64(seconds) * 1000
            case .stop: state = RemotePlayerState(status: .stopped)
            }
        }
    }

    /// Changes the state and tells every follower.
    func change(_ body: (inout RemotePlayerState) -> Void) {
        let (state, followers) = script.withLockedValue { script in
            body(&script.state)
            return (script.state, Array(script.followers.values))
        }
        for follower in followers { follower.yield(state) }
    }

    /// The next command is refused with `error`.
    func refuseNext(_ error: RemoteCommandError) { script.withLockedValue { $0.refusal = error } }

    var commands: [(command: RemoteCommand, device: RemoteDevice)] { script.withLockedValue { $0.commands.map { ($0.0, $0.1) } } }
    var stateCalls: Int { script.withLockedValue { $0.stateCalls } }
}

extension RemotePlayerState {
    /// A book playing in its third chapter, with a continue-listening shelf.
    static let playingSample = RemotePlayerState(
        bookID: "book-1", title: "The Hobbit", authors: ["J. R. R. Tolkien"], chapterIndex: 2, chapterTitle: "Chapter 3",
        positionMs: 1_234_000, durationMs: 36_000_000, chapterPositionMs: 34_000, chapterDurationMs: 1_800_000, rate: 1.25,
        volume: 0.8, status: .playing, sleepRemainingMs: nil, sleepEndOfChapter: false, hasCover: true,
        continueListening: [.init(bookID: "book-1", title: "The Hobbit", authors: ["J. R. R. Tolkien"], positionMs: 1_234_000, durationMs: 36_000_000),
                            .init(bookID: "book-2", title: "Dune", authors: ["Frank Herbert"], positionMs: 0, durationMs: 75_600_000)])
}

extension ServerFixture {
    /// Pairs a device straight through the store (no QR flow); returns it and its token.
    func pairDevice(_ name: String = "My Phone") throws -> (device: PairedDevice, token: String) {
        let added = try server.deviceStore.add(name: name, model: "Test", lifetime: server.configuration.tokenLifetime)
        server.publishDevices()
        return added
    }

    /// A companion (its own directory) holding `token` for this server.
    func companion(for device: PairedDevice, token: String) throws -> CompanionClient {
        let storage = temp.storage("companion-\(device.id)")
        let pairing = CompanionClient.Pairing(desktopName: "Test Desk", addresses: ["127.0.0.1"], port: server.port ?? 0,
                                              fingerprint: server.identity.fingerprintBase64URL, deviceID: device.id, token: token,
                                              expiresAt: RFC3339.string(device.expiresAt))
        try storage.write(try JSONEncoder().encode(pairing), to: "pairing.json")
        return CompanionClient(storage: storage)
    }

    /// curl with the pin and `token`, against `path`; extra arguments before the URL.
    func remote(_ path: String, token: String?, _ arguments: [String] = []) async throws -> (exit: Int32, status: Int, body: String) {
        let auth = token.map { ["-H", "Authorization: Bearer \($0)"] } ?? []
        return try await curl(["-k", "--pinnedpubkey", pin] + auth + arguments + [base + path])
    }

    /// POST `body` (JSON, or nothing) to `/api/v1/player/<action>`.
    func command(_ action: String, _ body: String? = nil, token: String?) async throws -> (exit: Int32, status: Int, body: String) {
        let data = body.map { ["-H", "Content-Type: application/json", "--data-raw", $0] } ?? ["-X", "POST"]
        return try await remote("/api/v1/player/" + action, token: token, data)
    }
}
