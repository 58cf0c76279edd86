import Foundation
import Observation
import Testing
@testable import ListenUpCore

@MainActor
@Observable
final class ProbeModel: ScreenModel {
    let label: String
    var deactivated = false
    var value = 0
    init(label: String) { self.label = label }
    func deactivate() { deactivated = true }
}

/// A registry with a probe screen for every route, serving the states the
/// design assigns to each.
@MainActor
func probeRegistry() -> RouteRegistry {
    func node(_ route: Route, _ serves: @escaping @Sendable (AuthState) -> Bool) -> RouteNode {
        RouteNode(ScreenKey<ProbeModel>(route), serves: serves, model: { _ in ProbeModel(label: route.rawValue) },
                  previews: [.init("first") { $0.value = 1 }, .init("second") { $0.value = 2 }])
    }
    return RouteRegistry([
        node(.loading) { $0 == .initializing },
        node(.serverSetup) { if case .checkingServer = $0 { true } else { $0 == .needsServer } },
        node(.adminSetup) { $0 == .needsAdminSetup(.closedLoopback) },
        node(.login) { $0 == .needsLogin(.closedLoopback) || $0 == .sessionLapsed(.closedLoopback, .sessionEnded) },
        node(.library) { if case .authenticated = $0 { true } else { false } },
    ])
}

@MainActor
@Suite("AppNavigator")
struct AppNavigatorTests {
    nonisolated static let session = Session.offline(serverURL: URL(string: "https://x.example")!, displayName: "A")

    nonisolated static let table: [(AuthState, Route)] = [
        (.initializing, .loading),
        (.needsServer, .serverSetup),
        (.checkingServer(try! ServerAddress.parse("x.example").get()), .serverSetup),
        (.needsAdminSetup(.closedLoopback), .adminSetup),
        (.needsLogin(.closedLoopback), .login),
        (.sessionLapsed(.closedLoopback, .sessionEnded), .login),
        (.authenticated(session), .library),
    ]

    @Test("resolves the route from the auth state", arguments: table)
    func resolves(state: AuthState, route: Route) {
        let navigator = AppNavigator(registry: probeRegistry(), dependencies: .test())
        navigator.update(state)
        #expect(navigator.activeRoute == route)
        #expect((navigator.activeModel as? ProbeModel)?.label == route.rawValue)
    }

    @Test func startsOnLoadingThenFollowsSettings() {
        let navigator = AppNavigator(registry: .standard, dependencies: .test())
        #expect(navigator.activeRoute == .loading)
        navigator.start()
        #expect(navigator.activeRoute == .serverSetup)
        #expect(navigator.authState == .needsServer)
    }

    func settle(_ navigator: AppNavigator) async {
        for _ in 0..<500 where navigator.authState == .initializing { try? await Task.sleep(for: .milliseconds(5)) }
    }

    @Test func savedServerIsCheckedAgainAtStart() async throws {
        let navigator = AppNavigator(registry: .standard, dependencies: .test(settings: AppSettings(serverURL: "http://10.0.0.2:8080")))
        navigator.start()
        await settle(navigator)
        // Offline in tests: the check fails at once and the state goes back to needsServer.
        #expect(navigator.authState == .checkingServer(try ServerAddress.parse("http://10.0.0.2:8080").get()) || navigator.authState == .needsServer)
        #expect(navigator.activeRoute == .serverSetup)
        #expect((navigator.activeModel as? ServerSetupModel)?.urlText == "http://10.0.0.2:8080")
    }

    @Test func aSavedSessionGoesStraightToTheLibrary() async throws {
        let url = try #require(URL(string: "http://10.0.0.2:8080"))
        let stored = StoredSession(serverURL: url, accessToken: "a", refreshToken: "r", sessionID: "session-1", userID: "user-1",
                                   displayName: "Ada L", email: "ada@example.com", accessExpiresAt: .distantFuture)
        let dependencies = Dependencies.test(settings: AppSettings(serverURL: "http://10.0.0.2:8080"), sessions: .inMemory([stored]))
        let navigator = AppNavigator(registry: probeRegistry(), dependencies: dependencies)
        navigator.start()
        await settle(navigator)
        guard case .authenticated(let session) = navigator.authState else {
            Issue.record("not signed in: \(navigator.authState.name)")
            return
        }
        #expect(session.userID == "user-1" && session.displayName == "Ada L" && session.serverURL == url)
        #expect(await session.connection.currentSession == stored, "the saved session's connection, signed in")
        #expect(navigator.activeRoute == .library)
    }

