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

    /// The user's real name from the password database (GECOS, up to the
    /// first comma), as `getent passwd` shows it; nil when it is empty.
    static func realName() -> String? {
        guard let entry = getpwuid(getuid()), let gecos = entry.pointee.pw_gecos else { return nil }
        let name = String(cString: gecos).split(separator: ",", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        return name.isEmpty ? nil : name
    }

    @Test func theDesktopNameIsTheShortHostName() {
        #expect(PairingClient.desktopName(hostName: "annas-desk.local") == "annas-desk")
        #expect(PairingClient.desktopName(hostName: "annas-desk") == "annas-desk")
        // With no arguments: this machine's own host name, shortened.
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? ""
        if !host.isEmpty, host != "localhost" {
            #expect(PairingClient.desktopName() == PairingURI.displayName(host))
        }
    }

    /// No usable host name: the user's real name, and only when there is
    /// none the generic "ListenUp Desktop" (which the test must not accept
    /// in place of a real name this machine has).
    @Test func withoutAHostNameTheUsersRealNameIsUsed() {
        let expected = Self.realName().map(PairingURI.displayName) ?? "ListenUp Desktop"
        #expect(PairingClient.desktopName(hostName: "") == expected)
        #expect(PairingClient.desktopName(hostName: "localhost") == expected)
        #expect(PairingClient.desktopName(hostName: "localhost.localdomain") == expected)
    }
}
