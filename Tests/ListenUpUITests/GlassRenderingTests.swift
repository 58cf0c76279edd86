import CAdwaita
import GtkBridge
import XCTest
@testable import ListenUpUI

/// Pixel-level proof of the glass mapping: what the renderer really draws.
final class GlassRenderingTests: XCTestCase {
    func testTranslucentCardBlendsWithWhatIsBehindIt() throws {
        try MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let pixels = try cardPixels(mode: .translucent)
            XCTAssertLessThan(pixels.alone.alpha, 250, "a translucent card must not be opaque: \(pixels.alone)")
            XCTAssertGreaterThan(pixels.alone.alpha, 60, "the card still has a body: \(pixels.alone)")
            // Over green the pixel is greenish, over blue bluish: a blend.
            XCTAssertGreaterThan(pixels.onGreen.distance(to: pixels.onBlue), 40, "\(pixels.onGreen) vs \(pixels.onBlue)")
            XCTAssertGreaterThan(Int(pixels.onGreen.green), Int(pixels.onGreen.blue))
            XCTAssertGreaterThan(Int(pixels.onBlue.blue), Int(pixels.onBlue.green))
            // And neither pure backdrop nor pure card colour.
            XCTAssertGreaterThan(pixels.onGreen.distance(to: .init(red: 0, green: 255, blue: 0, alpha: 255)), 40)
            XCTAssertGreaterThan(pixels.onGreen.distance(to: .init(red: 255, green: 255, blue: 255, alpha: 255)), 40)
        }
    }

    func testOpaqueFallbackCardHidesWhatIsBehindIt() throws {
        try MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let pixels = try cardPixels(mode: .opaque)
            XCTAssertEqual(pixels.alone.alpha, 255, "the fallback card must be opaque: \(pixels.alone)")
            XCTAssertLessThanOrEqual(pixels.onGreen.distance(to: pixels.onBlue), 2, "\(pixels.onGreen) vs \(pixels.onBlue)")
        }
    }

    func testButtonFeedbackOnBothPaths() throws {
        try MainActor.assumeIsolated {
            guard requireGtk() else { return }
            for mode in [GlassMode.translucent, .opaque] {
                let c = try buttonColours(mode: mode)
                let normal = try XCTUnwrap(c["normal"]), hover = try XCTUnwrap(c["hover"]), pressed = try XCTUnwrap(c["pressed"])
                XCTAssertGreaterThan(normal.distance(to: hover), 6, "\(mode): hover \(hover) vs normal \(normal)")
                XCTAssertGreaterThan(normal.distance(to: pressed), 6, "\(mode): pressed \(pressed) vs normal \(normal)")
                XCTAssertGreaterThan(hover.distance(to: pressed), 6, "\(mode): hover \(hover) vs pressed \(pressed)")
                // Brand orange family: red well above blue.
                XCTAssertGreaterThan(Int(normal.red) - Int(normal.blue), 80, "\(mode): \(normal)")
                XCTAssertGreaterThan(normal.distance(to: try XCTUnwrap(c["disabled"])), 6, "\(mode): disabled looks enabled")
                XCTAssertLessThanOrEqual(normal.distance(to: try XCTUnwrap(c["loading"])), 20, "\(mode): loading must not look disabled")
            }
        }
    }

    func testContainerSuppressesGlassOnGlass() throws {
        try MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let theme = GlassTheme(data: checkoutData(), override: .translucent, logger: quietLogger)
            defer { theme.invalidate() }
            let container = GlassContainer()
            let inner = GlassCard()
            gtk_widget_set_size_request(inner.widget, 160, 100)
            container.append(inner.widget)
            let window = TestWindow(child: container.widget)
            defer { window.close() }
            theme.attach(window.window)
            window.settle()
            let innerAlone = try XCTUnwrap(WidgetRenderer.image(of: inner.widget)).pixel(x: 80, y: 50)
            XCTAssertEqual(innerAlone.alpha, 0, "glass inside a container draws no fill of its own: \(innerAlone)")
            let containerPixel = try XCTUnwrap(WidgetRenderer.image(of: container.widget)).pixel(x: 80, y: 50)
            XCTAssertGreaterThan(containerPixel.alpha, 0, "the container is the glass")
            XCTAssertLessThan(containerPixel.alpha, 250)
        }
    }
}

