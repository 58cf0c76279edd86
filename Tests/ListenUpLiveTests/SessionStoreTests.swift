import Foundation
import Keyring
import ListenUpTestSupport
import Testing
@testable import ListenUpCore
@testable import ListenUpLive

@Suite("Session stores")
struct SessionStoreTests {
    static func session(_ server: String, token: String = "v4.local.secret-access") -> StoredSession {
        StoredSession(serverURL: URL(string: server)!, accessToken: token, refreshToken: "refresh-secret=", sessionID: "session-1",
                      userID: "user-1", displayName: "Ada L", email: "ada@example.com", accessExpiresAt: Date(timeIntervalSince1970: 2_000_000_000))
    }

    func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-sessions-\(UUID().uuidString)/state/listenup")
        return dir
    }

    @Test func theFileFallbackIsPrivateAndRoundTrips() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent().deletingLastPathComponent()) }
        let logs = LogCapture()
        let store = SessionStore.file(in: dir, logger: logs.logger)
        let a = Self.session("http://10.0.0.2:8080"), b = Self.session("https://listen.example.com", token: "other")
        try await store.save(a)
        try await store.save(b)
        #expect(await store.load(a.serverURL) == a)
        #expect(await store.load(b.serverURL) == b, "servers do not collide")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(files.count == 2)
        for file in files {
            let mode = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(file).path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(file) is \(String(mode ?? 0, radix: 8))")
        }
        let dirMode = try FileManager.default.attributesOfItem(atPath: dir.path)[.posixPermissions] as? Int
        #expect(dirMode == 0o700)
        await store.delete(a.serverURL)
        #expect(await store.load(a.serverURL) == nil)
        #expect(!logs.text.contains("secret"))
    }

    @Test func aCorruptFileIsNoSession() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent().deletingLastPathComponent()) }
        let logs = LogCapture()
        let store = SessionStore.file(in: dir, logger: logs.logger)
        let a = Self.session("http://10.0.0.2:8080")
        try await store.save(a)
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: dir.path).first)
        try Data("{not json".utf8).write(to: dir.appendingPathComponent(file))
        #expect(await store.load(a.serverURL) == nil)
        #expect(logs.text.contains("unreadable"))
    }

    @Test func theKeyringStoreUsesTheSecretServiceWhenThereIsOne() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent().deletingLastPathComponent()) }
        let logs = LogCapture()
        let fallback = SessionStore.file(in: dir, logger: logs.logger)
        let store = SessionStore.keyring(fallback: fallback, logger: logs.logger)
        let a = Self.session("http://keyring-test-\(UUID().uuidString):8080")
        try await store.save(a)
        #expect(await store.load(a.serverURL) == a)
        let usedKeyring = !FileManager.default.fileExists(atPath: dir.path)
        if ProcessInfo.processInfo.environment["LISTENUP_REQUIRE_KEYRING"] == "1" {
            #expect(usedKeyring, "a Secret Service is running, yet the session went to a file: \(logs.text)")
        }
        if !usedKeyring {
            #expect(logs.text.components(separatedBy: "No keyring reachable").count == 2, "said once")
        }
        await store.delete(a.serverURL)
        #expect(await store.load(a.serverURL) == nil)
        #expect(!logs.text.contains("secret-access") && !logs.text.contains("refresh-secret"))
    }
}
