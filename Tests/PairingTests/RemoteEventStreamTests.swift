import Foundation
import NIOConcurrencyHelpers
import ServerSentEvents
import Testing
@testable import Pairing

/// What one follower has read: every event with the time it arrived.
final class FollowerLog: Sendable {
    private let items = NIOLockedValueBox<[(at: ContinuousClock.Instant, event: ServerSentEventItem)]>([])
    private let ending = NIOLockedValueBox<(any Error)??>(nil)
    private let task = NIOLockedValueBox<Task<Void, Never>?>(nil)

    /// Opens the stream with `companion` and starts reading it.
    static func follow(_ companion: CompanionClient) async throws -> FollowerLog {
        let log = FollowerLog()
        let events = try await companion.playerEvents()
        log.task.withLockedValue {
            $0 = Task {
                do {
                    for try await event in events { log.items.withLockedValue { $0.append((.now, event)) } }
                    log.ending.withLockedValue { $0 = .some(nil) }
                } catch {
                    log.ending.withLockedValue { $0 = .some(error) }
                }
            }
        }
        return log
    }

    var events: [(at: ContinuousClock.Instant, event: ServerSentEventItem)] { items.withLockedValue { $0 } }
    var states: [RemotePlayerState] {
        events.compactMap {
            guard case .event(let event) = $0.event, event.type == "state" else { return nil }
            return try? JSONDecoder().decode(RemotePlayerState.self, from: Data(event.data.utf8))
        }
    }
    var heartbeats: Int { events.count { $0.event == .comment("heartbeat") } }
    /// nil while open; then the error it ended with (nil inside: closed cleanly).
    var ended: (any Error)?? { ending.withLockedValue { $0 } }

    /// Waits up to `seconds` for `condition`.
    func wait(_ seconds: Double = 5, until condition: (FollowerLog) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if condition(self) { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition(self)
    }

    func stop() { task.withLockedValue { $0 }?.cancel() }
}

@Suite("Discovery server: the player's event stream", .serialized)
struct RemoteEventStreamTests {
    @Test func theStateComesAtOnceThenEachChange() async throws {
        let player = ScriptedRemotePlayer()
        let fixture = try await DiscoveryServerRemoteTests.fixture(player)
        defer { Task { await fixture.server.stop() } }
        let (device, token) = try fixture.pairDevice()
        let follower = try await FollowerLog.follow(try fixture.companion(for: device, token: token))
        defer { follower.stop() }
        #expect(await follower.wait(14) { !$0.states.isEmpty })
        #expect(follower.states.first == .playingSample)
        // At once: the stream's first event is the state, before any change
        // and before the first heartbeat (15 s). (Not a time bound: on a
        // busy CI machine the TLS handshake alone has taken seconds.)
        #expect(follower.events.first.map { if case .event(let event) = $0.event { event.type == "state" } else { false } } == true)
        // A pause, a seek and a chapter change, each sent as a command, each followed.
        let companion = try fixture.companion(for: device, token: token)
        try await companion.send(.pause)
        #expect(await follower.wait { $0.states.last?.status == .paused })
        try await companion.send(.seek(positionMs: 600_000))
        #expect(await follower.wait { $0.states.last?.positionMs == 600_000 })
        try await companion.send(.chapter(index: 5))
        #expect(await follower.wait { $0.states.last?.chapterIndex == 5 && $0.states.last?.chapterTitle == "Chapter 6" })
        #expect(follower.states.last?.status == .paused && follower.states.last?.positionMs == 600_000)
        // The companion's typed view of the same stream.
        let states = try await companion.followPlayer()
        var iterator = states.makeAsyncIterator()
        #expect(try await iterator.next()?.chapterIndex == 5)
        await fixture.server.stop()
    }

