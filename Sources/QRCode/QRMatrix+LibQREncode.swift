import CQREncode
import Foundation
import ListenUpCore

/// Why a payload could not become a QR symbol.
public enum QRCodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libqrencode refused the text (too long for a version-40 symbol, or out of memory).
    case encodingFailed(errno: Int32)
    /// libqrencode is not installed (the sentence says what is missing).
    case libraryMissing(String)
    /// The text contains a NUL byte, which a C string cannot carry.
    case containsNUL

    public var description: String {
        switch self {
        case .encodingFailed(let errno): "QR encoding failed (errno \(errno))"
        case .containsNUL: "QR payload contains a NUL byte"
        case .libraryMissing(let reason): reason
        }
    }
}

extension QRRenderer.Encoder {
    /// libqrencode through ``QRMatrix/encode(_:)``: the app's encoder.
    public static let libqrencode = QRRenderer.Encoder { try QRMatrix.encode($0) }
}

extension QRMatrix {
    /// Encodes `text` with libqrencode as 8-bit bytes, error correction M,
    /// the smallest version that fits, case preserved (libqrencode's
    /// `casesensitive` is 1, else lower-case tokens would be upper-cased).
    /// Thread-safe.
    /// - Throws: ``QRCodeError``.
    public static func encode(_ text: String) throws -> QRMatrix {
        guard !text.utf8.contains(0) else { throw QRCodeError.containsNUL }
        var failure: UnsafePointer<CChar>?
        guard let qrencode = listenup_qrencode(&failure)?.pointee else {
            throw QRCodeError.libraryMissing(failure.map { String(cString: $0) } ?? "libqrencode could not be loaded")
        }
        guard let code = qrencode.encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else {
            throw QRCodeError.encodingFailed(errno: errno)
        }
        defer { qrencode.free(code) }
        let width = Int(code.pointee.width)
        var modules = [Bool](repeating: false, count: width * width)
        guard let data = code.pointee.data else { throw QRCodeError.encodingFailed(errno: 0) }
        for index in 0..<(width * width) { modules[index] = (data[index] & 1) != 0 }
        return QRMatrix(width: width, modules: modules)
    }
}
