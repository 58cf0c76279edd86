import CAdwaita
import GtkBridge
import XCTest
@testable import ListenUpUI

/// The progress ring, as the renderer draws it: an arc in the widget's CSS
/// colour from twelve o'clock clockwise for the fraction, the rest of the
/// circle a faint track of the same colour, and a redraw when it moves.
final class DownloadRingTests: XCTestCase {
    func testTheArcCoversTheFractionClockwiseInTheCSSColour() throws {
        try MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let css = TestCSS(".download-ring { color: #ff0000; }")
            defer { css.remove() }
            let ring = DownloadRing(size: 40, thickness: 0.2)
            gtk_widget_set_halign(ring.widget, GTK_ALIGN_START)
            gtk_widget_set_valign(ring.widget, GTK_ALIGN_START)
            let window = TestWindow(child: ring.widget, width: 40, height: 40)
            defer { window.close() }

            ring.show(0.25)
            window.settle()
            let quarter = try XCTUnwrap(WidgetRenderer.image(of: ring.widget))
            let red = RenderedImage.Pixel(red: 255, green: 0, blue: 0, alpha: 255)
            // The arc's middle runs 4 px in from the edge (a 8 px line).
            let top = quarter.pixel(x: 20, y: 4), right = quarter.pixel(x: 36, y: 20)
            let bottom = quarter.pixel(x: 20, y: 36), left = quarter.pixel(x: 4, y: 20)
            XCTAssertLessThanOrEqual(top.distance(to: red), 12, "twelve o'clock is where the arc starts: \(top)")
            XCTAssertLessThanOrEqual(right.distance(to: red), 12, "a quarter reaches three o'clock: \(right)")
            for track in [bottom, left] {
                XCTAssertGreaterThan(track.alpha, 40, "the track is drawn: \(track)")
                XCTAssertGreaterThan(track.distance(to: red), 60, "the track is faint: \(track)")
                XCTAssertGreaterThan(Int(track.red), Int(track.green) + 20, "in the same colour: \(track)")
            }
            XCTAssertEqual(quarter.pixel(x: 20, y: 20).alpha, 0, "the middle is left to the icon")

            ring.show(0.75)
            window.settle()
            let threeQuarters = try XCTUnwrap(WidgetRenderer.image(of: ring.widget))
            XCTAssertLessThanOrEqual(threeQuarters.pixel(x: 20, y: 36).distance(to: red), 12, "half way round")
            XCTAssertLessThanOrEqual(threeQuarters.pixel(x: 4, y: 20).distance(to: red), 12, "nine o'clock")
        }
    }
}
