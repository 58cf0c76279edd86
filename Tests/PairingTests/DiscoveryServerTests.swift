import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import ListenUpCore
import QRCode
import Testing
@testable import Pairing

/// A discovery server on 127.0.0.1 with a hand-moved clock and a scripted user
/// (a subscriber that records every event and answers each request with `accept`).
final class ServerFixture: Sendable {
    let temp: TempDirectory
    let clock = ManualClock()
    let server: DiscoveryServer
    let requests = NIOLockedValueBox<[PairingRequest]>([])
    let accept = NIOLockedValueBox(true)
    let events = NIOLockedValueBox<[PairingEvent]>([])
    private let user: Task<Void, Never>

    init(player: (any RemotePlayer)? = nil, _ configure: (inout DiscoveryServer.Configuration) -> Void = { _ in }) throws {
        temp = try TempDirectory()
        var configuration = DiscoveryServer.Configuration(desktopName: "Test Desk", appVersion: "9.9.9", bindAddresses: ["127.0.0.1"])
        configuration.advertise = false
        configuration.idleTimeout = 1
        configuration.requestTimeout = 2
        configure(&configuration)
        let server = try DiscoveryServer(storage: temp.storage(), configuration: configuration, clock: clock.clock, remotePlayer: player) {
            .init(activeRoute: "library", serverURL: "http://127.0.0.1:1/", userDisplayName: "Ada Reader")
        }
        let stream = server.events()
        let requests = requests, accept = accept, events = events
        user = Task { [weak server] in
            for await event in stream {
                events.withLockedValue { $0.append(event) }
                if case .request(let request) = event {
                    requests.withLockedValue { $0.append(request) }
                    server?.answer(request.id, accept: accept.withLockedValue { $0 })
                }
            }
        }
        self.server = server
    }

    deinit { user.cancel() }

    /// Waits (up to 5 s) until the events the scripted user has seen satisfy `condition`.
    func saw(_ condition: ([PairingEvent]) -> Bool) async -> Bool {
        for _ in 0..<500 {
            if condition(events.withLockedValue { $0 }) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    /// The device lists reported so far, by name.
    var devicesSeen: [[String]] {
        events.withLockedValue { $0 }.compactMap { if case .devicesChanged(let list) = $0 { list.map(\.name) } else { nil } }
    }

    /// Starts and opens pairing; returns the current URI.
    func open() async throws -> PairingURI {
        try await server.start()
        guard case .open(let uri, _, _) = try server.openPairing() else { throw PairingError.notPaired }
        return uri
    }

    var uri: PairingURI? {
        if case .open(let uri, _, _) = server.state { uri } else { nil }
    }

    var pin: String { "sha256//" + Data(server.fingerprint).base64EncodedString() }
    var base: String { "https://127.0.0.1:\(server.port ?? 0)" }

    /// POST /api/v1/pair with curl, pinned.
    func pair(session: String, code: String, name: String = "Phone") async throws -> (exit: Int32, status: Int, body: String) {
        let body = "{\"session\":\"\(session)\",\"code\":\"\(code)\",\"client_name\":\"\(name)\",\"client_model\":\"Test\"}"
        return try await curl(["-k", "--pinnedpubkey", pin, "-H", "Content-Type: application/json", "-d", body, base + "/api/v1/pair"])
    }
}

func openFileDescriptors() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
}

/// Lines of /proc/net/tcp{,6} whose local port is in `ports` and whose state holds a
/// descriptor (LISTEN 0A, ESTABLISHED 01, CLOSE_WAIT 08).
func liveSockets(onLocalPorts ports: Set<Int>) -> [String] {
    // This process's sockets only: /proc/net/tcp lists the whole machine's,
    // and another test process's server may be given one of these
    // (ephemeral) port numbers after the test let it go.
    let own = Set(descriptorTargets().compactMap { target -> String? in
        guard let range = target.range(of: "socket:[") else { return nil }
        return String(target[range.upperBound...].dropLast())
    })
    return ["/proc/net/tcp", "/proc/net/tcp6"].flatMap { path -> [String] in
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").dropFirst().compactMap { line -> String? in
            let fields = line.split(separator: " ")
            guard fields.count > 9, let port = fields[1].split(separator: ":").last.flatMap({ Int($0, radix: 16) }),
                  ports.contains(port), ["0A", "01", "08"].contains(String(fields[3])), own.contains(String(fields[9])) else { return nil }
            return String(line)
        }
    }
}