/// Two backdrops of very different colours; a card on each.
@MainActor
private func cardPixels(mode: GlassMode) throws -> (alone: RenderedImage.Pixel, onGreen: RenderedImage.Pixel, onBlue: RenderedImage.Pixel) {
    let theme = GlassTheme(data: checkoutData(), override: mode, logger: quietLogger)
    defer { theme.invalidate() }
    XCTAssertEqual(theme.mode, mode)
    let css = TestCSS(".test-green { background-color: #00ff00; } .test-blue { background-color: #0000ff; }")
    defer { css.remove() }

    let row = newObject(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0))
    gtk_widget_set_size_request(row, 480, 200)
    var cards: [GlassCard] = []
    var backdrops: [UnsafeMutablePointer<GtkWidget>] = []
    for color in ["test-green", "test-blue"] {
        let backdrop = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))
        gtk_widget_add_css_class(backdrop, color)
        gtk_widget_set_hexpand(backdrop, 1)
        let card = GlassCard()
        gtk_widget_set_size_request(card.widget, 160, 120)
        gtk_widget_set_margin_top(card.widget, 40)
        gtk_widget_set_margin_start(card.widget, 40)
        gtk_widget_set_halign(card.widget, GTK_ALIGN_START)
        gtk_widget_set_valign(card.widget, GTK_ALIGN_START)
        gtk_box_append(backdrop.cast(to: GtkBox.self), card.widget)
        gtk_box_append(row.cast(to: GtkBox.self), backdrop)
        cards.append(card)
        backdrops.append(backdrop)
    }
    let window = TestWindow(child: row)
    defer { window.close() }
    theme.attach(window.window)
    window.settle()

    let alone = try XCTUnwrap(WidgetRenderer.image(of: cards[0].widget)).pixel(x: 80, y: 60)
    // The card's centre inside its backdrop: margins 40 + half the card.
    let green = try XCTUnwrap(WidgetRenderer.image(of: backdrops[0])).pixel(x: 120, y: 100)
    let blue = try XCTUnwrap(WidgetRenderer.image(of: backdrops[1])).pixel(x: 120, y: 100)
    return (alone, green, blue)
}

@MainActor
private func buttonColours(mode: GlassMode) throws -> [String: RenderedImage.Pixel] {
    let theme = GlassTheme(data: checkoutData(), override: mode, logger: quietLogger)
    defer { theme.invalidate() }
    let button = ListenUpButton(title: "Connect")
    gtk_widget_set_size_request(button.widget, 240, 40)
    let box = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))
    gtk_widget_set_halign(button.widget, GTK_ALIGN_CENTER)
    gtk_widget_set_valign(button.widget, GTK_ALIGN_CENTER)
    gtk_widget_set_vexpand(button.widget, 1)
    gtk_box_append(box.cast(to: GtkBox.self), button.widget)
    let window = TestWindow(child: box)
    defer { window.close() }
    theme.attach(window.window)
    window.settle()

    func sample() throws -> RenderedImage.Pixel {
        window.settle()
        let image = try XCTUnwrap(WidgetRenderer.image(of: button.widget))
        return image.pixel(x: 34, y: image.height / 2) // inside the capsule, clear of the label
    }
    var colours: [String: RenderedImage.Pixel] = [:]
    colours["normal"] = try sample()
    gtk_widget_set_state_flags(button.widget, GTK_STATE_FLAG_PRELIGHT, 0)
    colours["hover"] = try sample()
    gtk_widget_set_state_flags(button.widget, GTK_STATE_FLAG_ACTIVE, 0)
    colours["pressed"] = try sample()
    gtk_widget_unset_state_flags(button.widget, GtkStateFlags(rawValue: GTK_STATE_FLAG_PRELIGHT.rawValue | GTK_STATE_FLAG_ACTIVE.rawValue))
    button.isEnabled = false
    colours["disabled"] = try sample()
    button.isEnabled = true
    button.setLoading(true)
    colours["loading"] = try sample()
    return colours
}
