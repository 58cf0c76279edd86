import Foundation
import NIOCore
import NIOPosix
import Testing
@testable import Pairing

/// The remote-control endpoints through curl, pinned, against a real server on 127.0.0.1.
@Suite("Discovery server: remote control", .serialized)
struct DiscoveryServerRemoteTests {
    /// A fixture with a scripted player; limits high enough not to get in the way.
    static func fixture(_ player: ScriptedRemotePlayer = ScriptedRemotePlayer(),
                        _ configure: (inout DiscoveryServer.Configuration) -> Void = { _ in }) async throws -> ServerFixture {
        let fixture = try ServerFixture(player: player) {
            $0.remoteRateLimit = 1000
            // The protocol's timeouts: a busy machine's TLS handshake and
            // request can take longer than the base fixture's 1 s.
            $0.idleTimeout = 5
            $0.requestTimeout = 10
            configure(&$0)
        }
        try await fixture.server.start()
        return fixture
    }

    @Test func theStateAndTheCover() async throws {
        let cover = RemoteCover(data: Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]), contentType: "image/png")
        let player = ScriptedRemotePlayer(cover: cover)
        let fixture = try await Self.fixture(player)
        defer { Task { await fixture.server.stop() } }
        let (_, token) = try fixture.pairDevice()
        let state = try await fixture.remote("/api/v1/player", token: token)
        #expect(state.status == 200, "\(state)")
        #expect(try JSONDecoder().decode(RemotePlayerState.self, from: Data(state.body.utf8)) == .playingSample)
        #expect(state.body.contains("\"sleepRemainingMs\":null"))
        let image = fixture.temp.url.appendingPathComponent("cover.bin")
        let fetched = try await fixture.remote("/api/v1/player/cover", token: token, ["-o", image.path, "-D", "-"])
        #expect(fetched.status == 200)
        #expect(fetched.body.lowercased().contains("content-type: image/png"))
        #expect(try Data(contentsOf: image) == cover.data)
        // No cover: 404 in the usual error format.
        let bare = try await Self.fixture(ScriptedRemotePlayer(RemotePlayerState()))
        defer { Task { await bare.server.stop() } }
        let (_, other) = try bare.pairDevice()
        let none = try await bare.remote("/api/v1/player/cover", token: other)
        #expect(none.status == 404 && errorCode(none.body) == "no_cover", "\(none)")
        await bare.server.stop()
        await fixture.server.stop()
    }

    @Test func everyCommandReachesThePlayerWithItsDevice() async throws {
        let player = ScriptedRemotePlayer()
        let fixture = try await Self.fixture(player)
        defer { Task { await fixture.server.stop() } }
        let (device, token) = try fixture.pairDevice("Anna’s Phone")
        let sent: [(String, String?, RemoteCommand)] = [
            ("pause", nil, .pause), ("play", nil, .play), ("toggle", "{}", .toggle), ("stop", nil, .stop),
            ("seek", "{\"positionMs\":90000}", .seek(positionMs: 90_000)), ("skip", "{\"seconds\":-15}", .skip(seconds: -15)),
            ("chapter", "{\"index\":4}", .chapter(index: 4)), ("rate", "{\"value\":1.5}", .rate(1.5)),
            ("sleep", "{\"minutes\":20}", .sleep(.minutes(20))), ("sleep", "{\"endOfChapter\":true}", .sleep(.endOfChapter)),
            ("sleep", "{\"off\":true}", .sleep(.off)), ("play", "{\"bookId\":\"book-2\"}", .playBook(bookID: "book-2")),
        ]
        for (action, body, _) in sent {
            let answer = try await fixture.command(action, body, token: token)
            #expect(answer.status == 204 && answer.body.isEmpty, "\(action) \(body ?? ""): \(answer)")
        }
        #expect(player.commands.map(\.command) == sent.map(\.2))
        #expect(player.commands.allSatisfy { $0.device == RemoteDevice(id: device.id, name: "Anna’s Phone") })
        await fixture.server.stop()
    }

    @Test func badBodiesAre400WithASpecificMessage() async throws {
        let player = ScriptedRemotePlayer()
        let fixture = try await Self.fixture(player)
        defer { Task { await fixture.server.stop() } }
        let (_, token) = try fixture.pairDevice()
        let cases: [(String, String, String)] = [
            ("seek", "{\"positionMs\":\"90\"}", "\"positionMs\" must be a whole number"),
            ("seek", "{\"positionMs\":-5}", "\"positionMs\""),
            ("skip", "{\"seconds\":1.5}", "\"seconds\""),
            ("chapter", "{\"chapter\":1}", "Unknown field \"chapter\""),
            ("rate", "{\"value\":4}", "from 0.5 to 3.0"),
            ("sleep", "{\"off\":false}", "\"off\" must be true"),
            ("sleep", "{\"minutes\":5,\"off\":true}", "exactly one of"),
            ("pause", "{\"x\":1}", "pause takes no body"),
            ("play", "{\"bookId\":7}", "\"bookId\""),
            ("seek", "not json", "JSON object"),
        ]
        for (action, body, expected) in cases {
            let answer = try await fixture.command(action, body, token: token)
            let message = (jsonObject(answer.body)["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(answer.status == 400 && errorCode(answer.body) == "bad_request" && message.contains(expected), "\(action) \(body): \(answer)")
        }
        #expect(player.commands.isEmpty)
        // The player's own refusals, in the same format.
        let refusals: [(RemoteCommandError, Int, String)] = [
            (.nothingLoaded, 409, "nothing_loaded"), (.unknownBook("nope"), 404, "unknown_book"),
            (.invalidValue("There is no chapter 40."), 400, "invalid_value"), (.unavailable("Nobody is signed in."), 503, "player_unavailable"),
        ]
        for (refusal, status, code) in refusals {
            player.refuseNext(refusal)
            let answer = try await fixture.command("chapter", "{\"index\":39}", token: token)
            #expect(answer.status == status && errorCode(answer.body) == code, "\(refusal): \(answer)")
        }
        #expect(try await fixture.command("chapter", "{\"index\":39}", token: token).status == 204)
        await fixture.server.stop()
    }

    @Test func oversizedBodiesAre413() async throws {
        let fixture = try await Self.fixture()
        defer { Task { await fixture.server.stop() } }
        let (_, token) = try fixture.pairDevice()
        let file = fixture.temp.url.appendingPathComponent("big.json")
        try Data(("{\"positionMs\":1" + String(repeating: "0", count: 1100) + "}").utf8).write(to: file)
        let big = try await fixture.remote("/api/v1/player/seek", token: token,
                                           ["-H", "Expect:", "-H", "Content-Type: application/json", "--data-binary", "@" + file.path])
        #expect(big.status == 413 && errorCode(big.body) == "body_too_large", "\(big)")
        await fixture.server.stop()
    }

    @Test func tokensAreCheckedLikeEverywhereElse() async throws {
        let player = ScriptedRemotePlayer()
        let fixture = try await Self.fixture(player)
        defer { Task { await fixture.server.stop() } }
        let (device, token) = try fixture.pairDevice()
        let wrong = Base64URL.encode([UInt8](repeating: 3, count: 32))
        for path in ["/api/v1/player", "/api/v1/player/cover", "/api/v1/player/events"] {
            for presented in [nil, wrong] {
                let answer = try await fixture.remote(path, token: presented, ["-D", "-"])
                #expect(answer.status == 401 && answer.body.lowercased().contains("www-authenticate: bearer"), "\(path): \(answer)")
            }
        }
        let unauthorized = try await fixture.command("pause", token: wrong)
        #expect(unauthorized.status == 401 && errorCode(unauthorized.body) == "unauthorized")
        #expect(try await fixture.command("pause", token: nil).status == 401)
        // Known routes, other methods; unknown routes.
        #expect(try await fixture.remote("/api/v1/player/pause", token: token).status == 405)
        #expect(try await fixture.command("", token: token).status == 405) // POST /api/v1/player/
        #expect(try await fixture.remote("/api/v1/player/rewind", token: token).status == 404)
        // Revoked: 401 at once.
        try fixture.server.revoke(deviceID: device.id)
        #expect(try await fixture.command("pause", token: token).status == 401)
        // Expired: 401.
        let (_, second) = try fixture.pairDevice("Tablet")
        #expect(try await fixture.remote("/api/v1/player", token: second).status == 200)
        fixture.clock.advance(31 * 24 * 3600)
        #expect(try await fixture.remote("/api/v1/player", token: second).status == 401)
        #expect(try await fixture.command("play", token: second).status == 401)
        #expect(player.commands.isEmpty)
        await fixture.server.stop()
    }

    @Test func withoutAPlayerEveryEndpointIs503() async throws {
        let fixture = try ServerFixture()
        try await fixture.server.start()
        defer { Task { await fixture.server.stop() } }
        let (_, token) = try fixture.pairDevice()
        for path in ["/api/v1/player", "/api/v1/player/cover", "/api/v1/player/events"] {
            let answer = try await fixture.remote(path, token: token)
            #expect(answer.status == 503 && errorCode(answer.body) == "player_unavailable", "\(path): \(answer)")
        }
        let command = try await fixture.command("seek", "{\"positionMs\":1}", token: token)
        #expect(command.status == 503 && errorCode(command.body) == "player_unavailable")
        // Status still works: remote control is an addition.
        #expect(try await fixture.remote("/api/v1/status", token: token).status == 200)
        await fixture.server.stop()
    }

    @Test func aFloodOfCommandsIs429WithRetryAfter() async throws {
        let player = ScriptedRemotePlayer()
        let fixture = try await Self.fixture(player) {
            $0.remoteRateLimit = 3
            $0.remoteRateWindow = 60
        }
        defer { Task { await fixture.server.stop() } }
        let (_, token) = try fixture.pairDevice()
        let (_, other) = try fixture.pairDevice("Tablet")
        for _ in 0..<3 { #expect(try await fixture.command("toggle", token: token).status == 204) }
        let flooded = try await fixture.command("toggle", nil, token: token)
        #expect(flooded.status == 429 && errorCode(flooded.body) == "rate_limited", "\(flooded)")
        let headers = try await fixture.remote("/api/v1/player", token: token, ["-D", "-"])
        let retry = headers.body.lowercased().split(separator: "\r\n").first { $0.hasPrefix("retry-after: ") }
        let seconds = retry.flatMap { Int($0.dropFirst("retry-after: ".count)) } ?? 0
        #expect(headers.status == 429 && (1...60).contains(seconds), "\(headers)")
        #expect(player.commands.count == 3)
        // Per device: another device is not limited by the first one's flood.
        #expect(try await fixture.command("toggle", token: other).status == 204)
        await fixture.server.stop()
    }

    @Test func theDeviceListShowsLastUse() async throws {
        let fixture = try await Self.fixture()
        defer { Task { await fixture.server.stop() } }
        let (device, token) = try fixture.pairDevice()
        let pairedAt = device.lastSeen
        fixture.clock.advance(120)
        #expect(try await fixture.command("pause", token: token).status == 204)
        let seen = try #require(fixture.server.devices.first { $0.id == device.id }?.lastSeen)
        #expect(seen.timeIntervalSince(pairedAt) >= 119)
        // Persisted, and reported to the app's device list.
        let reloaded = try PairedDeviceStore(storage: fixture.temp.storage())
        #expect(abs((reloaded.list().first?.lastSeen ?? .distantPast).timeIntervalSince(seen)) < 1)
        #expect(await fixture.saw { events in
            events.contains { if case .devicesChanged(let list) = $0 { list.first?.lastSeen == seen } else { false } }
        })
        // Within the minute, uses do not rewrite the file.
        let file = fixture.temp.storage().url("paired-devices.json")
        let before = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        fixture.clock.advance(10)
        try await Task.sleep(for: .milliseconds(20))
        #expect(try await fixture.command("pause", token: token).status == 204)
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date == before)
        await fixture.server.stop()
    }
}
