import CAdwaita
import GtkBridge
import ListenUpCore

/// The pairing QR code in its white frame, or a spinner while there is
/// none. The code is dark on white in every theme and drawn at one texture
/// pixel per device pixel (an integer number of pixels per module), so it
/// stays crisp; it is drawn again when the scale factor changes.
@MainActor
final class PairingQRView {
    /// The frame holding the picture and the spinner.
    let widget: UnsafeMutablePointer<GtkWidget>
    /// Shows the QR texture at its natural size (never scaled by GTK).
    let picture: OpaquePointer
    private let spinner: OpaquePointer
    private var shownImage: QRImage?
    private var connections: [SignalConnection] = []

    init() {
        picture = OpaquePointer(newObject(gtk_picture_new()))
        // Sized by hand to the image's size in logical pixels (see show).
        gtk_picture_set_can_shrink(picture, 1)
        gtk_widget_set_halign(picture.widget, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(picture.widget, GTK_ALIGN_CENTER)
        picture.widget.setAccessibleLabel(tr("Pairing QR code"))
        gtk_picture_set_alternative_text(picture, tr("Pairing QR code"))
        spinner = OpaquePointer(newObject(gtk_spinner_new()))
        gtk_widget_set_size_request(spinner.widget, 32, 32)
        gtk_widget_set_halign(spinner.widget, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(spinner.widget, GTK_ALIGN_CENTER)
        widget = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))
        widget.addClasses(StyleClass("qr-frame"))
        gtk_widget_set_halign(widget, GTK_ALIGN_CENTER)
        gtk_box_append(widget.cast(to: GtkBox.self), picture.widget)
        gtk_box_append(widget.cast(to: GtkBox.self), spinner.widget)
    }

    /// Draws `image` again whenever the scale factor changes (HiDPI).
    func followScaleFactor(_ image: @escaping @MainActor () -> QRImage?) {
        connections.append(picture.connect(.notify("scale-factor")) { [weak self] in
            guard let self else { return }
            self.shownImage = nil
            self.show(image())
        })
    }

    /// Shows `image`, or the spinner for nil.
    func show(_ image: QRImage?) {
        gtk_widget_set_visible(picture.widget, image == nil ? 0 : 1)
        gtk_widget_set_visible(spinner.widget, image == nil ? 1 : 0)
        gtk_spinner_set_spinning(spinner, image == nil ? 1 : 0)
        guard image != shownImage else { return }
        shownImage = image
        guard let image else {
            gtk_picture_set_paintable(picture, nil)
            return
        }
        // One texture pixel per device pixel: the picture's logical size is
        // the image's, the texture has `scale` times as many pixels, so GTK
        // draws it 1:1 and never smooths a module edge.
        let scale = max(1, Int(gtk_widget_get_scale_factor(picture.widget)))
        let texture = Self.texture(for: image, scale: scale)
        gtk_widget_set_size_request(picture.widget, Int32(image.size), Int32(image.size))
        gtk_picture_set_paintable(picture, texture?.pointer)
    }

    /// Whether the picture shows a texture.
    var showsQR: Bool { gtk_widget_get_visible(picture.widget) != 0 && gtk_picture_get_paintable(picture) != nil }

    /// The image as a texture, each pixel repeated `scale`×`scale` times
    /// (nearest neighbour: the model draws at an integer module size, and
    /// GTK 4.8's GtkPicture has no filter setting, so scaling is done here).
    static func texture(for image: QRImage, scale: Int = 1) -> GObjectRef<OpaquePointer>? {
        let pixels = Self.rgba(image, scale: scale)
        let side = image.size * scale
        let bytes = pixels.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        return gdk_memory_texture_new(Int32(side), Int32(side), GDK_MEMORY_R8G8B8A8, bytes, gsize(side * 4)).map { GObjectRef(taking: $0) }
    }

    /// RGBA bytes of `image` upscaled by `scale` (nearest neighbour).
    nonisolated static func rgba(_ image: QRImage, scale: Int) -> [UInt8] {
        guard scale > 1 else { return image.rgbaPixels }
        let size = image.size, side = size * scale
        var out = [UInt8](repeating: 255, count: side * side * 4)
        image.grayPixels.withUnsafeBufferPointer { gray in
            for y in 0..<side {
                let row = (y / scale) * size
                for x in 0..<side {
                    let value = gray[row + x / scale]
                    let index = (y * side + x) * 4
                    out[index] = value
                    out[index + 1] = value
                    out[index + 2] = value
                }
            }
        }
        return out
    }
}
