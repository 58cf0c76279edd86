import Foundation
import Testing
@testable import Pairing

/// What the app drives: the event stream, requests answered by id, revoking.
@Suite("Discovery server: pairing as the app sees it", .serialized)
struct DiscoveryServerPairingTests {
    /// A started server on 127.0.0.1, pairing still closed.
    static func started(_ temp: TempDirectory, confirmationTimeout: TimeInterval = 30) async throws -> DiscoveryServer {
        var configuration = DiscoveryServer.Configuration(desktopName: "Pairing Desk", appVersion: "1.2.3", bindAddresses: ["127.0.0.1"])
        configuration.advertise = false
        configuration.confirmationTimeout = confirmationTimeout
        let server = try DiscoveryServer(storage: temp.storage(), configuration: configuration) { .init(activeRoute: "login") }
        try await server.start()
        return server
    }

    /// A companion ("Tablet", "T1") asking a started server to pair: pairing is
    /// opened and the companion's request runs in `pairing` until the desktop answers.
    struct Attempt {
        let uri: PairingURI
        let companion: CompanionClient
        let pairing: Task<CompanionClient.Pairing, any Error>

        init(_ server: DiscoveryServer, _ temp: TempDirectory) throws {
            guard case .open(let uri, _, _) = try server.openPairing() else { throw PairingError.notPaired }
            let companion = CompanionClient(storage: temp.storage("companion"))
            self.uri = uri
            self.companion = companion
            pairing = Task { try await companion.pair(uri: uri, clientName: "Tablet", clientModel: "T1") }
        }
    }

    /// Waits for the next request.
    static func request(_ iterator: inout AsyncStream<PairingEvent>.Iterator) async -> PairingRequest? {
        await next(&iterator) { if case .request(let request) = $0 { request } else { nil } }
    }

    /// Waits for the next withdrawal.
    static func withdrawal(_ iterator: inout AsyncStream<PairingEvent>.Iterator) async -> UUID? {
        await next(&iterator) { if case .requestWithdrawn(let id) = $0 { id } else { nil } }
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
        let server = try await Self.started(temp)
        var events = server.events().makeAsyncIterator()
        let attempt = try Attempt(server, temp)
        let request = await Self.request(&events)
        #expect(request?.clientName == "Tablet" && request?.clientModel == "T1")
        #expect(request?.comparisonCode == CompanionClient.comparisonCode(for: attempt.uri, clientName: "Tablet"))
        server.answer(try #require(request?.id), accept: true)
        #expect(try await attempt.pairing.value.desktopName == "Pairing Desk")
        let devices = await Self.next(&events) { if case .devicesChanged(let devices) = $0 { devices } else { nil } }
        #expect(devices?.map(\.name) == ["Tablet"])
        try server.revoke(deviceID: try #require(devices?.first?.id))
        #expect(server.devices.isEmpty)
        let afterRevoke = await Self.next(&events) { if case .devicesChanged(let devices) = $0 { devices } else { nil } }
        #expect(afterRevoke?.isEmpty == true, "revoking is reported")
        await #expect(throws: PairingError.self) { try await attempt.companion.status() }
        await server.stop()
    }

    @Test func everySubscriberSeesTheStateAndTheRequest() async throws {
        let temp = try TempDirectory()
        let server = try await Self.started(temp)
        var first = server.events().makeAsyncIterator()
        var second = server.events().makeAsyncIterator()
        #expect(await first.next() == .state(.closed)) // the snapshot comes first
        let attempt = try Attempt(server, temp)
        let seenByFirst = await Self.request(&first)
        let seenBySecond = await Self.request(&second)
        #expect(seenByFirst != nil && seenByFirst == seenBySecond)
        server.answer(try #require(seenByFirst?.id), accept: false)
        #expect(await Self.withdrawal(&second) == seenByFirst?.id)
        await #expect(throws: PairingError.self) { try await attempt.pairing.value }
        await server.stop()
    }

    @Test func closingPairingWithdrawsAPendingRequest() async throws {
        let temp = try TempDirectory()
        let server = try await Self.started(temp)
        var events = server.events().makeAsyncIterator()
        let attempt = try Attempt(server, temp)
        let request = await Self.request(&events)
        server.closePairing()
        let withdrawn = await Self.withdrawal(&events)
        #expect(withdrawn == request?.id)
        await #expect(throws: PairingError.server(status: 403, code: "refused", message: "The desktop user refused the pairing.")) {
            try await attempt.pairing.value
        }
        server.answer(try #require(request?.id), accept: true) // too late: ignored
        #expect(server.devices.isEmpty)
        await server.stop()
    }

    @Test func anUnansweredRequestTimesOutAsRefused() async throws {
        let temp = try TempDirectory()
        let server = try await Self.started(temp, confirmationTimeout: 0.5)
        var events = server.events().makeAsyncIterator()
        let attempt = try Attempt(server, temp)
        let request = await Self.request(&events)
        let withdrawn = await Self.withdrawal(&events)
        #expect(withdrawn == request?.id)
        await #expect(throws: PairingError.self) { try await attempt.pairing.value }
        #expect(server.devices.isEmpty)
        await server.stop()
    }
}
