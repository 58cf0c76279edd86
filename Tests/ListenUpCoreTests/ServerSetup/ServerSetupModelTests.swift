import Foundation
import Testing
@testable import ListenUpCore

/// A verifier whose answers the test hands out one by one.
final class ScriptedVerifier: Sendable {
    private let answers: AsyncStream<Result<VerifiedServer, ServerVerificationError>>
    private let feed: AsyncStream<Result<VerifiedServer, ServerVerificationError>>.Continuation
    let asked = LockedValue<[ServerAddress]>([])

    init() {
        (answers, feed) = AsyncStream.makeStream()
    }

    var verifier: ServerVerifier {
        ServerVerifier { address in
            self.asked.withLock { $0.append(address) }
            var iterator = self.answers.makeAsyncIterator()
            return await iterator.next() ?? .failure(.unreachable)
        }
    }

    func answer(_ result: Result<VerifiedServer, ServerVerificationError>) { feed.yield(result) }
}

@MainActor
@Suite("ServerSetupModel")
struct ServerSetupModelTests {
    let scripted = ScriptedVerifier()
    let events = LockedValue<[AuthEvent]>([])
    let settings = SettingsClient.inMemory()

    func makeModel(checking: ServerAddress? = nil, discovery: ServerDiscoveryClient = .fixed([])) -> ServerSetupModel {
        let events = events
        return ServerSetupModel(environment: .init(verifier: scripted.verifier, discovery: discovery, settings: settings,
                                                   send: { event in events.withLock { $0.append(event) } }),
                                checking: checking)
    }

    func settle(until condition: () -> Bool) async {
        for _ in 0..<1000 where !condition() { await Task.yield(); try? await Task.sleep(for: .milliseconds(5)) }
    }

    static let server = VerifiedServer(url: URL(string: "https://example.com:8080")!, instanceID: "lib-abc", name: "Home", setupRequired: false)

    @Test func connectIsDisabledUntilSomethingIsTyped() {
        let model = makeModel()
        #expect(!model.canConnect)
        model.send(.urlChanged("   "))
        #expect(!model.canConnect)
        // Every kind of space and line break is nothing typed: a tab, a
        // paragraph separator, a no-break space, an ideographic space.
        model.send(.urlChanged("\t\n\u{2029}\u{00A0}\u{3000}"))
        #expect(!model.canConnect)
        model.send(.urlChanged(" example.com\n"))
        #expect(model.canConnect)
        model.send(.urlChanged("example.com"))
        #expect(model.canConnect)
    }

    @Test func malformedURLShowsAMessageUnderTheFieldAndContactsNobody() {
        let model = makeModel()
        model.send(.urlChanged("ftp://example.com"))
        model.send(.connect)
        #expect(model.status == .invalid(.unsupportedScheme("ftp")))
        #expect(model.fieldError == ServerAddressError.unsupportedScheme("ftp").userMessage)
        #expect(!model.canConnect, "the refused address cannot be re-sent unchanged")
        #expect(scripted.asked.value.isEmpty)
        #expect(events.value.isEmpty)
        model.send(.urlChanged("example.com"))
        #expect(model.status == .editing)
        #expect(model.fieldError == nil)
        #expect(model.canConnect)
    }

    @Test func aVerifiedServerIsSavedAndTheAppMovesOn() async throws {
        let model = makeModel()
        model.send(.urlChanged(" Example.com:8080/ "))
        model.send(.connect)
        let address = try ServerAddress.parse("example.com:8080").get()
        #expect(model.status == .checking(address))
        #expect(model.isChecking && !model.canConnect)
        #expect(events.value == [.serverChosen(address)])
        scripted.answer(.success(Self.server))
        await settle { !model.isChecking }
        #expect(model.status == .verified(Self.server))
        #expect(settings.load().serverURL == "https://example.com:8080")
        #expect(settings.load().instanceID == "lib-abc")
        #expect(settings.load().serverGeneration == .restV1)
        #expect(events.value.last == .serverVerified(Self.server))
    }

