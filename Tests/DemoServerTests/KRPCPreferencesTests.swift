import DemoServer
import Foundation
import ListenUpAPI
import ListenUpKRPC
import ListenUpLive
import ListenUpTestSupport
import ServerSentEvents
import Testing
@testable import ListenUpCore

/// The account's playback preferences over kRPC (addendum §1.7): the demo
/// server's `UserPreferencesService` (defaults, PATCH merge, clamps, the
/// `PreferencesChanged` nudge to the user's streams) through
/// ``KRPCServerConnection`` and its live events.
@Suite("kRPC account preferences")
struct KRPCPreferencesTests {
    let logs = LogCapture()

    func start() async throws -> (DemoServer, KRPCServerConnection) {
        var configuration = DemoServer.Configuration()
        configuration.bookCount = 1
        configuration.protocol = .krpc
        configuration.admin = .init(email: "ada@example.com", password: "analytical-engine")
        let server = DemoServer(configuration: configuration, logger: logs.logger)
        try await server.start()
        let url = try #require(server.baseURL)
        let client = KRPCServerConnection(baseURL: url, session: nil, transport: .live, sessions: .inMemory(),
                                          deviceInfo: KRPCServerConnectionTests.device, logger: logs.logger)
        _ = try await client.login(email: "ada@example.com", password: "analytical-engine")
        return (server, client)
    }

    /// Counts the preferences-changed events of `events` as they come.
    static func countChanges(_ events: AsyncThrowingStream<LibraryEvent, any Error>) -> (LockedValue<Int>, Task<Void, Never>) {
        let count = LockedValue(0)
        let task = Task {
            do {
                for try await event in events where event == .preferencesChanged { count.withLock { $0 += 1 } }
            } catch {}
        }
        return (count, task)
    }

    /// Waits up to `wait` for `count` to reach `target`; whether it did.
    static func reaches(_ count: LockedValue<Int>, _ target: Int, within wait: Duration = .seconds(10)) async throws -> Bool {
        let deadline = ContinuousClock.now + wait
        while count.value < target, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        return count.value >= target
    }

    @Test func theServersDefaultsThenAMergedClampedWriteThatNudgesTheUsersStreams() async throws {
        let (server, client) = try await start()
        defer { Task { await server.stop() } }
        #expect(client.keepsAccountPreferences)
        #expect(try await client.accountPreferences() == AccountPreferences(), "1.0, 30, 10, none, 0 dB")
        #expect(server.storedPreferences() == .serverDefaults)

        let (changes, reading) = Self.countChanges(try await client.liveEvents())
        defer { reading.cancel() }
        for _ in 0..<500 where server.eventStreamCount == 0 { try await Task.sleep(for: .milliseconds(20)) }
        let answer = try await client.updateAccountPreferences(AccountPreferencesChange(skipForwardSeconds: 45, volumeBoostDb: 20))
        #expect(answer == AccountPreferences(skipForwardSeconds: 45, volumeBoostDb: 12), "only the fields sent change; boost clamped to 12")
        #expect(server.storedPreferences()?.defaultSkipForwardSec == 45)
        #expect(try await Self.reaches(changes, 1), "the write nudges the user's own streams")

        // Another device of the same user: merged onto what is kept, clamped, and announced.
        server.updatePreferencesFromAnotherDevice(UpdateUserPreferencesRequest(defaultPlaybackSpeed: 9, defaultSleepTimerMin: 999))
        #expect(try await Self.reaches(changes, 2))
        #expect(try await client.accountPreferences() == AccountPreferences(defaultPlaybackSpeed: 4, skipForwardSeconds: 45,
                                                                            sleepTimerMinutes: 480, volumeBoostDb: 12))
    }

    @Test func anotherUsersChangeIsNotAnnounced() async throws {
        let (server, client) = try await start()
        defer { Task { await server.stop() } }
        let (changes, reading) = Self.countChanges(try await client.liveEvents())
        defer { reading.cancel() }
        for _ in 0..<500 where server.eventStreamCount == 0 { try await Task.sleep(for: .milliseconds(20)) }
        #expect(server.updatePreferencesFromAnotherDevice(email: "nobody@example.com", UpdateUserPreferencesRequest(defaultSkipBackwardSec: 20)) == nil)
        // A control frame for some other user id reaches no stream of Ada's.
        server.publishPreferencesChanged(toUserID: "user-someone-else")
        #expect(try await !Self.reaches(changes, 1, within: .seconds(1)))
        server.updatePreferencesFromAnotherDevice(UpdateUserPreferencesRequest(defaultSkipBackwardSec: 20))
        #expect(try await Self.reaches(changes, 1), "the user's own change does arrive")
    }
}
