import CAdwaita
import Foundation
import GtkBridge

/// A cover (`data/ui/cover-view.ui`): the picture once it has arrived, and
/// until then (or when the book has none) a placeholder drawn from the
/// title: its initials on a colour picked from the title, so a book keeps
/// its colour.
@MainActor
final class CoverView {
    /// The overlay: the initials, the picture over them, and whatever the
    /// place showing the cover lays over it (`addOverlay`).
    var widget: UnsafeMutablePointer<GtkWidget> { root.pointer }
    private let root: GObjectRef<UnsafeMutablePointer<GtkWidget>>
    private let overlay: Overlay
    private let picture: Picture
    private let initials: Label
    private var colorClass: StyleClass?
    let size: Int

    init(size: Int) {
        self.size = size
        let ui = PageTemplates.load("cover-view")
        (overlay, root) = ui.root("root", as: Overlay.self)
        (picture, initials) = (ui.child("picture"), ui.child("initials"))
        overlay.setSizeRequest(width: size, height: size)
        if size < 80 { overlay.addClasses(StyleClass("small")) }
    }

    /// Lays `widget` over the cover (a card's Play and download buttons).
    func addOverlay(_ widget: some GPointer) { overlay.addOverlay(widget) }

    /// Shows the placeholder for `title`.
    func showPlaceholder(for title: String) {
        picture.clearPaintable()
        picture.isVisible = false
        initials.text = Self.initials(of: title)
        if let colorClass { widget.removeClass(colorClass) }
        let color = StyleClass("cover-tint-\(Self.tint(of: title))")
        widget.addClasses(color)
        colorClass = color
    }

    func show(_ texture: CoverTexture) {
        picture.setPaintable(texture.texture)
        picture.isVisible = true
    }

    /// The placeholder's initials (tests).
    var placeholderText: String { initials.text }

    /// Whether a picture is shown over the placeholder.
    var showsPicture: Bool { picture.isVisible && picture.hasPaintable }

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
