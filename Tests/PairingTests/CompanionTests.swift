import Foundation
import NIOConcurrencyHelpers
import ListenUpCore
import QRCode
import Testing
@testable import Pairing

@Suite("Companion", .serialized)
struct CompanionTests {
    @Test func refusesAWrongFingerprintBeforeSendingAnything() async throws {
        let fixture = try ServerFixture()
        var uri = try await fixture.open()
        defer { Task { await fixture.server.stop() } }
        let companion = CompanionClient(storage: fixture.temp.storage("companion"))
        var forged = uri
        forged.fingerprint = try PairingIdentity.create().fingerprint
        await #expect(throws: PairingError.fingerprintMismatch) {
            try await companion.pair(uri: forged, clientName: "Laptop", clientModel: "cli")
        }
        #expect(fixture.requests.withLockedValue { $0.isEmpty })
        #expect(try companion.stored() == nil)
        // The code was not spent (nothing reached the server's logic).
        uri = try #require(fixture.uri)
        let pairing = try await companion.pair(uri: uri, clientName: "Laptop", clientModel: "cli")
        #expect(pairing.desktopName == "Test Desk")
        await fixture.server.stop()
    }

    @Test func pairsThenStatusThenUnpair() async throws {
        let fixture = try ServerFixture()
        let uri = try await fixture.open()
        defer { Task { await fixture.server.stop() } }
        let storage = fixture.temp.storage("companion")
        let companion = CompanionClient(storage: storage)
        let shown = NIOLockedValueBox<String?>(nil)
        let pairing = try await companion.pair(uri: uri, clientName: "Laptop", clientModel: "cli") { code in shown.withLockedValue { $0 = code } }
        #expect(shown.withLockedValue { $0 } == fixture.requests.withLockedValue { $0.first?.comparisonCode })
        let mode = (try FileManager.default.attributesOfItem(atPath: storage.url("pairing.json").path)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600)
        #expect(try companion.stored() == pairing)
        let status = try await companion.status()
        #expect(status.userDisplayName == "Ada Reader" && status.activeRoute == "library" && status.appVersion == "9.9.9")
        try await companion.unpair()
        #expect(try companion.stored() == nil)
        await #expect(throws: PairingError.notPaired) { try await companion.status() }
        await fixture.server.stop()
    }

    /// The real executable: `pair --image` through zbarimg, then `status`.
    @Test func theCLIPairsFromAnImageAndReportsStatus() async throws {
        let binary = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug/listenup-companion")
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build listenup-companion first")
        let fixture = try ServerFixture()
        let uri = try await fixture.open()
        defer { Task { await fixture.server.stop() } }
        let image = fixture.temp.url.appendingPathComponent("shot.png")
        try QRImage(matrix: try QRMatrix.encode(uri.description), moduleSize: 4).pngData().write(to: image)
        let environment = ["XDG_DATA_HOME": fixture.temp.url.appendingPathComponent("companion-data").path,
                           "HOME": fixture.temp.url.path]
        let paired = try await run([binary.path, "pair", "--image", image.path, "--name", "CLI Laptop"], environment: environment)
        #expect(paired.status == 0, "\(paired.output)")
        let code = try #require(fixture.requests.withLockedValue { $0.first?.comparisonCode })
        #expect(paired.output.contains("Comparison code: \(code)"))
        let status = try await run([binary.path, "status"], environment: environment)
        #expect(status.status == 0)
        #expect(status.output.contains("Signed in as: Ada Reader"))
        // A wrong pin through the CLI: non-zero exit, nothing sent.
        var forged = try #require(fixture.uri)
        forged.fingerprint = Array(repeating: 1, count: 32)
        let before = fixture.requests.withLockedValue { $0.count }
        let refused = try await run([binary.path, "pair", forged.description], environment: environment)
        #expect(refused.status != 0)
        #expect(fixture.requests.withLockedValue { $0.count } == before)
        await fixture.server.stop()
    }
}
