import Foundation
import Logging
import Testing
@testable import ListenUpCore

@Suite("Saved servers in settings")
struct SavedServersSettingsTests {
    let a = URL(string: "http://10.0.0.2:8080")!
    let b = URL(string: "https://books.example")!

    @Test func anOldSettingsFileReadsAsOneServer() throws {
        let old = #"{"serverURL":"http://10.0.0.2:8080","serverGeneration":"krpc","instanceID":"inst-1"}"#
        let settings = try JSONDecoder().decode(AppSettings.self, from: Data(old.utf8))
        #expect(settings.servers.isEmpty)
        #expect(settings.savedServers == [SavedServer(url: a, generation: .krpc, instanceID: "inst-1")])
        #expect(settings.savedServer(id: "http://10.0.0.2:8080")?.generation == .krpc)
        #expect(AppSettings().savedServers.isEmpty, "no server, no list")
    }

    @Test func aBrokenListReadsAsNoneAndTheRestStays() throws {
        let text = #"{"serverURL":"http://10.0.0.2:8080","servers":[{"generation":"krpc"}],"librarySort":"title"}"#
        let settings = try JSONDecoder().decode(AppSettings.self, from: Data(text.utf8))
        #expect(settings.servers.isEmpty && settings.librarySort == "title")
        #expect(settings.savedServers.map(\.id) == ["http://10.0.0.2:8080"])
    }

    @Test func addUpdateAndRemoveKeepTheOrderAndTheActiveOne() throws {
        var settings = AppSettings(serverURL: a.absoluteString)
        settings.rememberServer(SavedServer(url: b, generation: .krpc, userID: "u2", userDisplayName: "Bea"))
        #expect(settings.savedServers.map(\.id) == [a.absoluteString, b.absoluteString], "the old one first, kept")
        settings.rememberServer(SavedServer(url: a, userID: "u1", userDisplayName: "Ada"))
        settings.rememberServer(SavedServer(url: b, generation: .krpc))
        #expect(settings.savedServers.map(\.userDisplayName) == ["Ada", "Bea"], "an update keeps what it does not know")
        #expect(settings.savedServers.map(\.id) == [a.absoluteString, b.absoluteString])

        let encoded = try JSONEncoder().encode(settings)
        #expect(try JSONDecoder().decode(AppSettings.self, from: encoded) == settings, "the list survives a round trip")

        settings.forgetServer(id: b.absoluteString)
        #expect(settings.savedServers.map(\.id) == [a.absoluteString])
        #expect(settings.serverURL == a.absoluteString, "removing another leaves the active one")
        settings.rememberServer(SavedServer(url: b, generation: .krpc, instanceID: "inst-b"))
        settings.forgetServer(id: a.absoluteString)
        #expect(settings.serverURL == b.absoluteString && settings.serverGeneration == .krpc && settings.instanceID == "inst-b",
                "removing the active one makes the next active")
        settings.forgetServer(id: b.absoluteString)
        #expect(settings.serverURL == nil && settings.savedServers.isEmpty)
    }

    @Test func aVerifiedServerJoinsTheListAndBecomesActive() {
        let client = SettingsClient.inMemory(AppSettings(serverURL: a.absoluteString))
        let verified = VerifiedServer.sample(setupRequired: false)
        client.remember(verified, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let settings = client.load()
        #expect(settings.savedServers.map(\.id) == [a.absoluteString, verified.url.absoluteString], "the old one kept, the new one added")
        #expect(settings.serverURL == verified.url.absoluteString)
        #expect(settings.savedServer(id: verified.url.absoluteString)?.instanceID == verified.instanceID)
    }
}

@MainActor
@Suite("Switching and removing saved servers")
struct SavedServersNavigatorTests {
    static let a = URL(string: "http://10.0.0.2:8080")!
    static let b = URL(string: "http://10.0.0.3:8080")!

    static func stored(_ url: URL, _ user: String) -> StoredSession {
        StoredSession(serverURL: url, accessToken: "a-\(user)", refreshToken: "r-\(user)", sessionID: "s-\(user)", userID: user,
                      displayName: "Name \(user)", email: "\(user)@example.com", accessExpiresAt: .distantFuture)
    }

    struct Rig {
        let navigator: AppNavigator
        let dependencies: Dependencies
        let forgotten: LockedValue<[String]>
    }

    func rig() -> Rig {
        var settings = AppSettings(serverURL: Self.a.absoluteString)
        settings.servers = [SavedServer(url: Self.a, userID: "u1"), SavedServer(url: Self.b, userID: "u2")]
        var dependencies = Dependencies.test(settings: settings,
                                             sessions: .inMemory([Self.stored(Self.a, "u1"), Self.stored(Self.b, "u2")]))
        let forgotten = LockedValue<[String]>([])
        dependencies.forgetAccount = { server, user in forgotten.withLock { $0.append("\(server.absoluteString)|\(user)") } }
        return Rig(navigator: AppNavigator(registry: probeRegistry(), dependencies: dependencies), dependencies: dependencies,
                   forgotten: forgotten)
    }