    @Test func thePlayerIsToldWhenItIsFollowed() async throws {
        let player = ScriptedRemotePlayer()
        let fixture = try await DiscoveryServerRemoteTests.fixture(player)
        defer { Task { await fixture.server.stop() } }
        let (device, token) = try fixture.pairDevice()
        #expect(player.followedCalls.isEmpty, "nobody follows yet")
        let first = try await FollowerLog.follow(try fixture.companion(for: device, token: token))
        #expect(await first.wait { !$0.states.isEmpty })
        let second = try await FollowerLog.follow(try fixture.companion(for: device, token: token))
        #expect(await second.wait { !$0.states.isEmpty })
        #expect(player.followedCalls == [true], "once, for the first stream")
        first.stop()
        try await Task.sleep(for: .milliseconds(200))
        #expect(player.followedCalls == [true], "one stream is still open")
        second.stop()
        var waited = 0
        while player.followedCalls.count < 2, waited < 50 {
            try await Task.sleep(for: .milliseconds(100))
            waited += 1
        }
        #expect(player.followedCalls == [true, false], "the last stream closed")
        await fixture.server.stop()
    }

    @Test func aBurstOfChangesIsCoalescedLatestWins() async throws {
        let player = ScriptedRemotePlayer()
        let fixture = try await DiscoveryServerRemoteTests.fixture(player)
        defer { Task { await fixture.server.stop() } }
        let (device, token) = try fixture.pairDevice()
        let follower = try await FollowerLog.follow(try fixture.companion(for: device, token: token))
        defer { follower.stop() }
        #expect(await follower.wait { !$0.states.isEmpty })
        let start = ContinuousClock.now
        for step in 1...300 {
            player.change { $0.positionMs = Int64(step) * 100 }
            try await Task.sleep(for: .milliseconds(5))
        }
        let elapsed = ContinuousClock.now - start
        #expect(await follower.wait { $0.states.last?.positionMs == 30_000 }, "the latest state arrives")
        let changes = follower.states.count - 1
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18 + 0.25
        #expect(changes <= Int(seconds * 4) + 2, "\(changes) events in \(seconds) s")
        #expect(changes >= 2)
        // (Not the gaps between arrivals: a reader that falls behind gets
        // two events in one read, however far apart they were sent.)
        await fixture.server.stop()
    }

    @Test func heartbeatsKeepTheStreamOpenPastTheIdleTimeout() async throws {
        let player = ScriptedRemotePlayer()
        // Idle timeout 1 s and request timeout 2 s, heartbeats every 0.3 s.
        let fixture = try await DiscoveryServerRemoteTests.fixture(player) {
            $0.remoteHeartbeatInterval = 0.3
            $0.idleTimeout = 1
            $0.requestTimeout = 2
        }
        defer { Task { await fixture.server.stop() } }
        let (device, token) = try fixture.pairDevice()
        let follower = try await FollowerLog.follow(try fixture.companion(for: device, token: token))
        defer { follower.stop() }
        try await Task.sleep(for: .seconds(3))
        // Five heartbeats (1.5 s of them, past the 1 s idle timeout); on a
        // loaded machine they may come late, so they are waited for.
        let deadline = ContinuousClock.now + .seconds(15)
        while follower.heartbeats < 5, follower.ended == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(follower.ended == nil, "closed: \(String(describing: follower.ended))")
        #expect(follower.heartbeats >= 5, "\(follower.heartbeats) heartbeats")
        player.change { $0.status = .paused }
        #expect(await follower.wait { $0.states.last?.status == .paused })
        await fixture.server.stop()
    }

