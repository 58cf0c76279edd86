import CAdwaita
import GtkBridge
import ListenUpCore

/// The pairing QR code in its white frame, or a spinner while there is
/// none (`data/ui/pairing-qr.ui`). The code is dark on white in every theme
/// and drawn at one texture pixel per device pixel (an integer number of
/// pixels per module), so it stays crisp; it is drawn again when the scale
/// factor changes.
@MainActor
final class PairingQRView {
    /// The frame holding the picture and the spinner.
    var widget: UnsafeMutablePointer<GtkWidget> { root.pointer }
    private let root: GObjectRef<UnsafeMutablePointer<GtkWidget>>
    /// Shows the QR texture at its natural size (never scaled by GTK).
    let picture: Picture
    private let spinner: Spinner
    private var shownImage: QRImage?
    private var connections: [SignalConnection] = []

    init() {
        let ui = PageTemplates.load("pairing-qr")
        (_, root) = ui.root("root", as: Box.self)
        // The picture is sized by hand to the image's size in logical pixels (see show).
        (picture, spinner) = (ui.child("picture"), ui.child("spinner"))
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
        picture.isVisible = image != nil
        spinner.run(image == nil)
        guard image != shownImage else { return }
        shownImage = image
        guard let image else {
            picture.clearPaintable()
            return
        }
        // One texture pixel per device pixel: the picture's logical size is
        // the image's, the texture has `scale` times as many pixels, so GTK
        // draws it 1:1 and never smooths a module edge.
        let scale = max(1, picture.scaleFactor)
        let texture = Self.texture(for: image, scale: scale)
        picture.setSizeRequest(width: image.size, height: image.size)
        picture.setPaintable(texture?.pointer)
    }

    /// Whether the picture shows a texture.
    var showsQR: Bool { picture.isVisible && picture.hasPaintable }

    /// Whether the spinner shows and turns (no code yet).
    var showsSpinner: Bool { spinner.isVisible && spinner.isSpinning }

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
