import CAdwaita
import Foundation
import GtkBridge

/// A circular progress ring drawn with cairo: a faint full circle (the
/// track) and an arc from twelve o'clock, clockwise, for the fraction.
///
/// Its colours come from the stylesheet, not from code: the arc is the
/// widget's CSS `color` (`.download-ring`: brand orange; high contrast: the
/// text colour; `.paused`: dimmed), the track the same colour faded. So it
/// follows light, dark and high contrast like any text. Only draws: it
/// takes no clicks (the button around it does) and no focus.
@MainActor
final class DownloadRing {
    /// The `GtkDrawingArea`.
    let widget: UnsafeMutablePointer<GtkWidget>
    /// 0...1.
    private(set) var fraction: Double = 0
    /// The arc's width, relative to the ring's diameter.
    private let thickness: Double

    /// - Parameters:
    ///   - size: the diameter, in pixels (the ring fills its area).
    ///   - thickness: the arc's width as a part of the diameter.
    init(size: Int32, thickness: Double = 0.1) {
        self.thickness = thickness
        widget = newObject(gtk_drawing_area_new())
        gtk_drawing_area_set_content_width(widget.cast(to: GtkDrawingArea.self), size)
        gtk_drawing_area_set_content_height(widget.cast(to: GtkDrawingArea.self), size)
        gtk_widget_set_can_target(widget, 0)
        gtk_widget_set_can_focus(widget, 0)
        widget.addClasses(StyleClass("download-ring"))
        DrawFunction.set(on: widget) { [weak self] canvas in self?.draw(canvas) }
    }

    /// Shows `fraction` (clamped to 0...1); redraws only when it moved.
    func show(_ fraction: Double) {
        let clamped = min(1, max(0, fraction))
        guard abs(clamped - self.fraction) > 0.0005 else { return }
        self.fraction = clamped
        gtk_widget_queue_draw(widget)
    }

    /// Dims the arc (a paused or waiting download).
    func setPaused(_ paused: Bool) {
        widget.setClass(StyleClass("paused"), paused)
    }

    private func draw(_ canvas: DrawFunction.Canvas) {
        var color = GdkRGBA()
        gtk_style_context_get_color(gtk_widget_get_style_context(widget), &color)
        let cairo = canvas.cairo
        let diameter = Double(min(canvas.width, canvas.height))
        guard diameter > 2 else { return }
        let line = max(1.5, diameter * thickness)
        let radius = diameter / 2 - line / 2
        let (x, y) = (Double(canvas.width) / 2, Double(canvas.height) / 2)
        cairo_set_line_width(cairo, line)
        cairo_set_line_cap(cairo, CAIRO_LINE_CAP_ROUND)
        cairo_set_source_rgba(cairo, Double(color.red), Double(color.green), Double(color.blue), Double(color.alpha) * 0.28)
        cairo_arc(cairo, x, y, radius, 0, 2 * Double.pi)
        cairo_stroke(cairo)
        guard fraction > 0 else { return }
        cairo_set_source_rgba(cairo, Double(color.red), Double(color.green), Double(color.blue), Double(color.alpha))
        let start = -Double.pi / 2
        cairo_arc(cairo, x, y, radius, start, start + 2 * Double.pi * fraction)
        cairo_stroke(cairo)
    }
}
