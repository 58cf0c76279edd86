/// The glass variants of the design, as CSS classes.
public enum GlassVariant: Sendable, CaseIterable {
    /// Cards and sheets.
    case regular
    /// Subtle overlays.
    case clear
    /// Primary buttons, brand orange `#FF6B4A`.
    case tinted
    /// Tappable glass surfaces (combine with another variant).
    case interactive

    /// The class that draws the variant.
    public var styleClass: StyleClass {
        switch self {
        case .regular: .glassRegular
        case .clear: .glassClear
        case .tinted: .glassTinted
        case .interactive: .glassInteractive
        }
    }
}
