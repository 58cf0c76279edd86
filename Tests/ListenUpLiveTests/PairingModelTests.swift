import Foundation
import ListenUpCore
import ListenUpLive
import Pairing
import QRCode
import Testing

/// The model over a real DiscoveryServer on 127.0.0.1, a real companion on the other side.
@MainActor
@Suite(.serialized)
struct PairingModelTests {
    let directory: URL
    let server: DiscoveryServer

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pairing-model-\(UUID().uuidString)")
        var configuration = DiscoveryServer.Configuration(desktopName: "Model Desk", appVersion: "1.0", bindAddresses: ["127.0.0.1"])
        configuration.advertise = false
        server = try DiscoveryServer(storage: PairingStorage(directory: directory.appendingPathComponent("desktop")),
                               configuration: configuration) { .init(activeRoute: "library") }
    }

    func settle(_ condition: () -> Bool) async {
        for _ in 0..<400 where !condition() { try? await Task.sleep(for: .milliseconds(10)) }
    }

    var companion: CompanionClient { CompanionClient(storage: PairingStorage(directory: directory.appendingPathComponent("companion"))) }

    @Test func opensShowsTheQRAsksTheUserAndListsTheDevice() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = PairingModel(client: .live(server), moduleSize: 2, encoder: .libqrencode)
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
        await server.stop()
    }

    @Test func afterFiveMinutesItOffersANewCode() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let now = LockedNow(Date())
        var configuration = DiscoveryServer.Configuration(desktopName: "Model Desk", appVersion: "1.0", bindAddresses: ["127.0.0.1"])
        configuration.advertise = false
        let server = try DiscoveryServer(storage: PairingStorage(directory: directory.appendingPathComponent("clocked")),
                                   configuration: configuration, clock: PairingClock { now.value }) { .init(activeRoute: "library") }
        let model = PairingModel(client: .live(server), encoder: .libqrencode)
        model.send(.open)
        await settle { if case .open = model.phase { true } else { false } }
        guard case .open(let first, let rotatesAt, let closesAt) = model.phase else { Issue.record("not open"); return }
        #expect(closesAt.timeIntervalSince(now.value) == 300)
        #expect(rotatesAt.timeIntervalSince(now.value) == 30)
        now.advance(31)
        server.tick()
        await settle { if case .open(let uri, _, _) = model.phase { uri != first } else { false } }
        if case .open(let uri, _, _) = model.phase { #expect(uri != first) } else { Issue.record("\(model.phase)") }
        now.advance(300)
        server.tick()
        await settle { model.phase == .expired }
        #expect(model.phase == .expired && model.qrImage == nil)
        model.send(.showNewCode)
        await settle { if case .open = model.phase { true } else { false } }
        if case .open(_, _, let closes) = model.phase { #expect(closes.timeIntervalSince(now.value) == 300) } else { Issue.record("\(model.phase)") }
        model.send(.close)
        await server.stop()
    }

    @Test func closingThePageRefusesAPendingRequest() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = PairingModel(client: .live(server), encoder: .libqrencode)
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
        await server.stop()
    }
}

/// A settable "now" for the server's clock.
final class LockedNow: @unchecked Sendable {
    // @unchecked Sendable: every access holds `lock`.
    private let lock = NSLock()
    private var date: Date
    init(_ date: Date) { self.date = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)) }
    var value: Date { lock.withLock { date } }
    func advance(_ seconds: TimeInterval) { lock.withLock { date = date.addingTimeInterval(seconds) } }
}
