import Foundation

extension ScreenKey where Model == ServerSetupModel {
    /// Server setup.
    public static var serverSetup: Self { Self(.serverSetup) }
}

extension RouteNode {
    /// Server setup: shown while no server is chosen or one is being checked.
    public static let serverSetup = RouteNode(
        .serverSetup,
        serves: { state in
            switch state {
            case .needsServer, .checkingServer: true
            default: false
            }
        },
        model: { context in
            var checking: ServerAddress?
            if case .checkingServer(let address) = context.authState { checking = address }
            return ServerSetupModel(environment: .init(context), checking: checking)
        },
        previews: ServerSetupModel.previews
    )
}

extension ServerSetupModel.Environment {
    /// The environment a route context provides.
    @MainActor init(_ context: RouteContext) {
        self.init(verifier: context.dependencies.verifier, discovery: context.dependencies.discovery,
                  settings: context.dependencies.settings, logger: context.dependencies.logger, send: context.send)
        returnToSavedServer = context.returnToSavedServer
    }
}

extension ServerSetupModel {
    nonisolated static let previewAddress = (try? ServerAddress.parse("listenup.example.com").get())
    nonisolated static let previewLAN = [
        ("lib-V1StGXR8_Z5jdHi6B-myT", "Living Room", "192.168.1.20:8080"),
        ("lib-Uakgb_J5m9g-0JDMbcJqL", "Study NAS", "nas.local:8080"),
    ].map { id, name, hostAndPort in
        LANServer(id: id, name: name, hostAndPort: hostAndPort, version: "1.0.0",
                  url: URL(string: "http://\(hostAndPort)") ?? URL(fileURLWithPath: "/"))
    }

    /// Every state of the screen, by name, for `--preview serverSetup:NAME`.
    nonisolated static let previews: [PreviewState<ServerSetupModel>] = [
        .init("empty") { _ in },
        .init("typing") { $0.send(.urlChanged("demo.listenup.example")) },
        // *Add Server…* while signed in elsewhere: Cancel goes back.
        .init("adding") { $0.cancelsForPreview = true },
        .init("invalid") { $0.send(.urlChanged("ftp://files.example.com")); $0.send(.connect) },
        .init("checking") { model in
            if let address = previewAddress { model.showForPreview(.checking(address), url: "listenup.example.com") }
        },
        .init("unreachable") { model in
            if let address = previewAddress { model.showForPreview(.failed(address, .unreachable), url: "listenup.example.com") }
        },
        .init("notListenUp") { model in
            if let address = previewAddress { model.showForPreview(.failed(address, .notListenUp("HTML")), url: "listenup.example.com") }
        },
        .init("tlsFailure") { model in
            if let address = previewAddress { model.showForPreview(.failed(address, .tlsFailure), url: "listenup.example.com") }
        },
        .init("discovered") { $0.showForPreview(discovered: previewLAN, discovery: .searching) },
        .init("discoveryUnavailable") {
            $0.showForPreview(discovered: [], discovery: .unavailable(reason: "avahi-daemon is not running"))
        },
    ]
}