    @Test func aKRPCServerIsSavedWithItsGeneration() async throws {
        let model = makeModel()
        model.send(.urlChanged("example.com:8080"))
        model.send(.connect)
        var krpc = Self.server
        krpc.generation = .krpc
        scripted.answer(.success(krpc))
        await settle { !model.isChecking }
        #expect(settings.load().serverGeneration == .krpc)
        #expect(events.value.last == .serverVerified(krpc))
        #expect(AuthState.checkingServer(try ServerAddress.parse("example.com:8080").get()).applying(.serverVerified(krpc))
                == .needsLogin(KnownServer(url: krpc.url, generation: .krpc)))
    }

    @Test func aFailedCheckSaysWhyAndAllowsAnotherTry() async throws {
        let model = makeModel()
        model.send(.urlChanged("10.0.0.9"))
        model.send(.connect)
        scripted.answer(.failure(.timedOut))
        await settle { !model.isChecking }
        let address = try ServerAddress.parse("10.0.0.9").get()
        #expect(model.status == .failed(address, .timedOut))
        #expect(model.fieldError == ServerVerificationError.timedOut.userMessage(for: address.url))
        #expect(events.value.last == .serverCheckFailed)
        #expect(model.canConnect, "retry without editing")
        #expect(settings.load().serverURL == nil)
    }

    @Test func editingCancelsTheCheck() async throws {
        let model = makeModel()
        model.send(.urlChanged("example.com"))
        model.send(.connect)
        model.send(.urlChanged("example.org"))
        #expect(model.status == .editing)
        #expect(events.value.last == .serverCheckFailed)
        scripted.answer(.success(Self.server)) // arrives late: ignored
        try await Task.sleep(for: .milliseconds(50))
        #expect(model.status == .editing)
        #expect(settings.load().serverURL == nil)
    }

    @Test func leavingThePageCancelsTheCheck() async throws {
        let model = makeModel()
        model.send(.urlChanged("example.com"))
        model.send(.connect)
        model.deactivate()
        scripted.answer(.success(Self.server))
        try await Task.sleep(for: .milliseconds(50))
        #expect(model.isChecking, "nothing is applied after the page went away")
        #expect(settings.load().serverURL == nil)
    }

    @Test func aSavedServerIsCheckedAtOnce() async throws {
        let address = try ServerAddress.parse("http://10.0.0.2:8080").get()
        let model = makeModel(checking: address)
        #expect(model.urlText == "http://10.0.0.2:8080")
        #expect(model.status == .checking(address))
        await settle { !scripted.asked.value.isEmpty }
        #expect(scripted.asked.value == [address])
        #expect(events.value.isEmpty, "the navigator already is in checkingServer")
    }

    @Test func aLANServerThatAnswersWithAnotherIDIsRefused() async throws {
        let lan = LANServer(id: "lib-other", name: "Den", hostAndPort: "10.0.0.3:8080", version: "1.0.0", url: URL(string: "http://10.0.0.3:8080")!)
        let model = makeModel(discovery: .fixed([.found(lan)]))
        await settle { !model.discovered.isEmpty }
        #expect(model.discovered == [lan])
        model.send(.pick(lan))
        scripted.answer(.success(Self.server)) // id lib-abc, not lib-other
        await settle { !model.isChecking }
        guard case .failed(_, .notListenUp) = model.status else {
            Issue.record("\(model.status)")
            return
        }
    }

    @Test func discoveryEventsAreFollowed() async {
        let a = LANServer(id: "lib-a", name: "A", hostAndPort: "10.0.0.4:8080", version: nil, url: URL(string: "http://10.0.0.4:8080")!)
        let model = makeModel(discovery: .fixed([.found(a), .lost(id: "lib-a"), .unavailable(reason: "no daemon")]))
        await settle { model.discoveryStatus != .searching }
        #expect(model.discovered.isEmpty)
        #expect(model.discoveryStatus == .unavailable(reason: "no daemon"))
    }
}