    func signedIn(_ navigator: AppNavigator, to url: URL) async -> Bool {
        for _ in 0..<400 {
            if navigator.authState.session?.serverURL == url, navigator.signedIn?.session.serverURL == url { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return false
    }

    @Test func switchingEndsOneSessionAndRestoresTheOtherBothKept() async throws {
        let rig = rig()
        rig.navigator.start()
        #expect(await signedIn(rig.navigator, to: Self.a))
        let first = try #require(rig.navigator.signedIn)
        #expect(rig.navigator.savedServers.map(\.userDisplayName) == ["Name u1", nil], "signing in names the pair")

        // The paired phone's remote (and MPRIS, which follows the same
        // navigator.player) pushes this session's player's state…
        let pushed = LockedValue<[Double]>([])
        let watching = Task {
            for await state in rig.dependencies.playerRemote.stateChanges() { pushed.withLock { $0.append(state.volume) } }
        }
        defer { watching.cancel() }
        first.player.volume = 0.25
        for _ in 0..<400 where pushed.value.last != 0.25 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(pushed.value.last == 0.25, "\(pushed.value)")

        #expect(rig.navigator.switchServer(id: Self.b.absoluteString))
        #expect(await signedIn(rig.navigator, to: Self.b))
        #expect(rig.navigator.signedIn !== first && rig.navigator.player !== first.player, "the player follows the new session")
        // …and the other's once switched.
        let next = try #require(rig.navigator.player)
        #expect(next.volume != 0.25)
        for _ in 0..<400 where pushed.value.last != next.volume { try await Task.sleep(for: .milliseconds(5)) }
        #expect(pushed.value.last == next.volume, "the remote pushes the active pair's player: \(pushed.value)")
        #expect(rig.navigator.activeServerID == Self.b.absoluteString)
        #expect(rig.dependencies.settings.load().serverURL == Self.b.absoluteString, "the next start restores this one")
        #expect(await rig.dependencies.sessions.load(Self.a) != nil, "switching signs nobody out")

        #expect(rig.navigator.switchServer(id: Self.a.absoluteString))
        #expect(await signedIn(rig.navigator, to: Self.a))
        #expect(rig.navigator.signedIn?.session.userID == "u1")
        #expect(!rig.navigator.switchServer(id: "http://nowhere.example"), "an unknown id is refused")
        #expect(rig.forgotten.value.isEmpty)
    }

    /// *Add Server…* then Cancel: back to the pair that was active, signed
    /// in as it was. A first setup has nowhere to go back to.
    @Test func cancellingAnAddedServerGoesBack() async throws {
        // The real screens: server setup's own model is what offers Cancel.
        let navigator = AppNavigator(registry: .standard, dependencies: rig().dependencies)
        navigator.start()
        #expect(await signedIn(navigator, to: Self.a))
        navigator.addServer()
        let setup = try #require(navigator.activeModel(.serverSetup))
        #expect(setup.canCancel)
        setup.send(.cancel)
        #expect(await signedIn(navigator, to: Self.a), "back to A, its session restored")
        #expect(navigator.activeServerID == Self.a.absoluteString)
        navigator.activeModel(.library)?.deactivate()

        let first = AppNavigator(registry: .standard, dependencies: .test())
        first.start()
        for _ in 0..<1000 where first.authState == .initializing { try await Task.sleep(for: .milliseconds(5)) }
        #expect(first.activeModel(.serverSetup)?.canCancel == false, "a first setup has nowhere to go back to")
        first.activeModel(.serverSetup)?.deactivate()
    }

    @Test func removingDeletesTheKeyringItemAndTheFilesThenMovesOn() async throws {
        let rig = rig()
        rig.navigator.start()
        #expect(await signedIn(rig.navigator, to: Self.a))

        // Another pair: the active one stays.
        #expect(await rig.navigator.removeServer(id: Self.b.absoluteString))
        #expect(await rig.dependencies.sessions.load(Self.b) == nil)
        #expect(rig.forgotten.value == ["\(Self.b.absoluteString)|u2"])
        #expect(rig.navigator.savedServers.map(\.id) == [Self.a.absoluteString])
        #expect(rig.navigator.authState.session?.serverURL == Self.a)

        // The active pair, the last: its session ends, then server setup.
        let player = rig.navigator.player
        #expect(await rig.navigator.removeServer(id: Self.a.absoluteString))
        #expect(await rig.dependencies.sessions.load(Self.a) == nil)
        #expect(rig.forgotten.value.last == "\(Self.a.absoluteString)|u1")
        #expect(rig.navigator.savedServers.isEmpty && rig.dependencies.settings.load().serverURL == nil)
        #expect(rig.navigator.authState == .needsServer)
        #expect(rig.navigator.signedIn == nil && player != nil)
        #expect(await !rig.navigator.removeServer(id: Self.a.absoluteString), "gone already")
    }

    @Test func addingAServerKeepsTheSessionSaved() async throws {
        let rig = rig()
        rig.navigator.start()
        #expect(await signedIn(rig.navigator, to: Self.a))
        rig.navigator.addServer()
        #expect(rig.navigator.authState == .needsServer && rig.navigator.signedIn == nil)
        #expect(await rig.dependencies.sessions.load(Self.a) != nil, "the session stays in the keyring")
        #expect(rig.navigator.switchServer(id: Self.a.absoluteString), "a switch is the way back")
        #expect(await signedIn(rig.navigator, to: Self.a))
    }
}
