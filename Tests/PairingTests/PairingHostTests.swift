import Foundation
import Testing
@testable import Pairing

@Suite("Pairing host", .serialized)
struct PairingHostTests {
    static func host(_ temp: TempDirectory, confirmationTimeout: TimeInterval = 30) throws -> PairingHost {
        var configuration = DiscoveryServer.Configuration(desktopName: "Host Desk", appVersion: "1.2.3", bindAddresses: ["127.0.0.1"])
        configuration.advertise = false
        configuration.confirmationTimeout = confirmationTimeout
        return try PairingHost(storage: temp.storage(), configuration: configuration) { .init(activeRoute: "login") }
    }

    /// Waits for the first event matching `match`.
    static func next<T: Sendable>(_ iterator: inout AsyncStream<PairingHost.Event>.Iterator,
                                  _ match: (PairingHost.Event) -> T?) async -> T? {
        while let event = await iterator.next() {
            if let found = match(event) { return found }
        }
        return nil
    }

    @Test func aRequestIsAnsweredThroughTheEventStream() async throws {
        let temp = try TempDirectory()
        let host = try Self.host(temp)
        try await host.start()
        var events = host.events().makeAsyncIterator()
        guard case .open(let uri, _, _) = try host.openPairing() else { Issue.record("not open"); return }
        let companion = CompanionClient(storage: temp.storage("companion"))
        let pairing = Task { try await companion.pair(uri: uri, clientName: "Tablet", clientModel: "T1") }
        let request = await Self.next(&events) { if case .request(let request) = $0 { request } else { nil } }
        #expect(request?.clientName == "Tablet" && request?.clientModel == "T1")
        #expect(request?.comparisonCode == CompanionClient.comparisonCode(for: uri, clientName: "Tablet"))
        host.answer(try #require(request?.id), accept: true)
        #expect(try await pairing.value.desktopName == "Host Desk")
        let devices = await Self.next(&events) { if case .devicesChanged(let devices) = $0 { devices } else { nil } }
        #expect(devices?.map(\.name) == ["Tablet"])
        try host.revoke(deviceID: try #require(devices?.first?.id))
        #expect(host.devices.isEmpty)
        await #expect(throws: PairingError.self) { try await companion.status() }
        await host.stop()
    }

    @Test func everySubscriberSeesTheStateAndTheRequest() async throws {
        let temp = try TempDirectory()
        let host = try Self.host(temp)
        try await host.start()
        var first = host.events().makeAsyncIterator()
        var second = host.events().makeAsyncIterator()
        #expect(await first.next() == .state(.closed)) // the snapshot comes first
        guard case .open(let uri, _, _) = try host.openPairing() else { Issue.record("not open"); return }
        let companion = CompanionClient(storage: temp.storage("companion"))
        let pairing = Task { try await companion.pair(uri: uri, clientName: "Tablet", clientModel: "T1") }
        let seenByFirst = await Self.next(&first) { if case .request(let request) = $0 { request } else { nil } }
        let seenBySecond = await Self.next(&second) { if case .request(let request) = $0 { request } else { nil } }
        #expect(seenByFirst != nil && seenByFirst == seenBySecond)
        host.answer(try #require(seenByFirst?.id), accept: false)
        #expect(await Self.next(&second) { if case .requestWithdrawn(let id) = $0 { id } else { nil } } == seenByFirst?.id)
        await #expect(throws: PairingError.self) { try await pairing.value }
        await host.stop()
    }

    @Test func closingPairingWithdrawsAPendingRequest() async throws {
        let temp = try TempDirectory()
        let host = try Self.host(temp)
        try await host.start()
        var events = host.events().makeAsyncIterator()
        guard case .open(let uri, _, _) = try host.openPairing() else { Issue.record("not open"); return }
        let companion = CompanionClient(storage: temp.storage("companion"))
        let pairing = Task { try await companion.pair(uri: uri, clientName: "Tablet", clientModel: "T1") }
        let request = await Self.next(&events) { if case .request(let request) = $0 { request } else { nil } }
        host.closePairing()
        let withdrawn = await Self.next(&events) { if case .requestWithdrawn(let id) = $0 { id } else { nil } }
        #expect(withdrawn == request?.id)
        await #expect(throws: PairingError.server(status: 403, code: "refused", message: "The desktop user refused the pairing.")) {
            try await pairing.value
        }
        host.answer(try #require(request?.id), accept: true) // too late: ignored
        #expect(host.devices.isEmpty)
        await host.stop()
    }

    @Test func anUnansweredRequestTimesOutAsRefused() async throws {
        let temp = try TempDirectory()
        let host = try Self.host(temp, confirmationTimeout: 0.5)
        try await host.start()
        var events = host.events().makeAsyncIterator()
        guard case .open(let uri, _, _) = try host.openPairing() else { Issue.record("not open"); return }
        let companion = CompanionClient(storage: temp.storage("companion"))
        let pairing = Task { try await companion.pair(uri: uri, clientName: "Tablet", clientModel: "T1") }
        let request = await Self.next(&events) { if case .request(let request) = $0 { request } else { nil } }
        let withdrawn = await Self.next(&events) { if case .requestWithdrawn(let id) = $0 { id } else { nil } }
        #expect(withdrawn == request?.id)
        await #expect(throws: PairingError.self) { try await pairing.value }
        #expect(host.devices.isEmpty)
        await host.stop()
    }
}
