import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// A decoded cover, ready for a GtkPicture. GdkTexture is immutable and its
/// reference count atomic, so one made on a worker thread may be handed to
/// the main thread; that is the only thing this wrapper is used for.
final class CoverTexture: @unchecked Sendable {
    private let reference: GObjectRef<OpaquePointer>
    var texture: OpaquePointer { reference.pointer }

    /// The bytes of its pixels, four a pixel (GTK's copy for drawing aside).
    let bytes: Int

    private init(texture: GObjectRef<OpaquePointer>) {
        reference = texture
        bytes = Int(gdk_texture_get_width(texture.pointer)) * Int(gdk_texture_get_height(texture.pointer)) * 4
    }

    /// Decodes `bytes` scaled to fit `size`×`size` pixels (aspect kept), off
    /// the main thread. `nil` when GdkPixbuf cannot read them.
    static func decode(_ bytes: Data, size: Int) async -> CoverTexture? {
        await Task.detached(priority: .userInitiated) { () -> CoverTexture? in
            let stream = bytes.withUnsafeBytes { buffer -> UnsafeMutablePointer<GInputStream>? in
                let gbytes = g_bytes_new(buffer.baseAddress, gsize(buffer.count))
                defer { g_bytes_unref(gbytes) }
                return g_memory_input_stream_new_from_bytes(gbytes)
            }
            guard let stream = stream.map({ GObjectRef(taking: $0) }) else { return nil }
            var error: UnsafeMutablePointer<GError>?
            guard let decoded = gdk_pixbuf_new_from_stream_at_scale(stream.pointer, Int32(size), Int32(size), 1, nil, &error) else {
                g_clear_error(&error)
                return nil
            }
            let pixbuf = GObjectRef(taking: decoded)
            guard let texture = gdk_texture_new_for_pixbuf(pixbuf.pointer) else { return nil }
            return CoverTexture(texture: GObjectRef(taking: texture))
        }.value
    }
}

/// Decoded covers kept for scrolling back, least recently used dropped
/// first: at most `capacity` textures and `byteBudget` bytes of pixels
/// (the newest is kept whatever its size). Covers come in every shape, so
/// the count alone does not bound the memory: a square cover at card size
/// takes half again a 2:3 one's.
@MainActor
final class CoverTextureCache {
    private var entries: [String: (texture: CoverTexture, lastUse: UInt64)] = [:]
    private var clock: UInt64 = 0
    let capacity: Int
    let byteBudget: Int
    /// The bytes of the textures kept.
    private(set) var bytes = 0

    init(capacity: Int, byteBudget: Int) {
        self.capacity = capacity
        self.byteBudget = byteBudget
    }

    var count: Int { entries.count }

    subscript(key: String) -> CoverTexture? {
        get {
            guard let entry = entries[key] else { return nil }
            clock += 1
            entries[key] = (entry.texture, clock)
            return entry.texture
        }
        set {
            clock += 1
            bytes -= entries[key]?.texture.bytes ?? 0
            entries[key] = newValue.map { ($0, clock) }
            bytes += newValue?.bytes ?? 0
            while entries.count > 1, entries.count > capacity || bytes > byteBudget,
                  let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                bytes -= oldest.value.texture.bytes
                entries[oldest.key] = nil
            }
        }
    }

    static func key(_ book: LibraryModel.Book, size: Int, source: CoverSize = .grid) -> String {
        "\(book.id)@\(book.version.timeIntervalSince1970)@\(size)" + (source == .grid ? "" : "w\(source.width)")
    }
}