func descriptorTargets() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).sorted().map { fd in
        fd + "→" + ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + fd)) ?? "?")
    }
}

@Suite("Discovery server", .serialized)
struct DiscoveryServerTests {
    @Test func startReturnsOnlyWhenReadyWithTheRealPort() async throws {
        let fixture = try ServerFixture()
        let port = try await fixture.server.start()
        defer { Task { await fixture.server.stop() } }
        #expect(port > 0 && port == fixture.server.port)
        #expect(fixture.server.addresses == ["127.0.0.1"])
        // Ready at once: no retry, no sleep.
        let info = try await curl(["-k", "--pinnedpubkey", fixture.pin, fixture.base + "/api/v1/pair/info"])
        #expect(info.status == 200, "\(info)")
        let object = jsonObject(info.body)
        #expect(object["name"] as? String == "Test Desk")
        #expect(object["app_version"] as? String == "9.9.9")
        #expect(object["fingerprint"] as? String == Base64URL.encode(fixture.server.fingerprint))
        #expect(object["pairing_open"] as? Bool == false)
        // A port already taken: start throws.
        var configuration = DiscoveryServer.Configuration(desktopName: "Clash", appVersion: "1", bindAddresses: ["127.0.0.1"])
        configuration.port = port
        let clash = DiscoveryServer(identity: try PairingIdentity.create(), devices: try PairedDeviceStore(storage: fixture.temp.storage("other")),
                                    configuration: configuration, status: { .init(activeRoute: "") })
        await #expect(throws: PairingError.self) { try await clash.start() }
        #expect(clash.port == nil)

        // The last run's port, when taken, gives way to an ephemeral one.
        var again = DiscoveryServer.Configuration(desktopName: "Again", appVersion: "1", bindAddresses: ["127.0.0.1"])
        again.preferredPort = port
        again.advertise = false
        let moved = DiscoveryServer(identity: try PairingIdentity.create(), devices: try PairedDeviceStore(storage: fixture.temp.storage("moved")),
                                    configuration: again, status: { .init(activeRoute: "") })
        let elsewhere = try await moved.start()
        #expect(elsewhere != port && elsewhere > 0)
        await moved.stop()
        await fixture.server.stop()

        // Free again: it is taken.
        let back = DiscoveryServer(identity: try PairingIdentity.create(), devices: try PairedDeviceStore(storage: fixture.temp.storage("back")),
                                   configuration: again, status: { .init(activeRoute: "") })
        #expect(try await back.start() == port)
        await back.stop()
    }

