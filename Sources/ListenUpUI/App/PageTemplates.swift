import Foundation
import GtkBridge
import ListenUpCore

/// The app's page templates (`data/ui/*.ui`), compiled into one GResource
/// bundle, `listenup.gresource`, by `build-aux/compile-data` (a checkout:
/// `.build/`) and by meson (installed: `<prefix>/share/listenup/`).
///
/// The bundle is registered the first time a template is asked for, so every
/// front that makes pages (the app, previews, the UI tests) gets it without a
/// start-up step of its own, and a start that shows no page pays nothing.
@MainActor
enum PageTemplates {
    /// Where templates live in the bundle.
    static let prefix = "/io/github/listenup/Desktop/ui/"

    /// The bundle registered, once a template was asked for.
    private(set) static var bundlePath: String?

    /// The template `name` (`data/ui/<name>.ui`).
    static func load(_ name: String) -> Template {
        // Checked here, not only in `registerBundle`: its default arguments
        // (the environment as a dictionary, the executable's path read from
        // /proc) would be made again for every book cell of a list.
        if bundlePath == nil { registerBundle() }
        return Template(resource: prefix + name + ".ui", domain: Localization.domain)
    }

    /// Registers the first bundle found: `LISTENUP_DATA_DIR`'s, the
    /// installed one, then the checkout's. Traps with the way out when none
    /// is found: without it no page can be made.
    static func registerBundle(environment: [String: String] = ProcessInfo.processInfo.environment,
                               locations: ResourceLocations = ResourceLocations()) {
        guard bundlePath == nil else { return }
        let candidates = locations.templateBundles(environment: environment)
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0) && TemplateBundle.register(path: $0) }) else {
            fatalError("No page templates (listenup.gresource) in \(candidates): run build-aux/compile-data")
        }
        bundlePath = found
    }
}
