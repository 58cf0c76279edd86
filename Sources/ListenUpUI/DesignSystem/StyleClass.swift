import CAdwaita
import GtkBridge

/// A CSS class name. The design system's classes are typed here; the rules
/// live in `data/style*.css`, never in code.
public struct StyleClass: Hashable, Sendable {
    public let name: String
    public init(_ name: String) { self.name = name }

    /// Any glass surface.
    public static let glass = StyleClass("glass")
    /// Cards and sheets: frosted, the content behind shows through.
    public static let glassRegular = StyleClass("glass-regular")
    /// Subtle overlays: barely tinted.
    public static let glassClear = StyleClass("glass-clear")
    /// Primary actions: brand orange.
    public static let glassTinted = StyleClass("glass-tinted")
    /// Every tappable glass surface: hover and press feedback.
    public static let glassInteractive = StyleClass("glass-interactive")
    /// ``GlassCard``: 16 px corners, soft shadow, padding.
    public static let glassCard = StyleClass("glass-card")
    /// ``GlassContainer``: one glass surface for a group of children.
    public static let glassContainer = StyleClass("glass-container")
    /// On a window: glass is translucent (composited, no high contrast).
    public static let glassTranslucent = StyleClass("glass-translucent")
    /// On a window: glass falls back to opaque Adwaita styles.
    public static let glassOpaque = StyleClass("glass-opaque")
    /// The decorated background glass sits on.
    public static let backdrop = StyleClass("listenup-backdrop")
    /// ``ListenUpButton``.
    public static let listenUpButton = StyleClass("listenup-button")
    /// ``GlassTextField``.
    public static let textField = StyleClass("glass-text-field")
    /// A button showing its spinner.
    public static let loading = StyleClass("loading")
    /// A page's notice line (information, not an error).
    public static let notice = StyleClass("notice")

    // Adwaita's own.
    public static let error = StyleClass("error")
    public static let pill = StyleClass("pill")
    public static let title1 = StyleClass("title-1")
    public static let heading = StyleClass("heading")
    public static let caption = StyleClass("caption")
    public static let dimLabel = StyleClass("dim-label")
    public static let flat = StyleClass("flat")
    public static let destructiveAction = StyleClass("destructive-action")
}

extension GPointer {
    /// Adds CSS classes to this widget.
    @MainActor
    public func addClasses(_ classes: StyleClass...) {
        for c in classes { gtk_widget_add_css_class(widget, c.name) }
    }

    /// Removes a CSS class from this widget.
    @MainActor
    public func removeClass(_ c: StyleClass) {
        gtk_widget_remove_css_class(widget, c.name)
    }

    /// Adds or removes a CSS class.
    @MainActor
    public func setClass(_ c: StyleClass, _ present: Bool) {
        present ? gtk_widget_add_css_class(widget, c.name) : gtk_widget_remove_css_class(widget, c.name)
    }

    /// Whether this widget has the CSS class.
    @MainActor
    public func hasClass(_ c: StyleClass) -> Bool {
        gtk_widget_has_css_class(widget, c.name) != 0
    }
}