    @Test func hundredStartStopCyclesLeakNoDescriptors() async throws {
        let fixture = try ServerFixture()
        // Warm up the event loops, and Foundation's process machinery (curl) with its own descriptors.
        for _ in 0..<5 {
            try await fixture.server.start()
            #expect(try await curl(["-k", "--pinnedpubkey", fixture.pin, fixture.base + "/api/v1/pair/info"]).status == 200)
            await fixture.server.stop()
        }
        let before = openFileDescriptors()
        let beforeTargets = descriptorTargets()
        var ports = Set<Int>()
        for cycle in 0..<100 {
            let port = try await fixture.server.start()
            ports.insert(port)
            if cycle % 25 == 0 {
                let info = try await curl(["-k", "--pinnedpubkey", fixture.pin, fixture.base + "/api/v1/pair/info"])
                #expect(info.status == 200, "cycle \(cycle): \(info)")
            }
            await fixture.server.stop()
            #expect(fixture.server.port == nil)
        }
        try await Task.sleep(for: .milliseconds(200))
        // Exact and immune to other suites running in parallel: no socket on any
        // of our ports is still listening, established or half-closed (those hold a descriptor).
        #expect(liveSockets(onLocalPorts: ports).isEmpty, "\(liveSockets(onLocalPorts: ports))")
        // And the process's descriptor count did not grow with the cycles: a leak per
        // cycle shows as ≥ 100; runtime threads and tests running alongside (a
        // child process's pipes, a server's sockets) add some dozens.
        let after = openFileDescriptors()
        #expect(after - before <= 80, "descriptors before \(before), after \(after): \(Set(descriptorTargets()).subtracting(beforeTargets).sorted())")
        #expect(ports.count > 1)
    }

    /// The whole flow as a third party would do it: only the URI, curl, the document.
    @Test func fullPairingWithCurlUsingOnlyTheURI() async throws {
        let fixture = try ServerFixture()
        let text = try await fixture.open().description
        defer { Task { await fixture.server.stop() } }
        let uri = try PairingURI.parse(text)
        // fp (base64url) → curl's sha256//base64 pin, the documented way.
        let (_, converted) = try await run(["sh", "-c",
            "printf '%s' '\(uri.fingerprintBase64URL)' | tr '_-' '/+' | awk '{ while (length($0) % 4) $0 = $0 \"=\"; print }'"])
        let pin = "sha256//" + converted.trimmingCharacters(in: .whitespacesAndNewlines)
        let base = "https://\(uri.addresses[0]):\(uri.port)"
        #expect(try await curl(["-k", "--pinnedpubkey", pin, base + "/api/v1/pair/info"]).status == 200)
        let body = "{\"session\":\"\(uri.sessionString)\",\"code\":\"\(uri.codeString)\",\"client_name\":\"Curl Phone\",\"client_model\":\"curl\"}"
        let paired = try await curl(["-k", "--pinnedpubkey", pin, "-H", "Content-Type: application/json", "-d", body, base + "/api/v1/pair"])
        #expect(paired.status == 200, "\(paired)")
        let answer = jsonObject(paired.body)
        let token = try #require(answer["token"] as? String)
        #expect((Base64URL.decode(token)?.count ?? 0) * 8 >= 256)
        #expect(answer["desktop_name"] as? String == "Test Desk")
        #expect(answer["token_type"] as? String == "Bearer")
        let expires = try #require((answer["expires_at"] as? String).flatMap(RFC3339.date))
        #expect(abs(expires.timeIntervalSince(fixture.clock.now) - 30 * 24 * 3600) < 2)
        // The desktop was asked, with the comparison code the companion computes.
        let asked = try #require(fixture.requests.withLockedValue { $0.first })
        #expect(asked.clientName == "Curl Phone" && asked.clientModel == "curl" && asked.remoteAddress == "127.0.0.1")
        #expect(asked.comparisonCode == CompanionClient.comparisonCode(for: uri, clientName: "Curl Phone"))
        #expect(answer["comparison_code"] as? String == asked.comparisonCode)
        // The token is stored only as a hash.
        let stored = try String(contentsOf: fixture.temp.storage().url("paired-devices.json"), encoding: .utf8)
        #expect(!stored.contains(token))
        #expect(fixture.server.devices.map(\.name) == ["Curl Phone"])
        // Status with the token.
        let status = try await curl(["-k", "--pinnedpubkey", pin, "-H", "Authorization: Bearer \(token)", base + "/api/v1/status"])
        #expect(status.status == 200)
        let object = jsonObject(status.body)
        #expect(object["app_version"] as? String == "9.9.9")
        #expect(object["active_route"] as? String == "library")
        #expect(object["server_url"] as? String == "http://127.0.0.1:1/")
        #expect(object["user_display_name"] as? String == "Ada Reader")
        // Unpair, then the token is refused.
        #expect(try await curl(["-k", "--pinnedpubkey", pin, "-X", "DELETE", "-H", "Authorization: Bearer \(token)", base + "/api/v1/pair"]).status == 204)
        #expect(try await curl(["-k", "--pinnedpubkey", pin, "-H", "Authorization: Bearer \(token)", base + "/api/v1/status"]).status == 401)
        #expect(fixture.server.devices.isEmpty)
        // Reported: the snapshot, the pairing, the unpairing.
        #expect(await fixture.saw { _ in fixture.devicesSeen.count >= 3 })
        #expect(fixture.devicesSeen == [[], ["Curl Phone"], []])
        await fixture.server.stop()
    }

