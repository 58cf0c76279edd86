import CAdwaita
import Logging

/// A CSS file loaded into a `GtkCssProvider`, installed on the default display
/// while wanted.
///
/// Parse errors are logged with the file, line and message; a sheet with errors
/// still applies the rules that parsed, as GTK does.
@MainActor
public final class StyleSheet {
    /// The file this sheet was read from.
    public let path: String
    private let provider: GObjectRef<UnsafeMutablePointer<GtkCssProvider>>
    private var installed = false
    private var errorHandler: SignalConnection?

    /// Loads `path`. GTK reads the file at once.
    public init(path: String, logger: Logger) {
        self.path = path
        provider = GObjectRef(taking: gtk_css_provider_new())
        errorHandler = provider.pointer.connect(.parsingError) { location, message in
            logger.warning("CSS parse error", metadata: ["at": "\(location ?? path)", "error": "\(message)"])
        }
        gtk_css_provider_load_from_path(provider.pointer, path)
    }

    /// Whether the sheet currently styles the display.
    public var isInstalled: Bool { installed }

    /// Adds the sheet to the default display at application priority.
    public func install() {
        guard !installed, let display = gdk_display_get_default() else { return }
        gtk_style_context_add_provider_for_display(display, provider.pointer.opaque, guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        installed = true
    }

    /// Removes the sheet from the default display.
    public func uninstall() {
        guard installed, let display = gdk_display_get_default() else { return }
        gtk_style_context_remove_provider_for_display(display, provider.pointer.opaque)
        installed = false
    }

    /// Installs or removes the sheet.
    public func setInstalled(_ wanted: Bool) {
        wanted ? install() : uninstall()
    }
}
