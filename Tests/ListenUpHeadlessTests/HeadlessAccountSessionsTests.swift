import DemoServer
import Foundation
import ListenUpAPI
import ListenUpCore
import ListenUpLive
import Logging
import Testing

/// Preferences → Devices through the real `listenup --headless` against
/// the demo server: the account's sessions listed with this one marked,
/// another device signed out from here (its next call is refused), every
/// other one signed out at once, and this one signed out from another
/// device (the app lands on Sign in). The Go server lists no sessions.
@Suite("Headless account sessions", .serialized)
struct HeadlessAccountSessionsTests {
    typealias Journey = HeadlessJourneyTests
    typealias Listening = HeadlessPlaybackTests
    typealias Browse = HeadlessBrowseTests

    static func sessions(_ line: [String: Any]?) -> [[String: Any]] { line?["sessions"] as? [[String: Any]] ?? [] }

    /// Another device signed in to `url` over kRPC, as `name` on `platform`.
    static func otherDevice(_ url: String, name: String, platform: String) async throws -> KRPCServerConnection {
        let device = ListenUpAPI.DeviceInfo(deviceType: "mobile", platform: platform, deviceName: name)
        let connection = KRPCServerConnection(baseURL: try #require(URL(string: url)), session: nil, transport: .live,
                                              sessions: .inMemory(), deviceInfo: device, logger: Logger(label: "other", factory: { _ in SwiftLogNoOpLogHandler() }))
        _ = try await connection.login(email: "ada@example.com", password: "analytical-engine")
        return connection
    }

    static func signedIn(_ url: String, home: URL, environment: [String: String?] = [:]) async throws -> HeadlessProcess {
        let app = try HeadlessProcess(home: home, environment: Listening.sink.merging(environment) { $1 })
        app.send(#"{"action":"connect","url":"\#(url)"}"#)
        #expect(await app.waitForLine(Journey.onRoute("login")) != nil, "\(app.allLines)")
        app.send(#"{"action":"login","email":"ada@example.com","password":"analytical-engine"}"#)
        #expect(await app.waitForLine(Journey.librarySettled(4)) != nil, "\(app.allLines.suffix(3))")
        return app
    }

    @Test func sessionsAreListedAndOtherDevicesSignedOutFromHere() async throws {
        // Open streams of a revoked session end at the server's next check
        // (every 30 s on today's server, `streamLiveness`; each second here).
        let (server, url) = try await Browse.startServer(.krpc, books: 4) { $0.krpc.sessionCheckInterval = 1 }
        defer { Task { await server.stop() } }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-sessions-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let phone = try await Self.otherDevice(url, name: "Ada's phone", platform: "Android")
        let app = try await Self.signedIn(url, home: home)

        app.send(#"{"action":"sessions"}"#)
        let listed = Self.sessions(await app.waitForLine(Browse.event("sessions")))
        #expect(listed.count == 2, "\(listed)")
        #expect(listed.first?["current"] as? Bool == true, "this device used last, first: \(listed)")
        let phoneRow = try #require(listed.first { $0["current"] as? Bool == false })
        #expect(phoneRow["label"] as? String == "Ada's phone" && phoneRow["platform"] as? String == "Android")
        #expect((phoneRow["lastUsedAt"] as? String).flatMap(RFC3339.date(from:)) != nil)
        let phoneID = try #require(phoneRow["id"] as? String)
        let ownID = try #require(listed.first?["id"] as? String)

        // Another device, signed out from here: gone from the list, refused there.
        app.send(#"{"action":"revokeSession","id":"\#(phoneID)"}"#)
        let after = Self.sessions(await app.waitForLine(Browse.event("sessions") { Self.sessions($0).count == 1 }))
        #expect(after.map { $0["id"] as? String } == [ownID], "\(app.allLines.suffix(3))")
        await #expect(throws: ServerError.self) { _ = try await phone.accountSessions() }

        // This device's own session is not signed out from the list.
        app.send(#"{"action":"revokeSession","id":"\#(ownID)"}"#)
        #expect(await app.waitForLine { $0["event"] as? String == "error" && $0["code"] as? String == "badCommand" } != nil)

        // Everywhere else at once.
        let tablet = try await Self.otherDevice(url, name: "Tablet", platform: "iOS")
        _ = try await Self.otherDevice(url, name: "Laptop", platform: "Linux")
        _ = tablet
        app.send(#"{"action":"sessions"}"#)
        #expect(await app.waitForLine(Browse.event("sessions") { Self.sessions($0).count == 3 }) != nil,
                "\(app.allLines.suffix(3))")
        // The list printed after this request: the one printed after the
        // phone was signed out had one session too, and reading it would let
        // the next device sign in while the app is still signing others out.
        let signingOut = app.send(#"{"action":"signOutOthers"}"#)
        let alone = Self.sessions(await app.waitForLine(after: signingOut, Browse.event("sessions") { Self.sessions($0).count == 1 }))
        #expect(alone.first?["current"] as? Bool == true, "\(app.allLines.suffix(3))")

        // Signed out from another device: the app's event stream ends at the
        // server's next check, and the app lands on Sign in. (A call on the
        // socket already open is still answered: the server checks the
        // session when a socket opens, and its streams' as they run.)
        let other = try await Self.otherDevice(url, name: "Ada's phone", platform: "Android")
        let revoked = app.allLines.count
        try await other.endAccountSession(id: ownID)
        #expect(await app.waitForLine(after: revoked, Journey.onRoute("login")) != nil, "\(app.allLines.suffix(4))")
        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)
    }

    /// Once asked for, the list follows the account: a device signing in or
    /// out elsewhere prints the list again without another request.
    @Test func theListFollowsDevicesSigningInAndOutElsewhere() async throws {
        let (server, url) = try await Browse.startServer(.krpc, books: 4)
        defer { Task { await server.stop() } }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-sessions-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let app = try await Self.signedIn(url, home: home, environment: ["LISTENUP_DEVICES_REFRESH_SECONDS": "0.5"])
        app.send(#"{"action":"sessions"}"#)
        #expect(Self.sessions(await app.waitForLine(Browse.event("sessions"))).count == 1, "\(app.allLines.suffix(3))")

        let phone = try await Self.otherDevice(url, name: "Ada's phone", platform: "Android")
        let joined = await app.waitForLine(Browse.event("sessions") { Self.sessions($0).count == 2 })
        #expect(Self.sessions(joined).contains { $0["label"] as? String == "Ada's phone" }, "\(app.allLines.suffix(3))")
        let mark = app.allLines.count
        await phone.logout()
        let left = await app.waitForLine(after: mark, Browse.event("sessions") { Self.sessions($0).count == 1 })
        #expect(left != nil, "\(app.allLines.suffix(3))")
        let printed = app.allLines.filter { $0.contains(#""event":"sessions""#) }.count
        try await Task.sleep(for: .seconds(2))
        #expect(app.allLines.filter { $0.contains(#""event":"sessions""#) }.count == printed, "nothing printed while nothing changed")
        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)
    }

    @Test func theGoServerListsNoSessions() async throws {
        let (server, url) = try await Browse.startServer(.rest, books: 4)
        defer { Task { await server.stop() } }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-sessions-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let app = try await Self.signedIn(url, home: home)
        app.send(#"{"action":"sessions"}"#)
        let refused = await app.waitForLine { $0["event"] as? String == "error" }
        #expect(refused?["code"] as? String == "unsupported", "\(app.allLines.suffix(3))")
        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)
    }
}