    @Test func aWrongPinIsRefusedBeforeAnythingIsSent() async throws {
        let fixture = try ServerFixture()
        let uri = try await fixture.open()
        defer { Task { await fixture.server.stop() } }
        let wrongPin = "sha256//" + Data(repeating: 7, count: 32).base64EncodedString()
        let body = "{\"session\":\"\(uri.sessionString)\",\"code\":\"\(uri.codeString)\",\"client_name\":\"Phone\",\"client_model\":\"x\"}"
        let result = try await curl(["-k", "--pinnedpubkey", wrongPin, "-d", body, fixture.base + "/api/v1/pair"])
        #expect(result.exit == 90) // CURLE_SSL_PINNEDPUBKEYNOTMATCH
        #expect(fixture.requests.withLockedValue { $0.isEmpty })
        // The code was not spent: the right pin still pairs with it.
        #expect(try await fixture.pair(session: uri.sessionString, code: uri.codeString).status == 200)
        await fixture.server.stop()
    }

    @Test func aReplayedCodeIsRefused() async throws {
        let fixture = try ServerFixture()
        let uri = try await fixture.open()
        defer { Task { await fixture.server.stop() } }
        #expect(try await fixture.pair(session: uri.sessionString, code: uri.codeString).status == 200)
        let replay = try await fixture.pair(session: uri.sessionString, code: uri.codeString)
        #expect(replay.status == 403 && errorCode(replay.body) == "code_used")
        #expect(fixture.uri?.session != uri.session) // the screen moved on to a new code
        await fixture.server.stop()
    }

    @Test func anExpiredCodeIsRefused() async throws {
        let fixture = try ServerFixture()
        let uri = try await fixture.open()
        defer { Task { await fixture.server.stop() } }
        fixture.clock.advance(35)
        fixture.server.tick()
        #expect(fixture.uri?.session != uri.session) // rotated
        fixture.clock.advance(6) // 41 s: past the 10 s grace
        let late = try await fixture.pair(session: uri.sessionString, code: uri.codeString)
        #expect(late.status == 410 && errorCode(late.body) == "code_expired", "\(late)")
        // After 5 minutes nothing works and the state says so.
        let current = try #require(fixture.uri)
        fixture.clock.advance(300)
        fixture.server.tick()
        #expect(fixture.server.state == .expired)
        let afterWindow = try await fixture.pair(session: current.sessionString, code: current.codeString)
        #expect(afterWindow.status == 410)
        #expect(await fixture.saw { $0.last == .state(.expired) })
        await fixture.server.stop()
    }

    @Test func theFourthWrongAttemptIsRefusedEvenWithTheRightCode() async throws {
        let fixture = try ServerFixture()
        let uri = try await fixture.open()
        defer { Task { await fixture.server.stop() } }
        let wrong = Base64URL.encode([UInt8](repeating: 9, count: 16))
        for _ in 0..<3 {
            let attempt = try await fixture.pair(session: uri.sessionString, code: wrong)
            #expect(attempt.status == 403 && errorCode(attempt.body) == "invalid_code")
        }
        let fourth = try await fixture.pair(session: uri.sessionString, code: uri.codeString)
        #expect(fourth.status == 403 && errorCode(fourth.body) == "code_burned", "\(fourth)")
        #expect(fixture.requests.withLockedValue { $0.isEmpty })
        await fixture.server.stop()
    }

