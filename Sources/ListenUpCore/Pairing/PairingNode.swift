import Foundation
import PairingProtocol

extension ScreenKey where Model == PairingModel {
    /// Pair a device.
    public static var pairing: Self { Self(.pairing) }
}

extension RouteNode {
    /// Pair a device: an overlay the user opens from anywhere (``AppNavigator/open(_:)``);
    /// no auth state is served by it. Opening the screen opens pairing; leaving it closes pairing.
    public static let pairing = RouteNode(
        .pairing,
        serves: { _ in false },
        model: { context in
            let model = PairingModel(client: context.dependencies.pairing, moduleSize: PairingModel.screenModuleSize,
                                     encoder: context.dependencies.qrEncoder, dismiss: context.dismiss)
            model.send(.open)
            return model
        },
        previews: [
            .init("open") { $0.showPreview(phase: PairingModel.previewOpen, qrImage: $0.previewQR,
                                           devices: PairingModel.previewDevices) },
            .init("request") { $0.showPreview(phase: PairingModel.previewOpen, qrImage: $0.previewQR,
                                              request: PairingModel.previewRequest, devices: PairingModel.previewDevices) },
            .init("expired") { $0.showPreview(phase: .expired, devices: PairingModel.previewDevices) },
            // Expired, so the list is in view without scrolling past the QR.
            .init("devices") { $0.showPreview(phase: .expired, devices: PairingModel.previewManyDevices) },
            .init("empty") { $0.showPreview(phase: PairingModel.previewOpen, qrImage: $0.previewQR) },
            .init("failed") { $0.showPreview(phase: .failed(message: "could not bind 0.0.0.0:0 (preview)"),
                                             devices: PairingModel.previewDevices) },
        ]
    )
}

extension PairingModel: ScreenModel {
    public func deactivate() { send(.close) }
}

extension PairingModel {
    /// QR pixels per module on screen (and in `--qr-png`): 5 keeps a
    /// version 10 code (the usual URI) near 325 px, inside the 440 px column.
    public static let screenModuleSize = 5

    nonisolated private static let previewNow = Date(timeIntervalSince1970: 1_767_225_600)

    /// A well-formed URI on a documentation address (nothing listens there).
    static let previewURIText: String = PairingURI(
        name: "Anna’s Desk", addresses: ["192.0.2.20"], port: 45678, fingerprint: Array(repeating: 0x5A, count: 32),
        session: Array(repeating: 0x11, count: 16), code: Array(repeating: 0x22, count: 16),
        expiresAt: previewNow.addingTimeInterval(30)).description

    static var previewOpen: Phase {
        .open(uri: previewURIText, codeRotatesAt: Date().addingTimeInterval(24), closesAt: Date().addingTimeInterval(270))
    }

    /// The preview URI's code, drawn by the model's encoder (nil without one).
    var previewQR: QRImage? {
        (try? encoder(Self.previewURIText)).map { QRImage(matrix: $0, moduleSize: moduleSize) }
    }

    static let previewRequest = PairingRequest(clientName: "Anna’s Pixel", clientModel: "Pixel 8",
                                               comparisonCode: "042917", remoteAddress: "192.0.2.31")

    // Fixed dates, so screenshots do not change from run to run.
    nonisolated static let previewDevices: [PairedDevice] = [
        PairedDevice(id: "eO_92_fSpVLtuyJl", name: "Anna’s Pixel", model: "Pixel 8", pairedAt: previewNow.addingTimeInterval(-86_400 * 3),
                     lastSeen: previewNow.addingTimeInterval(-300), expiresAt: previewNow.addingTimeInterval(86_400 * 27)),
    ]

    static let previewManyDevices: [PairedDevice] = previewDevices + [
        PairedDevice(id: "q1w2e3r4t5y6u7i8", name: "Kitchen Tablet", model: "Galaxy Tab A8", pairedAt: previewNow.addingTimeInterval(-86_400 * 20),
                     lastSeen: previewNow.addingTimeInterval(-86_400 * 2), expiresAt: previewNow.addingTimeInterval(86_400 * 10)),
        PairedDevice(id: "z9x8c7v6b5n4m3l2", name: "companion", model: "listenup-companion", pairedAt: previewNow.addingTimeInterval(-3_600),
                     lastSeen: previewNow.addingTimeInterval(-3_600), expiresAt: previewNow.addingTimeInterval(86_400 * 30)),
    ]
}
