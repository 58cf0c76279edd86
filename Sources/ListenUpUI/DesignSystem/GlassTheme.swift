import CAdwaita
import GtkBridge
import Logging

/// Applies the glass design to the app's windows.
///
/// Loads `style.css` always, `style-dark.css` while libadwaita is dark and
/// `style-hc.css` while high contrast is on, and marks every window with the
/// current ``GlassMode`` class. The mode is decided at start-up from the
/// display's compositing and libadwaita's high contrast, and decided again on
/// `notify::high-contrast`; dark mode follows `AdwStyleManager`.
@MainActor
public final class GlassTheme {
    /// The current mode.
    public private(set) var mode: GlassMode
    private let override: GlassMode?
    private let base: StyleSheet?
    private let dark: StyleSheet?
    private let highContrast: StyleSheet?
    private var windows: [GWeakObject] = []
    private var connections: [SignalConnection] = []
    private let logger: Logger

    /// - Parameters:
    ///   - data: where the CSS files are; nil leaves the app on plain Adwaita
    ///     (logged once).
    ///   - override: forced mode (see ``GlassMode/resolve(composited:highContrast:override:)``).
    public init(data: DataDirectory?, override: GlassMode?, logger: Logger) {
        self.override = override
        self.logger = logger
        if let data {
            logger.debug("Styles: CSS from \(data.url.path)")
            base = StyleSheet(path: data.file("style.css").path, logger: logger)
            dark = StyleSheet(path: data.file("style-dark.css").path, logger: logger)
            highContrast = StyleSheet(path: data.file("style-hc.css").path, logger: logger)
        } else {
            logger.warning("No data folder with style.css found; the glass styles are off")
            base = nil; dark = nil; highContrast = nil
        }
        mode = .opaque
        base?.install()
        if let manager = adw_style_manager_get_default() {
            connections.append(manager.connect(.notify("dark")) { [weak self] in self?.update() })
            connections.append(manager.connect(.notify("high-contrast")) { [weak self] in self?.update() })
        }
        update()
    }

    /// Whether libadwaita currently draws dark.
    public var isDark: Bool { adw_style_manager_get_dark(adw_style_manager_get_default()) != 0 }
    /// Whether high contrast is on.
    public var isHighContrast: Bool { adw_style_manager_get_high_contrast(adw_style_manager_get_default()) != 0 }

    /// Styles `window` with the current mode, now and on every change.
    public func attach(_ window: some GPointer) {
        windows.append(GWeakObject(window))
        apply(to: window.rawPointer)
    }

    /// Decides the mode again from the display and style manager, and restyles.
    public func update() {
        dark?.setInstalled(isDark)
        highContrast?.setInstalled(isHighContrast)
        let newMode = GlassMode.resolve(composited: GtkRuntime.displayIsComposited, highContrast: isHighContrast, override: override)
        if newMode != mode {
            logger.debug("Glass mode", metadata: ["mode": "\(newMode.rawValue)"])
        }
        mode = newMode
        windows.removeAll { !$0.isAlive }
        for window in windows {
            guard let strong = window.strongReference() else { continue }
            apply(to: strong.pointer)
        }
    }

    /// Removes the style sheets and stops following the style manager.
    /// Windows keep their last mode class.
    public func invalidate() {
        for connection in connections { connection.disconnect() }
        connections.removeAll()
        base?.uninstall(); dark?.uninstall(); highContrast?.uninstall()
        windows.removeAll()
    }

    private func apply(to window: UnsafeMutableRawPointer) {
        window.setClass(.glassTranslucent, mode == .translucent)
        window.setClass(.glassOpaque, mode == .opaque)
    }
}