    @Test func rateLimitAnswers429WithRetryAfter() async throws {
        let fixture = try ServerFixture { $0.rateLimitAttempts = 2 }
        let uri = try await fixture.open()
        defer { Task { await fixture.server.stop() } }
        _ = try await fixture.pair(session: "x", code: "y")
        _ = try await fixture.pair(session: "x", code: "y")
        let (_, output) = try await run(["curl", "-sS", "-k", "--pinnedpubkey", fixture.pin, "-D", "-", "-d", "{}", fixture.base + "/api/v1/pair"])
        #expect(output.hasPrefix("HTTP/1.1 429"))
        #expect(output.lowercased().contains("retry-after: "))
        _ = uri
        await fixture.server.stop()
    }

    @Test func oversizedBodiesGet413() async throws {
        let fixture = try ServerFixture()
        _ = try await fixture.open()
        defer { Task { await fixture.server.stop() } }
        let file = fixture.temp.url.appendingPathComponent("big.json")
        try Data(repeating: UInt8(ascii: "a"), count: 9000).write(to: file)
        let big = try await curl(["-k", "--pinnedpubkey", fixture.pin, "-H", "Expect:", "--data-binary", "@" + file.path, fixture.base + "/api/v1/pair"])
        #expect(big.status == 413 && errorCode(big.body) == "body_too_large", "\(big)")
        await fixture.server.stop()
    }

