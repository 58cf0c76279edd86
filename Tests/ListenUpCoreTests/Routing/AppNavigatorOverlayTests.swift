import Foundation
import QRCode
import Testing
@testable import ListenUpCore

/// The probe registry plus a pairing overlay that serves no auth state.
@MainActor
func overlayRegistry() -> RouteRegistry {
    var registry = probeRegistry()
    registry.register(RouteNode(ScreenKey<ProbeModel>(.pairing), serves: { _ in false }, model: { _ in ProbeModel(label: "pairing") },
                                previews: [.init("first") { $0.value = 1 }]))
    return registry
}

@MainActor
@Suite("AppNavigator overlays")
struct AppNavigatorOverlayTests {
    @Test func anOverlayOpensOverTheAuthScreenAndClosesBackToIt() throws {
        let navigator = AppNavigator(registry: overlayRegistry(), dependencies: .test())
        navigator.update(.needsLogin(.closedLoopback))
        let login = try #require(navigator.activeModel as? ProbeModel)
        #expect(navigator.open(.pairing))
        #expect(navigator.activeRoute == .pairing)
        #expect(navigator.overlayRoute == .pairing)
        let pairing = try #require(navigator.activeModel as? ProbeModel)
        #expect(pairing.label == "pairing")
        #expect(!login.deactivated, "the screen underneath lives on")

        navigator.closeOverlay()
        #expect(pairing.deactivated)
        #expect(navigator.overlayRoute == nil)
        #expect(navigator.activeRoute == .login)
        #expect(navigator.activeModel === login, "back to where the user was, same model")
    }

    @Test func theAuthStateMovesUnderneathAnOpenOverlay() throws {
        let navigator = AppNavigator(registry: overlayRegistry(), dependencies: .test())
        navigator.update(.needsServer)
        let setup = try #require(navigator.activeModel as? ProbeModel)
        navigator.open(.pairing)
        let pairing = try #require(navigator.activeModel as? ProbeModel)
        navigator.update(.authenticated(Session.offline(serverURL: try #require(URL(string: "https://x.example")), userID: "u", displayName: "A")))
        #expect(navigator.activeRoute == .pairing, "the overlay stays on screen")
        #expect(navigator.activeModel === pairing)
        #expect(setup.deactivated, "the old base screen went away underneath")
        #expect(!pairing.deactivated)
        navigator.closeOverlay()
        #expect(navigator.activeRoute == .library)
        #expect((navigator.activeModel as? ProbeModel)?.label == "library")
    }

    @Test func openingTwiceKeepsTheModelAndUnknownRoutesAreRefused() throws {
        let navigator = AppNavigator(registry: overlayRegistry(), dependencies: .test())
        navigator.update(.needsLogin(.closedLoopback))
        navigator.open(.pairing)
        let pairing = try #require(navigator.activeModel as? ProbeModel)
        #expect(navigator.open(.pairing))
        #expect(navigator.activeModel === pairing && !pairing.deactivated)
        let bare = AppNavigator(registry: probeRegistry(), dependencies: .test())
        #expect(!bare.open(.pairing))
        #expect(bare.overlayRoute == nil)
        bare.closeOverlay() // nothing open: nothing happens
        #expect(bare.activeRoute == .loading)
    }

    @Test func theOverlaysModelCanCloseItselfAndStatusFollowsTheScreen() throws {
        let dependencies = Dependencies.test()
        let navigator = AppNavigator(registry: .standard, dependencies: dependencies)
        navigator.start()
        #expect(dependencies.pairingStatus.value.activeRoute == "serverSetup")
        navigator.open(.pairing)
        let model = try #require(navigator.activeModel as? PairingModel)
        #expect(dependencies.pairingStatus.value.activeRoute == "pairing")
        model.dismiss()
        #expect(navigator.activeRoute == .serverSetup)
        #expect(model.phase == .closed, "leaving the screen closes pairing")
        #expect(dependencies.pairingStatus.value.activeRoute == "serverSetup")
    }

    @Test func pairingPreviewsNeedNoNetwork() throws {
        for state in ["open", "request", "expired", "devices", "failed"] {
            var dependencies = Dependencies.test()
            dependencies.qrEncoder = .libqrencode
            let navigator = AppNavigator(registry: .standard, dependencies: dependencies)
            #expect(navigator.preview(.pairing, state: state))
            let model = try #require(navigator.activeModel as? PairingModel)
            switch state {
            case "open": #expect(model.qrImage != nil && model.codeValidUntil != nil)
            case "devices": #expect(model.devices.count == 3)
            case "request": #expect(model.request?.comparisonCode.count == 6)
            case "expired": #expect(model.phase == .expired)
            default: if case .failed = model.phase {} else { Issue.record("not failed: \(model.phase)") }
            }
        }
    }
}
