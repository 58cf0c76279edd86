import CAdwaita

/// A widget rendered to pixels: what the user sees, read back for a screenshot
/// or a test.
public struct RenderedImage: Sendable {
    /// One pixel, straight (not premultiplied) 8-bit RGBA.
    public struct Pixel: Equatable, Sendable, CustomStringConvertible {
        public var red, green, blue, alpha: UInt8
        public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
            self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
        }
        public var description: String { "rgba(\(red), \(green), \(blue), \(alpha))" }
        /// The largest per-channel difference to `other`.
        public func distance(to other: Pixel) -> Int {
            [Int(red) - Int(other.red), Int(green) - Int(other.green),
             Int(blue) - Int(other.blue), Int(alpha) - Int(other.alpha)].map(abs).max() ?? 0
        }
    }

    public let width: Int
    public let height: Int
    /// Cairo ARGB32 as stored in memory on a little-endian machine: B, G, R, A,
    /// premultiplied; `stride` bytes per row.
    let bytes: [UInt8]
    let stride: Int

    /// The pixel at (`x`, `y`), in widget coordinates, clamped to the image.
    public func pixel(x: Int, y: Int) -> Pixel {
        let cx = min(max(x, 0), width - 1), cy = min(max(y, 0), height - 1)
        let i = cy * stride + cx * 4
        let a = bytes[i + 3]
        func unpremultiply(_ c: UInt8) -> UInt8 {
            a == 0 ? 0 : UInt8(min(255, (Int(c) * 255 + Int(a) / 2) / Int(a)))
        }
        return Pixel(red: unpremultiply(bytes[i + 2]), green: unpremultiply(bytes[i + 1]),
                     blue: unpremultiply(bytes[i]), alpha: a)
    }
}

/// Renders realised widgets with their own renderer (`GskRenderer`), the way
/// GTK draws them on screen.
@MainActor
public enum WidgetRenderer {
    /// Renders `widget` as it looks now into a texture.
    /// - Returns: the texture (owned by the caller), or nil if the widget is not
    ///   realised inside a native surface or draws nothing at all.
    public static func texture(of widget: some GPointer) -> GObjectRef<OpaquePointer>? {
        switch render(widget) {
        case .texture(let texture): texture
        case .empty, .unrealised: nil
        }
    }

    /// Renders `widget` and reads its pixels back. A realised widget that
    /// draws nothing gives a fully transparent image of its size.
    /// - Returns: nil if the widget is not realised inside a native surface.
    public static func image(of widget: some GPointer) -> RenderedImage? {
        switch render(widget) {
        case .unrealised:
            return nil
        case .empty(let width, let height):
            return RenderedImage(width: width, height: height, bytes: [UInt8](repeating: 0, count: width * height * 4), stride: width * 4)
        case .texture(let texture):
            let width = Int(gdk_texture_get_width(texture.pointer)), height = Int(gdk_texture_get_height(texture.pointer))
            let stride = width * 4
            var bytes = [UInt8](repeating: 0, count: stride * height)
            bytes.withUnsafeMutableBufferPointer { buffer in
                gdk_texture_download(texture.pointer, buffer.baseAddress, gsize(stride))
            }
            return RenderedImage(width: width, height: height, bytes: bytes, stride: stride)
        }
    }

    private enum Rendering {
        case unrealised
        case empty(width: Int, height: Int)
        case texture(GObjectRef<OpaquePointer>)
    }

    private static func render(_ widget: some GPointer) -> Rendering {
        let w = widget.widget
        guard let native = gtk_widget_get_native(w), let renderer = gtk_native_get_renderer(native) else { return .unrealised }
        let width = Int(gtk_widget_get_width(w)), height = Int(gtk_widget_get_height(w))
        guard width > 0, height > 0 else { return .unrealised }
        let paintable = GObjectRef(taking: gtk_widget_paintable_new(w))
        guard let snapshot = gtk_snapshot_new() else { return .unrealised }
        gdk_paintable_snapshot(paintable.pointer, snapshot, Double(width), Double(height))
        guard let node = gtk_snapshot_free_to_node(snapshot) else { return .empty(width: width, height: height) }
        defer { gsk_render_node_unref(node) }
        guard let texture = gsk_renderer_render_texture(renderer, node, nil) else { return .unrealised }
        return .texture(GObjectRef(taking: texture))
    }

    /// Renders `widget` and writes it to `path` as PNG.
    /// - Returns: whether the file was written.
    @discardableResult
    public static func savePNG(of widget: some GPointer, to path: String) -> Bool {
        guard let texture = texture(of: widget) else { return false }
        return gdk_texture_save_to_png(texture.pointer, path) != 0
    }
}
