import Foundation

extension ScreenKey where Model == LibraryModel {
    /// The library.
    public static var library: Self { Self(.library) }
}

extension RouteNode {
    /// The library: signed in.
    public static let library = RouteNode(
        .library,
        serves: { if case .authenticated = $0 { true } else { false } },
        model: { context in
            // Signed in: the session's own library, which lives as long as it.
            if let signedIn = context.signedIn { return signedIn.library }
            var session: Session?
            if case .authenticated(let current) = context.authState { session = current }
            return LibraryModel(dependencies: context.dependencies, session: session, player: context.player,
                                downloads: context.downloads, send: context.send)
        },
        previews: LibraryModel.previews + LibraryModel.browsePreviews + LibraryModel.facetPreviews
    )
}
