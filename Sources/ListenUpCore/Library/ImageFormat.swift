import Foundation

/// What an image's bytes are, whatever the `Content-Type` says (the server
/// labels every cover `image/jpeg`, PNGs and WebPs included).
public enum ImageFormat: String, Equatable, Sendable {
    case jpeg, png, webp, gif

    /// Recognises the format from the first bytes, or nil.
    public static func sniff(_ bytes: some Collection<UInt8>) -> ImageFormat? {
        let head = Array(bytes.prefix(12))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) { return .webp }
        if head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) { return .gif }
        return nil
    }

    /// The MIME type.
    public var mimeType: String { "image/\(rawValue)" }
}
