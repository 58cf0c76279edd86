extension RouteNode {
    /// Server setup: shown while no server is chosen or one is being checked.
    public static let serverSetup = RouteNode(
        route: .serverSetup,
        serves: { state in
            switch state {
            case .needsServer, .checkingServer: true
            default: false
            }
        },
        model: { context in
            if case .checkingServer(let address) = context.authState {
                return ServerSetupModel(address: address)
            }
            return ServerSetupModel()
        },
        previews: [
            .init("empty") { _ in },
            .init("typing") { $0.send(.urlChanged("demo.listenup.example")) },
            .init("invalid") { $0.send(.urlChanged("ftp://files.example.com")); $0.send(.connect) },
            .init("verificationUnavailable") { $0.send(.urlChanged("listenup.example.com:8080/")); $0.send(.connect) },
        ]
    )
}
