import CAdwaita
import Foundation
import GtkBridge

/// A cover: the picture once it has arrived, and until then (or when the
/// book has none) a placeholder drawn from the title: its initials on a
/// colour picked from the title, so a book keeps its colour.
@MainActor
final class CoverView {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let picture: OpaquePointer
    private let initials: OpaquePointer
    private var colorClass: StyleClass?
    let size: Int

    init(size: Int) {
        self.size = size
        widget = newObject(gtk_overlay_new())
        gtk_widget_set_size_request(widget, Int32(size), Int32(size))
        gtk_widget_set_halign(widget, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(widget, GTK_ALIGN_START)
        gtk_widget_set_overflow(widget, GTK_OVERFLOW_HIDDEN)
        widget.addClasses(StyleClass("book-cover"))
        initials = OpaquePointer(newObject(gtk_label_new(nil)))
        initials.addClasses(StyleClass("book-cover-initials"))
        gtk_widget_set_halign(initials.widget, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(initials.widget, GTK_ALIGN_CENTER)
        gtk_overlay_set_child(widget.opaque, initials.widget)
        picture = OpaquePointer(newObject(gtk_picture_new()))
        gtk_picture_set_content_fit(picture, GTK_CONTENT_FIT_COVER)
        gtk_picture_set_can_shrink(picture, 1)
        gtk_overlay_add_overlay(widget.opaque, picture.widget)
        if size < 80 { widget.addClasses(StyleClass("small")) }
    }

    /// Shows the placeholder for `title`.
    func showPlaceholder(for title: String) {
        gtk_picture_set_paintable(picture, nil)
        gtk_widget_set_visible(picture.widget, 0)
        gtk_label_set_label(initials, Self.initials(of: title))
        if let colorClass { widget.removeClass(colorClass) }
        let color = StyleClass("cover-tint-\(Self.tint(of: title))")
        widget.addClasses(color)
        colorClass = color
    }

    func show(_ texture: CoverTexture) {
        gtk_picture_set_paintable(picture, texture.texture)
        gtk_widget_set_visible(picture.widget, 1)
    }

    /// Up to two initials: the first letters of the first two words.
    static func initials(of title: String) -> String {
        let words = title.split(whereSeparator: { $0.isWhitespace || $0.isPunctuation }).filter { $0.first?.isLetter == true || $0.first?.isNumber == true }
        let letters = words.prefix(2).compactMap(\.first).map { String($0).uppercased() }
        return letters.isEmpty ? "♪" : letters.joined()
    }

    /// One of eight tints, stable for a title (FNV-1a over its UTF-8).
    static func tint(of title: String) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in title.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Int(hash % 8)
    }
}
