import DemoServer
import Foundation
import Testing

/// The first journey where the desktop's services are missing: no D-Bus
/// session bus at all (an SSH session, a container, a systemd service), or
/// a bus with no working Secret Service on it. The app must still go from
/// Connect to the library, and a restart must still land in the library:
/// settings in GLib's key file, the session in the private file.
@Suite("Headless journeys without the desktop's services", .serialized)
struct HeadlessNoDesktopTests {
    typealias Journey = HeadlessJourneyTests

    /// No session bus, GSettings' default backend (dconf, which needs one):
    /// no `DBUS_SESSION_BUS_ADDRESS`, an empty runtime folder (no `bus`
    /// socket), no display (no autolaunch), no `GSETTINGS_BACKEND`.
    static func withoutSessionBus(_ home: URL) throws -> [String: String?] {
        let runtime = home.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        return ["DBUS_SESSION_BUS_ADDRESS": nil, "XDG_RUNTIME_DIR": runtime.path, "GSETTINGS_BACKEND": nil]
    }

    @Test func withNoSessionBusTheServerAndSessionOutliveARestart() async throws {
        let (server, url) = try await Journey.startServer(books: 25)
        defer { Task { await server.stop() } }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-nobus-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = try Self.withoutSessionBus(home)

        let first = try HeadlessProcess(home: home, environment: environment)
        #expect(await first.waitForLine(Journey.onRoute("serverSetup")) != nil, "\(first.stderr)")
        first.send(#"{"action":"connect","url":"\#(url)"}"#)
        #expect(await first.waitForLine(Journey.onRoute("adminSetup")) != nil, "\(first.allLines)\n\(first.stderr)")
        first.send(#"{"action":"setupAdmin","name":"Ada Lovelace","email":"ada@example.com","password":"analytical-engine"}"#)
        #expect(await first.waitForLine(Journey.libraryLoaded(25)) != nil, "\(first.allLines)\n\(first.stderr)")
        first.send(#"{"action":"quit"}"#)
        #expect(await first.waitForExit() == 0)
        // Said once, on stderr, with the place.
        let keyfile = home.appendingPathComponent("config/glib-2.0/settings/keyfile").path
        #expect(first.stderr.components(separatedBy: "No D-Bus session bus: settings are kept in \(keyfile)").count == 2, "\(first.stderr)")
        #expect(!first.stderr.contains("failed to commit changes to dconf"), "\(first.stderr)")
        #expect(!first.stderr.contains("analytical-engine"), "the password reached the log")
        #expect(FileManager.default.fileExists(atPath: keyfile))

        // The next launch remembers the server and the session.
        let logins = server.requestCount("/api/v1/auth/login")
        let second = try HeadlessProcess(home: home, environment: environment)
        #expect(await second.waitForLine(Journey.onRoute("library")) != nil, "\(second.allLines)\n\(second.stderr)")
        #expect(await second.waitForLine(Journey.libraryLoaded(25)) != nil)
        #expect(server.requestCount("/api/v1/auth/login") == logins)
        #expect(!second.allLines.contains { $0.contains(#""route":"serverSetup""#) || $0.contains(#""route":"login""#) })
        second.closeInput()
        #expect(await second.waitForExit() == 0)
    }

    /// A private session bus (`dbus-run-session`) with no keyring daemon
    /// running: the bus may start gnome-keyring on demand, but with no
    /// login keyring and no prompter it cannot store a secret.
    @Test func withNoWorkingSecretServiceTheSessionGoesToTheFile() async throws {
        let (server, url) = try await Journey.startServer(books: 25, admin: true)
        defer { Task { await server.stop() } }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-nosecrets-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let runtime = home.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let environment: [String: String?] = ["XDG_RUNTIME_DIR": runtime.path]

        let first = try HeadlessProcess(home: home, environment: environment, launcher: ["dbus-run-session", "--"])
        first.send(#"{"action":"connect","url":"\#(url)"}"#)
        #expect(await first.waitForLine(Journey.onRoute("login")) != nil, "\(first.allLines)\n\(first.stderr)")
        first.send(#"{"action":"login","email":"ada@example.com","password":"analytical-engine"}"#)
        #expect(await first.waitForLine(Journey.librarySettled(25)) != nil, "\(first.allLines)\n\(first.stderr)")
        #expect(!first.allLines.contains { $0.contains(#""route":"login""#) && $0.contains("Your session has ended") })
        first.send(#"{"action":"quit"}"#)
        #expect(await first.waitForExit() == 0)
        #expect(!first.stderr.contains("analytical-engine"), "the password reached the log")

        let sessions = try FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("state/listenup").path)
        #expect(sessions.contains { $0.hasPrefix("session-") }, "\(first.stderr)")

        let logins = server.requestCount("/api/v1/auth/login")
        let second = try HeadlessProcess(home: home, environment: environment, launcher: ["dbus-run-session", "--"])
        #expect(await second.waitForLine(Journey.libraryLoaded(25)) != nil, "\(second.allLines)\n\(second.stderr)")
        #expect(server.requestCount("/api/v1/auth/login") == logins)
        #expect(!second.allLines.contains { $0.contains(#""route":"login""#) })
        second.closeInput()
        #expect(await second.waitForExit() == 0)
    }
}
