import CAdwaita
import GtkBridge
import ListenUpCore

/// Start-up: a spinner on the backdrop while the saved state is read
/// (`data/ui/loading-page.ui`).
@MainActor
final class LoadingPage: RoutePage {
    var widget: UnsafeMutablePointer<GtkWidget> { root.pointer }
    private let root: Box
    private let ref: GObjectRef<UnsafeMutablePointer<GtkWidget>>

    init(model: LoadingModel) {
        (root, ref) = PageTemplates.load("loading-page").root("root")
    }

    func teardown() {}
}
