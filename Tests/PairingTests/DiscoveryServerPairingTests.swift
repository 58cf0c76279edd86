import Foundation
import Testing
@testable import Pairing

/// What the app drives: the event stream, requests answered by id, revoking.
@Suite("Discovery server: pairing as the app sees it", .serialized)
struct DiscoveryServerPairingTests {
    static func server(_ temp: TempDirectory, confirmationTimeout: TimeInterval = 30) throws -> DiscoveryServer {
        var configuration = DiscoveryServer.Configuration(desktopName: "Pairing Desk", appVersion: "1.2.3", bindAddresses: ["127.0.0.1"])
        configuration.advertise = false
        configuration.confirmationTimeout = confirmationTimeout
        return try DiscoveryServer(storage: temp.storage(), configuration: configuration) { .init(activeRoute: "login") }
    }

    /// Waits for the first event matching `match`.
    static func next<T: Sendable>(_ iterator: inout AsyncStream<PairingEvent>.Iterator,
                                  _ match: (PairingEvent) -> T?) async -> T? {
        while let event = await iterator.next() {
            if let found = match(event) { return found }
        }
        return nil
    }

    @Test func aRequestIsAnsweredThroughTheEventStream() async throws {
        let temp = try TempDirectory()
        let server = try Self.server(temp)
        try await server.start()
        var events = server.events().makeAsyncIterator()
        guard case .open(let uri, _, _) = try server.openPairing() else { Issue.record("not open"); return }
        let companion = CompanionClient(storage: temp.storage("companion"))
        let pairing = Task { try await companion.pair(uri: uri, clientName: "Tablet", clientModel: "T1") }
        let request = await Self.next(&events) { if case .request(let request) = $0 { request } else { nil } }
        #expect(request?.clientName == "Tablet" && request?.clientModel == "T1")
        #expect(request?.comparisonCode == CompanionClient.comparisonCode(for: uri, clientName: "Tablet"))
        server.answer(try #require(request?.id), accept: true)
        #expect(try await pairing.value.desktopName == "Pairing Desk")
        let devices = await Self.next(&events) { if case .devicesChanged(let devices) = $0 { devices } else { nil } }
        #expect(devices?.map(\.name) == ["Tablet"])
        try server.revoke(deviceID: try #require(devices?.first?.id))
        #expect(server.devices.isEmpty)
        await #expect(throws: PairingError.self) { try await companion.status() }
        await server.stop()
    }

    @Test func everySubscriberSeesTheStateAndTheRequest() async throws {
        let temp = try TempDirectory()
        let server = try Self.server(temp)
        try await server.start()
        var first = server.events().makeAsyncIterator()
        var second = server.events().makeAsyncIterator()
        #expect(await first.next() == .state(.closed)) // the snapshot comes first
        guard case .open(let uri, _, _) = try server.openPairing() else { Issue.record("not open"); return }
        let companion = CompanionClient(storage: temp.storage("companion"))
        let pairing = Task { try await companion.pair(uri: uri, clientName: "Tablet", clientModel: "T1") }
        let seenByFirst = await Self.next(&first) { if case .request(let request) = $0 { request } else { nil } }
        let seenBySecond = await Self.next(&second) { if case .request(let request) = $0 { request } else { nil } }
        #expect(seenByFirst != nil && seenByFirst == seenBySecond)
        server.answer(try #require(seenByFirst?.id), accept: false)
        #expect(await Self.next(&second) { if case .requestWithdrawn(let id) = $0 { id } else { nil } } == seenByFirst?.id)
        await #expect(throws: PairingError.self) { try await pairing.value }
        await server.stop()
    }

    @Test func closingPairingWithdrawsAPendingRequest() async throws {
        let temp = try TempDirectory()
        let server = try Self.server(temp)
        try await server.start()
        var events = server.events().makeAsyncIterator()
        guard case .open(let uri, _, _) = try server.openPairing() else { Issue.record("not open"); return }
        let companion = CompanionClient(storage: temp.storage("companion"))
        let pairing = Task { try await companion.pair(uri: uri, clientName: "Tablet", clientModel: "T1") }
        let request = await Self.next(&events) { if case .request(let request) = $0 { request } else { nil } }
        server.closePairing()
        let withdrawn = await Self.next(&events) { if case .requestWithdrawn(let id) = $0 { id } else { nil } }
        #expect(withdrawn == request?.id)
        await #expect(throws: PairingError.server(status: 403, code: "refused", message: "The desktop user refused the pairing.")) {
            try await pairing.value
        }
        server.answer(try #require(request?.id), accept: true) // too late: ignored
        #expect(server.devices.isEmpty)
        await server.stop()
    }

    @Test func anUnansweredRequestTimesOutAsRefused() async throws {
        let temp = try TempDirectory()
        let server = try Self.server(temp, confirmationTimeout: 0.5)
        try await server.start()
        var events = server.events().makeAsyncIterator()
        guard case .open(let uri, _, _) = try server.openPairing() else { Issue.record("not open"); return }
        let companion = CompanionClient(storage: temp.storage("companion"))
        let pairing = Task { try await companion.pair(uri: uri, clientName: "Tablet", clientModel: "T1") }
        let request = await Self.next(&events) { if case .request(let request) = $0 { request } else { nil } }
        let withdrawn = await Self.next(&events) { if case .requestWithdrawn(let id) = $0 { id } else { nil } }
        #expect(withdrawn == request?.id)
        await #expect(throws: PairingError.self) { try await pairing.value }
        #expect(server.devices.isEmpty)
        await server.stop()
    }
}
