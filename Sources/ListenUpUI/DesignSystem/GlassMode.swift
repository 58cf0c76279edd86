/// How glass surfaces are drawn.
public enum GlassMode: String, Equatable, Sendable {
    /// Translucent fills over the backdrop: needs a compositing display.
    case translucent
    /// Opaque Adwaita fills: no compositing, or high contrast is on.
    case opaque

    /// Decides the mode.
    /// - Parameters:
    ///   - composited: `gdk_display_is_composited()` for the window's display.
    ///   - highContrast: libadwaita's high-contrast setting.
    ///   - override: a forced mode (`LISTENUP_GLASS=translucent|opaque`), used
    ///     by screenshots and tests on displays that do not composite. High
    ///     contrast still wins over a forced `translucent`.
    public static func resolve(composited: Bool, highContrast: Bool, override: GlassMode? = nil) -> GlassMode {
        if highContrast { return .opaque }
        if let override { return override }
        return composited ? .translucent : .opaque
    }

    /// The window class that selects this mode's CSS rules.
    var styleClass: StyleClass { self == .translucent ? .glassTranslucent : .glassOpaque }
}
