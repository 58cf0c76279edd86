import Foundation
import Logging
import Pairing
import Testing
@testable import ListenUpCore
@testable import ListenUpLive

@Suite("PairingClient.host")
struct PairingClientHostTests {
    @Test func theHostIsBuiltOnFirstUseAndOnlyOnce() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pairing-lazy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let client = PairingClient.host(dataDirectory: directory, desktopName: "Lazy Desk",
                                        status: LockedValue(DiscoveryServer.Status(activeRoute: "loading")),
                                        logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        #expect(!FileManager.default.fileExists(atPath: directory.path), "nothing on disk before pairing is used")
        client.close() // closing an unbuilt host does not build it
        #expect(!FileManager.default.fileExists(atPath: directory.path))
        #expect(client.devices().isEmpty)
        let identity = directory.appendingPathComponent("pairing-cert.pem")
        #expect(FileManager.default.fileExists(atPath: identity.path))
        let first = try Data(contentsOf: identity)
        _ = client.devices()
        #expect(try Data(contentsOf: identity) == first, "one host, one identity")
    }

    @Test func theDesktopNameIsTheShortHostName() {
        #expect(PairingClient.desktopName(hostName: "annas-desk.local") == "annas-desk")
        #expect(!PairingClient.desktopName(hostName: "").isEmpty)
        #expect(!PairingClient.desktopName(hostName: "localhost").isEmpty)
    }
}