    @Test func eventsMoveTheStateAndSenselessOnesAreIgnored() throws {
        let navigator = AppNavigator(registry: probeRegistry(), dependencies: .test())
        navigator.start()
        #expect(navigator.authState == .needsServer)
        navigator.send(.signedOut)
        #expect(navigator.authState == .needsServer, "signing out without a session means nothing")
        let address = try ServerAddress.parse("example.com").get()
        navigator.send(.serverChosen(address))
        navigator.send(.serverVerified(.sample(setupRequired: false)))
        #expect(navigator.activeRoute == .login)
    }

    @Test func corruptSavedServerMeansNoServer() {
        let navigator = AppNavigator(registry: .standard, dependencies: .test(settings: AppSettings(serverURL: "javascript:alert(1)")))
        navigator.start()
        #expect(navigator.authState == .needsServer)
    }

    @Test func leavingARouteDeactivatesItsModel() throws {
        let navigator = AppNavigator(registry: probeRegistry(), dependencies: .test())
        navigator.update(.needsServer)
        let first = try #require(navigator.activeModel as? ProbeModel)
        navigator.update(.needsLogin(.closedLoopback))
        #expect(first.deactivated)
        #expect(navigator.activeRoute == .login)
    }

    @Test func sameRouteKeepsItsModel() throws {
        let navigator = AppNavigator(registry: probeRegistry(), dependencies: .test())
        navigator.update(.needsLogin(.closedLoopback))
        let first = try #require(navigator.activeModel as? ProbeModel)
        navigator.update(.sessionLapsed(.closedLoopback, .sessionEnded))
        #expect(navigator.activeModel === first)
        #expect(!first.deactivated)
    }

    @Test func unservedStateFallsBackToLoading() {
        let navigator = AppNavigator(registry: RouteRegistry([.loading, .serverSetup]), dependencies: .test())
        navigator.update(.needsServer)
        navigator.update(.needsLogin(.closedLoopback))
        #expect(navigator.activeRoute == .loading)
        #expect(navigator.activeModel == nil)
    }

    @Test func previewsPutTheModelInANamedState() throws {
        let navigator = AppNavigator(registry: probeRegistry(), dependencies: .test())
        #expect(navigator.preview(.login, state: "second"))
        #expect((navigator.activeModel as? ProbeModel)?.value == 2)
        #expect(!navigator.preview(.login, state: "nope"))
        #expect(!navigator.preview(.pairing, state: nil))
    }

    @Test func everyStandardPreviewApplies() {
        for node in RouteRegistry.standard.nodes {
            for preview in node.previews {
                let navigator = AppNavigator(registry: .standard, dependencies: .test())
                #expect(navigator.preview(node.route, state: preview.name), "\(node.route):\(preview.name)")
                #expect(navigator.activeRoute == node.route)
            }
        }
    }

    @Test func laterRegistrationOfARouteReplacesTheEarlier() {
        var registry = probeRegistry()
        registry.register(RouteNode(ScreenKey<ProbeModel>(.login), serves: { $0 == .needsLogin(.closedLoopback) }, model: { _ in ProbeModel(label: "replacement") }, previews: []))
        #expect(registry.nodes.filter { $0.route == .login }.count == 1)
        let navigator = AppNavigator(registry: registry, dependencies: .test())
        navigator.update(.needsLogin(.closedLoopback))
        #expect((navigator.activeModel as? ProbeModel)?.label == "replacement")
    }
}

extension AuthState: CustomTestStringConvertible {
    public var testDescription: String { name }
}
