import CAdwaita
import GtkBridge
import XCTest
@testable import ListenUpUI

/// The set-up pages' layout (`form-page.ui`): the column stands in the middle
/// of a window with room to spare, and scrolls from its top in one without.
final class FormPageLayoutTests: XCTestCase {
    func testTheColumnIsCentredWithRoomToSpareAndScrollsWithout() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let tall = Self.layout()
            let tallWindow = TestWindow(child: tall.widget, width: 700, height: 1000)
            defer { tallWindow.close() }
            let (above, below) = Self.space(around: tall)
            XCTAssertGreaterThan(above, 100, "a tall window leaves room above the column")
            XCTAssertEqual(above, below, accuracy: 1, "the column stands in the middle")

            let short = Self.layout()
            let shortWindow = TestWindow(child: short.widget, width: 700, height: 150)
            defer { shortWindow.close() }
            XCTAssertEqual(Self.space(around: short).above, 36, accuracy: 0.5, "only the column's margin above it")
            let scrolling = gtk_scrolled_window_get_vadjustment(short.widget.opaque)
            XCTAssertGreaterThan(gtk_adjustment_get_upper(scrolling), gtk_adjustment_get_page_size(scrolling) + 50,
                                 "the column scrolls")
        }
    }

    @MainActor
    private static func layout() -> FormPageLayout {
        let layout = FormPageLayout(icon: "network-server-symbolic", title: "Connect to Your Server",
                                    subtitle: "Enter the address of your ListenUp server to get started.")
        let text: UnsafeMutablePointer<GtkWidget> = newObject(gtk_label_new("A card's content"))
        layout.card.append(text)
        return layout
    }

    /// The page's height above and below the column's box, margins included.
    @MainActor
    private static func space(around layout: FormPageLayout) -> (above: Float, below: Float) {
        var bounds = graphene_rect_t()
        XCTAssertNotEqual(gtk_widget_compute_bounds(layout.column.widget, layout.widget, &bounds), 0)
        let scrolled = gtk_adjustment_get_upper(gtk_scrolled_window_get_vadjustment(layout.widget.opaque))
        return (bounds.origin.y, Float(scrolled) - bounds.origin.y - bounds.size.height)
    }
}
