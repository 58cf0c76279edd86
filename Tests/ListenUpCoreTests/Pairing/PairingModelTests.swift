import Foundation
import ListenUpCore
import Pairing
import QRCode
import Testing

/// The model over a real PairingHost on 127.0.0.1, a real companion on the other side.
@MainActor
@Suite(.serialized)
struct PairingModelTests {
    let directory: URL
    let host: PairingHost

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pairing-model-\(UUID().uuidString)")
        var configuration = DiscoveryServer.Configuration(desktopName: "Model Desk", appVersion: "1.0", bindAddresses: ["127.0.0.1"])
        configuration.advertise = false
        host = try PairingHost(storage: PairingStorage(directory: directory.appendingPathComponent("desktop")),
                               configuration: configuration) { .init(activeRoute: "library") }
    }

    func settle(_ condition: () -> Bool) async {
        for _ in 0..<400 where !condition() { try? await Task.sleep(for: .milliseconds(10)) }
    }

    var companion: CompanionClient { CompanionClient(storage: PairingStorage(directory: directory.appendingPathComponent("companion"))) }

    @Test func opensShowsTheQRAsksTheUserAndListsTheDevice() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = PairingModel(client: .live(host), moduleSize: 2)
        #expect(model.phase == .closed)
        model.send(.open)
        await settle { model.qrImage != nil }
        guard case .open(let text, let rotatesAt, let closesAt) = model.phase else { Issue.record("not open: \(model.phase)"); return }
        #expect(rotatesAt <= closesAt)
        #expect(model.qrImage == QRImage(matrix: try QRMatrix.encode(text), moduleSize: 2))
        let uri = try PairingURI.parse(text)
        #expect(uri.addresses == ["127.0.0.1"])

        let companion = companion
        let pairing = Task.detached { try await companion.pair(uri: uri, clientName: "Phone", clientModel: "P1") }
        await settle { model.request != nil }
        #expect(model.request?.clientName == "Phone")
        #expect(model.request?.comparisonCode == CompanionClient.comparisonCode(for: uri, clientName: "Phone"))
        model.send(.answer(accept: true))
        #expect(model.request == nil)
        _ = try await pairing.value
        await settle { model.devices.count == 1 }
        #expect(model.devices.map(\.name) == ["Phone"])
        // The code was used: a new one is shown.
        await settle { if case .open(let now, _, _) = model.phase { now != text } else { false } }
        if case .open(let now, _, _) = model.phase { #expect(now != text) } else { Issue.record("closed") }

        model.send(.revoke(deviceID: try #require(model.devices.first?.id)))
        #expect(model.devices.isEmpty)
        model.send(.close)
        #expect(model.phase == .closed && model.qrImage == nil)
        await host.stop()
    }

    @Test func closingThePageRefusesAPendingRequest() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = PairingModel(client: .live(host))
        model.send(.open)
        await settle { if case .open = model.phase { true } else { false } }
        guard case .open(let text, _, _) = model.phase else { Issue.record("not open"); return }
        let uri = try PairingURI.parse(text)
        let companion = companion
        let pairing = Task.detached { try await companion.pair(uri: uri, clientName: "Phone", clientModel: "P1") }
        await settle { model.request != nil }
        model.send(.close)
        await #expect(throws: PairingError.self) { try await pairing.value }
        #expect(model.devices.isEmpty && model.request == nil)
        await host.stop()
    }
}