    @Test func slowAndIdleClientsAreClosed() async throws {
        let fixture = try ServerFixture()
        let port = try await fixture.server.start()
        defer { Task { await fixture.server.stop() } }
        let clock = ContinuousClock()
        // Silent: connects, sends nothing.
        let silent = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port).get()
        let start = clock.now
        try await silent.closeFuture.get()
        // (The bounds leave a busy machine seconds of slack and still tell
        // a deadline from none: the idle timeout here is 1 s, and the
        // trickle below would keep a connection with no deadline open 8 s.)
        #expect(clock.now - start < .seconds(5))
        // Slow: trickles a TLS record header a byte at a time, never finishing.
        let slow = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port).get()
        let slowStart = clock.now
        let trickle = Task {
            for byte: UInt8 in [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03, 0, 0, 0, 0, 0, 0, 0, 0, 0] {
                try await Task.sleep(for: .milliseconds(400))
                try await slow.writeAndFlush(slow.allocator.buffer(bytes: [byte]))
            }
        }
        try await slow.closeFuture.get()
        trickle.cancel()
        #expect(clock.now - slowStart < .seconds(7))
        await fixture.server.stop()
    }

    @Test func unknownTokensAndClosedPairingAreRefused() async throws {
        let fixture = try ServerFixture()
        try await fixture.server.start()
        defer { Task { await fixture.server.stop() } }
        let unknown = Base64URL.encode([UInt8](repeating: 3, count: 32))
        let status = try await curl(["-k", "--pinnedpubkey", fixture.pin, "-H", "Authorization: Bearer \(unknown)", fixture.base + "/api/v1/status"])
        #expect(status.status == 401 && errorCode(status.body) == "unauthorized")
        #expect(try await curl(["-k", "--pinnedpubkey", fixture.pin, fixture.base + "/api/v1/status"]).status == 401)
        #expect(try await curl(["-k", "--pinnedpubkey", fixture.pin, "-X", "DELETE", fixture.base + "/api/v1/pair"]).status == 401)
        // Pairing closed: 409.
        let closed = try await fixture.pair(session: "AAAAAAAAAAAAAAAAAAAAAA", code: "AAAAAAAAAAAAAAAAAAAAAA")
        #expect(closed.status == 409 && errorCode(closed.body) == "pairing_closed")
        // Open then closed again: the code stops working.
        let uri = try #require({ () -> PairingURI? in
            if case .open(let uri, _, _) = try? fixture.server.openPairing() { uri } else { nil }
        }())
        fixture.server.closePairing()
        #expect(try await fixture.pair(session: uri.sessionString, code: uri.codeString).status == 409)
        #expect(try await curl(["-k", "--pinnedpubkey", fixture.pin, fixture.base + "/nothing"]).status == 404)
        #expect(try await curl(["-k", "--pinnedpubkey", fixture.pin, "-d", "not json", fixture.base + "/api/v1/pair"]).status == 400)
        await fixture.server.stop()
    }

    @Test func aRefusalIs403AndRevokingStopsTheToken() async throws {
        let fixture = try ServerFixture()
        let uri = try await fixture.open()
        defer { Task { await fixture.server.stop() } }
        fixture.accept.withLockedValue { $0 = false }
        let refused = try await fixture.pair(session: uri.sessionString, code: uri.codeString)
        #expect(refused.status == 403 && errorCode(refused.body) == "refused")
        fixture.accept.withLockedValue { $0 = true }
        let next = try #require(fixture.uri)
        let paired = try await fixture.pair(session: next.sessionString, code: next.codeString)
        let token = try #require(jsonObject(paired.body)["token"] as? String)
        let device = try #require(fixture.server.devices.first)
        try fixture.server.revoke(deviceID: device.id)
        #expect(try await curl(["-k", "--pinnedpubkey", fixture.pin, "-H", "Authorization: Bearer \(token)", fixture.base + "/api/v1/status"]).status == 401)
        // Tokens expire after 30 days.
        let again = try #require(fixture.uri)
        let second = try #require(jsonObject(try await fixture.pair(session: again.sessionString, code: again.codeString).body)["token"] as? String)
        fixture.clock.advance(31 * 24 * 3600)
        #expect(try await curl(["-k", "--pinnedpubkey", fixture.pin, "-H", "Authorization: Bearer \(second)", fixture.base + "/api/v1/status"]).status == 401)
        await fixture.server.stop()
    }

    @Test func pairedDevicesSurviveARestart() async throws {
        let fixture = try ServerFixture()
        let uri = try await fixture.open()
        #expect(try await fixture.pair(session: uri.sessionString, code: uri.codeString).status == 200)
        await fixture.server.stop()
        let reloaded = try PairedDeviceStore(storage: fixture.temp.storage())
        #expect(reloaded.list().map(\.name) == ["Phone"])
        let mode = (try FileManager.default.attributesOfItem(atPath: fixture.temp.storage().url("paired-devices.json").path)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600)
    }
}

/// docs/pairing-protocol.md's "Whole flow with curl" script, run as written
/// against a real server, with a real QR image: the document is executable.
@Suite("Protocol document", .serialized)
struct ProtocolDocumentTests {
    static func script(after heading: String) throws -> String {
        let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/pairing-protocol.md")
        let text = try String(contentsOf: document, encoding: .utf8)
        guard let section = text.range(of: heading), let open = text.range(of: "```sh\n", range: section.upperBound..<text.endIndex),
              let close = text.range(of: "\n```", range: open.upperBound..<text.endIndex) else { return "" }
        return String(text[open.upperBound..<close.lowerBound])
    }

    /// Every ```sh block of the section under `heading` (up to the next `## `), in order.
    static func scripts(inSection heading: String) throws -> [String] {
        let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/pairing-protocol.md")
        let text = try String(contentsOf: document, encoding: .utf8)
        guard let section = text.range(of: "\n" + heading + "\n") else { return [] }
        let end = text.range(of: "\n## ", range: section.upperBound..<text.endIndex)?.lowerBound ?? text.endIndex
        var scripts: [String] = []
        var cursor = section.upperBound
        while let open = text.range(of: "```sh\n", range: cursor..<end),
              let close = text.range(of: "\n```", range: open.upperBound..<end) {
            scripts.append(String(text[open.upperBound..<close.lowerBound]))
            cursor = close.upperBound
        }
        return scripts
    }

