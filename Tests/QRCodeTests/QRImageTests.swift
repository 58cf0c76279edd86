import Foundation
import Testing
import ListenUpCore
import ListenUpTestSupport
import QRCode

@Suite struct QRImageTests {
    @Test func matrixKeepsCaseAndHasFinderPatterns() throws {
        let matrix = try QRMatrix.encode("abc")
        #expect(matrix.width == 21)
        // Finder pattern corners are dark, the separator next to them light.
        #expect(matrix.isDark(x: 0, y: 0) && matrix.isDark(x: 6, y: 6) && !matrix.isDark(x: 7, y: 7))
        #expect(!matrix.isDark(x: -1, y: 0) && !matrix.isDark(x: 21, y: 0))
        #expect(throws: QRCodeError.containsNUL) { try QRMatrix.encode("a\u{0}b") }
    }

    @Test func imageHasIntegerModulesAndQuietZone() throws {
        let matrix = try QRMatrix.encode("abc")
        let image = QRImage(matrix: matrix, moduleSize: 3, quietZone: 4)
        #expect(image.size == (21 + 8) * 3)
        // The quiet zone is white, the first finder module dark on every pixel of its square.
        #expect(image.grayPixels[0..<(12 * image.size)].allSatisfy { $0 == 255 })
        for y in 12..<15 { for x in 12..<15 { #expect(image.grayPixels[y * image.size + x] == 0) } }
        #expect(image.rgbaPixels.count == image.size * image.size * 4)
        #expect(Array(image.rgbaPixels[0..<4]) == [255, 255, 255, 255])
    }

    @Test func pngDecodesToExactlyThePayload() async throws {
        let payload = "listenup-pair:v1?name=My%20Desk&addr=127.0.0.1&port=45678&fp=AbC-_dEf&session=s3SSion&code=Zz09_-aaBBccDDeeFFggHH&exp=1767225600"
        let image = QRImage(matrix: try QRMatrix.encode(payload), moduleSize: 4)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: url) }
        try image.pngData().write(to: url)
        let zbar = try await ChildProcess.run(["zbarimg", "--raw", "-q", url.path])
        #expect(zbar.status == 0)
        var text = zbar.stdout
        if text.hasSuffix("\n") { text.removeLast() }
        #expect(text == payload)
    }
}
