import Foundation

/// Encodes 8-bit RGB or grayscale images as PNG with no dependencies: zlib
/// "stored" blocks (no compression), CRC-32 and Adler-32 by hand. Enough for
/// generated covers and QR codes. Pure and thread-safe.
public enum PNGEncoder {
    /// How the pixel bytes are laid out.
    public enum ColorType: Sendable {
        /// One byte per pixel.
        case gray
        /// Three bytes per pixel (R, G, B).
        case rgb

        var bytesPerPixel: Int { self == .gray ? 1 : 3 }
        var code: UInt8 { self == .gray ? 0 : 2 }
    }

    /// Encodes an image.
    /// - Parameters:
    ///   - width: pixels per row.
    ///   - height: rows.
    ///   - pixels: `width * height` pixels, row by row, in `colorType`'s layout.
    ///   - colorType: `.rgb` (the default) or `.gray`.
    /// - Returns: the PNG file's bytes.
    public static func encode(width: Int, height: Int, pixels: [UInt8], colorType: ColorType = .rgb) -> Data {
        let stride = width * colorType.bytesPerPixel
        precondition(pixels.count == stride * height, "pixel count does not match the size")
        var raw = [UInt8]()
        raw.reserveCapacity((stride + 1) * height)
        for row in 0..<height {
            raw.append(0) // filter: none
            raw.append(contentsOf: pixels[(row * stride)..<((row + 1) * stride)])
        }
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = Data()
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header.append(contentsOf: [8, colorType.code, 0, 0, 0]) // 8-bit, deflate, no filter method, no interlace
        png.appendChunk("IHDR", header)
        png.appendChunk("IDAT", zlibStored(raw))
        png.appendChunk("IEND", Data())
        return png
    }

    private static func zlibStored(_ bytes: [UInt8]) -> Data {
        var out = Data([0x78, 0x01])
        var offset = 0
        repeat {
            let length = min(65_535, bytes.count - offset)
            let last = offset + length >= bytes.count
            out.append(last ? 1 : 0)
            out.append(UInt8(length & 0xFF))
            out.append(UInt8(length >> 8))
            out.append(UInt8(~length & 0xFF))
            out.append(UInt8((~length >> 8) & 0xFF))
            out.append(contentsOf: bytes[offset..<(offset + length)])
            offset += length
        } while offset < bytes.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        out.appendBigEndian((b << 16) | a)
        return out
    }

    static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}

private extension Data {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)])
    }

    mutating func appendChunk(_ type: String, _ body: Data) {
        appendBigEndian(UInt32(body.count))
        var typed = Data(type.utf8)
        typed.append(body)
        append(typed)
        appendBigEndian(PNGEncoder.crc32(typed))
    }
}
