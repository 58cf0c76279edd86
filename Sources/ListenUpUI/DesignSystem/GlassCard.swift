import CAdwaita
import GtkBridge

/// A glass card: 16 px corners, soft shadow, padding, children stacked
/// vertically. The regular variant unless told otherwise.
@MainActor
public final class GlassCard {
    /// The card's root widget (a vertical `GtkBox`).
    public let widget: UnsafeMutablePointer<GtkWidget>
    private let ref: GObjectRef<UnsafeMutablePointer<GtkWidget>>

    /// - Parameters:
    ///   - variant: `.regular` (cards, sheets) or `.clear` (subtle overlays).
    ///   - spacing: pixels between children.
    public init(variant: GlassVariant = .regular, spacing: Int32 = 12) {
        widget = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, spacing))
        ref = GObjectRef(borrowing: widget)
        widget.addClasses(.glass, .glassCard, variant.styleClass)
    }

    /// Appends a child.
    public func append(_ child: some GPointer) {
        gtk_box_append(widget.cast(to: GtkBox.self), child.widget)
    }
}

/// Groups glass surfaces into one: the container draws the glass, and glass
/// children inside it draw none of their own, so glass never sits on glass.
@MainActor
public final class GlassContainer {
    /// The container's root widget (a `GtkBox`).
    public let widget: UnsafeMutablePointer<GtkWidget>
    private let ref: GObjectRef<UnsafeMutablePointer<GtkWidget>>

    /// - Parameters:
    ///   - orientation: how children are laid out.
    ///   - spacing: pixels between children.
    public init(orientation: GtkOrientation = GTK_ORIENTATION_VERTICAL, spacing: Int32 = 0) {
        widget = newObject(gtk_box_new(orientation, spacing))
        ref = GObjectRef(borrowing: widget)
        widget.addClasses(.glass, .glassContainer, .glassRegular)
    }

    /// Appends a child; a glass child loses its own glass fill here.
    public func append(_ child: some GPointer) {
        gtk_box_append(widget.cast(to: GtkBox.self), child.widget)
    }
}
