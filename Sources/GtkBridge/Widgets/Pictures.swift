import CAdwaita

/// `GtkPicture`: shows a paintable (a texture).
public struct Picture: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { gtk_picture_get_type() }
}

@MainActor
extension Picture {
    /// Shows `paintable` (a `GdkPaintable`, such as a `GdkTexture`), or
    /// nothing for nil. The picture takes a reference of its own.
    public func setPaintable(_ paintable: (some GPointer)?) {
        gtk_picture_set_paintable(opaque, paintable?.opaque)
    }

    /// Shows nothing.
    public func clearPaintable() { gtk_picture_set_paintable(opaque, nil) }

    /// Whether a paintable is shown.
    public var hasPaintable: Bool { gtk_picture_get_paintable(opaque) != nil }
}

/// `AdwAvatar`: a round picture of a person, their initials when there is none.
public struct Avatar: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { adw_avatar_get_type() }
}

@MainActor
extension Avatar {
    /// The name the initials (and the colour) come from.
    public var text: String {
        get { adw_avatar_get_text(opaque).map { String(cString: $0) } ?? "" }
        nonmutating set { adw_avatar_set_text(opaque, newValue) }
    }

    /// Shows `paintable` (a `GdkTexture`) cropped to the circle, or the
    /// initials again for nil. The avatar takes a reference of its own.
    public func setCustomImage(_ paintable: (some GPointer)?) {
        adw_avatar_set_custom_image(opaque, paintable?.opaque)
    }

    /// Shows the initials again.
    public func clearCustomImage() { adw_avatar_set_custom_image(opaque, nil) }

    /// Whether a picture (not the initials) is shown.
    public var hasCustomImage: Bool { adw_avatar_get_custom_image(opaque) != nil }
}

@MainActor
extension Spinner {
    /// Whether the spinner turns.
    public var isSpinning: Bool { gtk_spinner_get_spinning(opaque) != 0 }
}

/// `GtkOverlay`: a child with widgets laid over it.
public struct Overlay: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { gtk_overlay_get_type() }
}

@MainActor
extension Overlay {
    /// Lays `widget` over the child, above the overlays added before.
    public func addOverlay(_ widget: some GPointer) { gtk_overlay_add_overlay(opaque, widget.widget) }
}

@MainActor
extension WidgetHandle {
    /// The smallest size the widget asks for (-1: its natural size).
    public func setSizeRequest(width: Int, height: Int) {
        gtk_widget_set_size_request(pointer, Int32(width), Int32(height))
    }

    /// How the widget sits down the room it is given.
    public var valign: GtkAlign {
        get { gtk_widget_get_valign(pointer) }
        nonmutating set { gtk_widget_set_valign(pointer, newValue) }
    }

    /// The room kept free before the widget (left, in a left-to-right
    /// language), in pixels.
    public var marginStart: Int {
        get { Int(gtk_widget_get_margin_start(pointer)) }
        nonmutating set { gtk_widget_set_margin_start(pointer, Int32(newValue)) }
    }

    /// How many device pixels a logical pixel is, on the widget's monitor.
    public var scaleFactor: Int { Int(gtk_widget_get_scale_factor(pointer)) }
}