    @Test func revokingClosesTheStreamsWithinASecond() async throws {
        let player = ScriptedRemotePlayer()
        let fixture = try await DiscoveryServerRemoteTests.fixture(player)
        defer { Task { await fixture.server.stop() } }
        let (device, token) = try fixture.pairDevice()
        let (other, otherToken) = try fixture.pairDevice("Tablet")
        let followers = [try await FollowerLog.follow(try fixture.companion(for: device, token: token)),
                         try await FollowerLog.follow(try fixture.companion(for: device, token: token))]
        let bystander = try await FollowerLog.follow(try fixture.companion(for: other, token: otherToken))
        defer { (followers + [bystander]).forEach { $0.stop() } }
        for follower in followers + [bystander] { #expect(await follower.wait { !$0.states.isEmpty }) }
        try fixture.server.revoke(deviceID: device.id)
        // The server lets go of the device's streams as it revokes (well
        // within the second the protocol promises)...
        #expect(fixture.server.remoteEvents.streamCount == 1)
        // ...and each client sees its stream end, told why (the wait allows
        // for a busy machine's scheduling, not for the server).
        for follower in followers {
            #expect(await follower.wait(5) { $0.ended != nil })
            #expect(follower.events.last?.event == .event(ServerSentEvent(type: "end", data: "{\"reason\":\"revoked\"}")))
        }
        // The other device follows on.
        #expect(bystander.ended == nil)
        player.change { $0.rate = 2 }
        #expect(await bystander.wait { $0.states.last?.rate == 2 })
        // Unpairing through the API ends the device's own streams too.
        let companion = try fixture.companion(for: other, token: otherToken)
        try await companion.unpair()
        #expect(await bystander.wait(5) { $0.ended != nil })
        await fixture.server.stop()
    }

    @Test func aDeviceMayHoldOnlySoManyStreams() async throws {
        let fixture = try await DiscoveryServerRemoteTests.fixture { $0.remoteMaxStreamsPerDevice = 2 }
        defer { Task { await fixture.server.stop() } }
        let (device, token) = try fixture.pairDevice()
        let companion = try fixture.companion(for: device, token: token)
        let open = [try await FollowerLog.follow(companion), try await FollowerLog.follow(companion)]
        for follower in open { #expect(await follower.wait { !$0.states.isEmpty }) }
        let third = try await fixture.remote("/api/v1/player/events", token: token, ["-D", "-"])
        #expect(third.status == 429 && third.body.contains("too_many_streams") && third.body.lowercased().contains("retry-after: "), "\(third)")
        // A closed stream frees its place.
        open[0].stop()
        var reopened: FollowerLog?
        for _ in 0..<100 where reopened == nil {
            reopened = try? await FollowerLog.follow(companion)
            if reopened == nil { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(reopened != nil)
        reopened?.stop()
        open[1].stop()
        await fixture.server.stop()
    }

    @Test func aHundredFollowersAllSeeAChange() async throws {
        let player = ScriptedRemotePlayer()
        // The protocol's connection timeouts: a hundred TLS handshakes at once on a
        // busy two-core machine can take longer than the fixture's 1 s.
        let fixture = try await DiscoveryServerRemoteTests.fixture(player) {
            $0.idleTimeout = 5
            $0.requestTimeout = 10
        }
        defer { Task { await fixture.server.stop() } }
        // 13 devices × 8 streams (the default cap) ≥ 100.
        var companions: [CompanionClient] = []
        for index in 0..<13 {
            let (device, token) = try fixture.pairDevice("Phone \(index)")
            companions.append(try fixture.companion(for: device, token: token))
        }
        let followers = try await withThrowingTaskGroup(of: FollowerLog.self) { group in
            for index in 0..<100 {
                let companion = companions[index % companions.count]
                group.addTask { try await FollowerLog.follow(companion) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        defer { followers.forEach { $0.stop() } }
        #expect(followers.count == 100)
        for follower in followers { #expect(await follower.wait(10) { !$0.states.isEmpty }) }
        player.change { $0.status = .paused }
        for follower in followers { #expect(await follower.wait(10) { $0.states.last?.status == .paused }) }
        #expect(fixture.server.remoteEvents.streamCount == 100)
        await fixture.server.stop()
    }

    @Test func anOpenStreamRecordsUseAndEndsWhenTheTokenExpires() async throws {
        let fixture = try await DiscoveryServerRemoteTests.fixture { $0.remoteHeartbeatInterval = 0.2 }
        defer { Task { await fixture.server.stop() } }
        let (device, token) = try fixture.pairDevice()
        let follower = try await FollowerLog.follow(try fixture.companion(for: device, token: token))
        defer { follower.stop() }
        #expect(await follower.wait { !$0.states.isEmpty })
        fixture.clock.advance(300)
        #expect(await follower.wait { _ in
            fixture.server.devices.first?.lastSeen ?? .distantPast >= fixture.clock.now.addingTimeInterval(-1)
        }, "a heartbeat records the use")
        fixture.clock.advance(31 * 24 * 3600)
        #expect(await follower.wait(2) { $0.ended != nil })
        #expect(follower.events.last?.event == .event(ServerSentEvent(type: "end", data: "{\"reason\":\"unauthorized\"}")))
        await fixture.server.stop()
    }
}
