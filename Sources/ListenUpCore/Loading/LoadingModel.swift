import Observation

/// The start-up screen, shown while the saved state is read.
@MainActor @Observable
public final class LoadingModel: ScreenModel {
    public init() {}
}

extension ScreenKey where Model == LoadingModel {
    /// Start-up.
    public static var loading: Self { Self(.loading) }
}

extension RouteNode {
    /// Loading: shown while the auth state is not known yet.
    public static let loading = RouteNode(
        .loading,
        serves: { $0 == .initializing },
        model: { _ in LoadingModel() },
        previews: [.init("loading") { _ in }]
    )
}
