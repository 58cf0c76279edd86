import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// The week's listening as seven bars drawn with cairo, today's last and
/// full, the others faded; a day with none is a thin line, so the week
/// reads as a week. The bars are the widget's CSS `color` (`.listening-chart`:
/// the brand colour; high contrast: the text colour), so it follows light,
/// dark and high contrast. The weekday names are labels beneath it (in the
/// template), and the whole is described for screen readers in words.
@MainActor
final class ListeningChart {
    /// The `GtkDrawingArea`.
    let area: Widget
    private(set) var minutes: [Int] = []

    /// - Parameter area: the template's drawing area.
    init(area: Widget) {
        self.area = area
        DrawFunction.set(on: area) { [weak self] canvas in self?.draw(canvas) }
    }

    /// Shows `minutes` (oldest first) and says them in words.
    func show(_ minutes: [Int], dayNames: [String]) {
        if minutes != self.minutes {
            self.minutes = minutes
            area.queueDraw()
        }
        let days = zip(dayNames, minutes).map { name, value in
            // TRANSLATORS: one day of the week's listening chart, for screen readers: "Mon: 12 minutes".
            trn("%@: %@ minute", "%@: %@ minutes", count: value, name, Localization.number(value))
        }
        area.setAccessibleDescription(days.joined(separator: ", "))
    }

    private func draw(_ canvas: DrawFunction.Canvas) {
        guard !minutes.isEmpty else { return }
        var color = GdkRGBA()
        gtk_style_context_get_color(gtk_widget_get_style_context(area.pointer), &color)
        let cairo = canvas.cairo
        let (width, height) = (Double(canvas.width), Double(canvas.height))
        let slot = width / Double(minutes.count)
        let bar = min(28, slot * 0.6)
        let highest = Double(max(minutes.max() ?? 0, 1))
        for (index, value) in minutes.enumerated() {
            let today = index == minutes.count - 1
            let alpha = Double(color.alpha) * (today ? 1 : 0.55)
            cairo_set_source_rgba(cairo, Double(color.red), Double(color.green), Double(color.blue), alpha)
            let barHeight = value > 0 ? max(4, (height - 2) * Double(value) / highest) : 2
            let x = slot * Double(index) + (slot - bar) / 2
            rounded(cairo, x: x, y: height - barHeight, width: bar, height: barHeight, radius: min(6, bar / 2, barHeight / 2))
            cairo_fill(cairo)
        }
    }

    private func rounded(_ cairo: OpaquePointer, x: Double, y: Double, width: Double, height: Double, radius: Double) {
        cairo_new_sub_path(cairo)
        cairo_arc(cairo, x + width - radius, y + radius, radius, -Double.pi / 2, 0)
        cairo_line_to(cairo, x + width, y + height)
        cairo_line_to(cairo, x, y + height)
        cairo_arc(cairo, x + radius, y + radius, radius, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(cairo)
    }
}
