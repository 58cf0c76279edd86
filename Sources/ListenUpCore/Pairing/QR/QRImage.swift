import Foundation
import PNGEncoding

/// A QR symbol drawn as pixels: an integer number of pixels per module, a
/// quiet zone of light modules around it, dark (0) on white (255) whatever
/// the theme. Ready for a texture (``rgbaPixels``) or a file (``pngData()``).
public struct QRImage: Sendable, Equatable {
    /// Pixels per side (the image is square).
    public let size: Int
    /// Pixels per module.
    public let moduleSize: Int
    /// Light modules on each side of the symbol.
    public let quietZone: Int
    /// `size * size` gray bytes, row by row: 0 dark, 255 light.
    public let grayPixels: [UInt8]

    /// Draws `matrix`.
    /// - Parameters:
    ///   - matrix: the symbol.
    ///   - moduleSize: pixels per module (at least 1).
    ///   - quietZone: light modules around the symbol (at least 4 is what scanners expect).
    public init(matrix: QRMatrix, moduleSize: Int = 8, quietZone: Int = 4) {
        let moduleSize = max(1, moduleSize)
        let quietZone = max(0, quietZone)
        let modulesPerSide = matrix.width + 2 * quietZone
        let size = modulesPerSide * moduleSize
        var pixels = [UInt8](repeating: 255, count: size * size)
        pixels.withUnsafeMutableBufferPointer { buffer in
            for y in 0..<matrix.width {
                for x in 0..<matrix.width where matrix.isDark(x: x, y: y) {
                    let left = (x + quietZone) * moduleSize
                    let top = (y + quietZone) * moduleSize
                    for row in top..<(top + moduleSize) {
                        let start = row * size + left
                        for index in start..<(start + moduleSize) { buffer[index] = 0 }
                    }
                }
            }
        }
        self.size = size
        self.moduleSize = moduleSize
        self.quietZone = quietZone
        grayPixels = pixels
    }

    /// The pixels as RGBA bytes (opaque), row by row, for `GdkMemoryTexture`
    /// (`GDK_MEMORY_R8G8B8A8`, stride `size * 4`).
    public var rgbaPixels: [UInt8] {
        [UInt8](unsafeUninitializedCapacity: grayPixels.count * 4) { buffer, count in
            grayPixels.withUnsafeBufferPointer { gray in
                for index in 0..<gray.count {
                    let value = gray[index]
                    buffer[index &* 4] = value
                    buffer[index &* 4 &+ 1] = value
                    buffer[index &* 4 &+ 2] = value
                    buffer[index &* 4 &+ 3] = 255
                }
            }
            count = grayPixels.count * 4
        }
    }

    /// The image as an 8-bit grayscale PNG file.
    public func pngData() -> Data {
        PNGEncoder.encode(width: size, height: size, pixels: grayPixels, colorType: .gray)
    }
}
