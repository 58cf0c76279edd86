/// The modules of one QR symbol (no quiet zone): `width × width`, dark or light.
///
/// A value type, `Sendable`. The core only draws and shows matrices; making
/// one from a payload is a ``QRRenderer/Encoder``'s job (libqrencode's is in
/// the `QRCode` module, injected through ``Dependencies/qrEncoder``).
public struct QRMatrix: Sendable, Equatable {
    /// Modules per side.
    public let width: Int
    /// `width * width` flags, row by row; `true` = dark.
    public let modules: [Bool]

    /// Wraps modules computed by an encoder.
    /// - Parameters:
    ///   - width: modules per side.
    ///   - modules: `width * width` flags, row by row.
    public init(width: Int, modules: [Bool]) {
        precondition(modules.count == width * width, "module count does not match the width")
        self.width = width
        self.modules = modules
    }

    /// Whether the module at column `x`, row `y` is dark (false outside the symbol).
    public func isDark(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < width, y < width else { return false }
        return modules[y * width + x]
    }
}