    /// The "Remote control" recipes, every one, as written, in order, with `pin`, `base`
    /// and `token` as the whole flow sets them, against a scripted player.
    @Test func theRemoteControlRecipesRunAsWritten() async throws {
        let cover = RemoteCover(data: Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]), contentType: "image/jpeg")
        let player = ScriptedRemotePlayer(cover: cover)
        let fixture = try await DiscoveryServerRemoteTests.fixture(player) { $0.remoteHeartbeatInterval = 0.3 }
        defer { Task { await fixture.server.stop() } }
        let (_, token) = try fixture.pairDevice("My Phone")
        let scripts = try Self.scripts(inSection: "## Remote control")
        #expect(scripts.count == 5, "\(scripts.count) recipes") // state, cover, commands, a wrong body, events
        let setUp = "cd '\(fixture.temp.url.path)'\npin='\(fixture.pin)'\nbase='\(fixture.base)'\ntoken='\(token)'\n"
        var outputs: [String] = []
        for script in scripts {
            let (status, output) = try await run(["sh", "-euc", setUp + script])
            #expect(status == 0, "\(script)\n\(output)")
            outputs.append(output)
        }
        let all = outputs.joined(separator: "\n")
        // The state, as the document shows it.
        #expect(all.contains("\"title\":\"The Hobbit\"") && all.contains("\"sleepRemainingMs\":null"), "\(all)")
        // The cover, with its type.
        #expect(all.contains("200 image/jpeg"), "\(all)")
        #expect(try Data(contentsOf: fixture.temp.url.appendingPathComponent("cover.img")) == cover.data)
        // The commands, in the document's order, the wrong body refused as shown.
        #expect(player.commands.map(\.command) == [.pause, .play, .seek(positionMs: 600_000), .skip(seconds: -30), .chapter(index: 4),
                                                    .rate(1.5), .sleep(.minutes(30)), .sleep(.off), .playBook(bookID: "book-2")])
        #expect(all.contains("{\"error\":{\"code\":\"bad_request\",\"message\":\"\\\"value\\\" must be a number from 0.5 to 3.0.\"}}"), "\(all)")
        // The event stream's first state.
        let first = try #require(outputs.last?.split(separator: "\n").first { $0.hasPrefix("data: ") })
        let state = try JSONDecoder().decode(RemotePlayerState.self, from: Data(first.dropFirst("data: ".count).utf8))
        #expect(state.bookID == "book-2" && state.status == .playing)
        await fixture.server.stop()
    }

    @Test func theWholeFlowScriptPairsAndReadsStatus() async throws {
        let fixture = try ServerFixture()
        let uri = try await fixture.open()
        defer { Task { await fixture.server.stop() } }
        let script = try Self.script(after: "## Whole flow with curl")
        #expect(script.contains("zbarimg --raw -q shot.png"))
        try QRImage(matrix: try QRMatrix.encode(uri.description), moduleSize: 4).pngData()
            .write(to: fixture.temp.url.appendingPathComponent("shot.png"))
        let (status, output) = try await run(["sh", "-euc", "cd '\(fixture.temp.url.path)'\n" + script])
        #expect(status == 0, "\(output)")
        let asked = try #require(fixture.requests.withLockedValue { $0.first })
        #expect(asked.clientName == "My Phone")
        #expect(output.contains("Comparison code: \(asked.comparisonCode)"), "\(output)")
        #expect(output.contains("\"user_display_name\":\"Ada Reader\""), "\(output)")
        #expect(fixture.server.devices.isEmpty) // the script unpairs at the end
        await fixture.server.stop()
    }
}
