import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import ListenUpCore
import ListenUpTestSupport
import QRCode
import Testing
@testable import Pairing

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

        // Free: it is taken. (On an address of its own: on 127.0.0.1 the
        // port just freed may meanwhile be any other test's.)
        again.bindAddresses = [Loopback.privateAddress()]
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
        let before = openSockets()
        var ports = Set<Int>()
        var served = Set<String>()
        var neighbour: (any Channel)?
        for cycle in 0..<100 {
            let port = try await fixture.server.start()
            ports.insert(port)
            served.formUnion(socketInodes(onLocalPort: port))
            if cycle == 0 {
                // Another suite's server in this process may be given the
                // same port number on another loopback address, and outlive
                // this test: it is not one of ours.
                neighbour = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .bind(host: Loopback.privateAddress(), port: port).get()
            }
            if cycle % 25 == 0 {
                let info = try await curl(["-k", "--pinnedpubkey", fixture.pin, fixture.base + "/api/v1/pair/info"])
                #expect(info.status == 200, "cycle \(cycle): \(info)")
                served.formUnion(socketInodes(onLocalPort: port))
            }
            await fixture.server.stop()
            #expect(fixture.server.port == nil)
        }
        try await Task.sleep(for: .milliseconds(200))
        // Exact and immune to other suites running in parallel, in this
        // process too (one of them may be given a port number we let go):
        // none of the sockets our servers listened or talked on is open.
        #expect(!served.isEmpty, "the servers' sockets were seen")
        let leaked = served.intersection(ownSocketInodes())
        #expect(leaked.isEmpty, "still open: \(leaked.sorted()), on our ports now: \(liveSockets(onLocalPorts: ports))")
        // And the process's sockets did not grow with the cycles: a leak per
        // cycle shows as ≥ 100; the servers and connections of tests running
        // alongside add some dozens. (Sockets, not every descriptor: the
        // child processes of the tests alongside hold pipes by the hundred.)
        let after = openSockets()
        #expect(after.count - before.count <= 80, "sockets before \(before.count), after \(after.count): \(Set(after).subtracting(before).sorted())")
        #expect(ports.count > 1)
        try await neighbour?.close()
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
