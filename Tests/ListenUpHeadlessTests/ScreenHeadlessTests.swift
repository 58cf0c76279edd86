import Foundation
import Testing
@testable import ListenUpCore
@testable import ListenUpHeadless

/// Each screen as the headless front prints and commands it (in process;
/// the child-process suites drive the same through the real binary).
@MainActor
@Suite("Screens as the headless front shows them")
struct ScreenHeadlessTests {
    static let closed = KnownServer(url: URL(string: "http://127.0.0.1:9")!)

    /// The command `line` decodes to (a test fails when it is none).
    func command(_ line: String) throws -> HeadlessCommand {
        try HeadlessCommand.decode(line: line).get()
    }

    func settle(_ done: () -> Bool) async {
        for _ in 0..<500 where !done() { try? await Task.sleep(for: .milliseconds(10)) }
    }

    @Test func serverSetupTakesConnectAndRefusesWhatItDoesNotKnow() throws {
        let model = ServerSetupModel(environment: .init(verifier: ServerVerifier { _ in .failure(.unreachable) },
                                                        discovery: .fixed([]), settings: .inMemory(), send: { _ in }),
                                     browse: false)
        #expect(model.handle(try command(#"{"action":"connect","url":"nope nope"}"#)))
        #expect(model.snapshot["code"] == "urlContainsWhitespace")
        #expect(model.handle(try command(#"{"action":"connect","url":"ftp://example.com"}"#)))
        #expect(model.snapshot["status"] == "invalid")
        #expect(model.snapshot["code"] == "unsupportedScheme")
        #expect(!model.handle(try command(#"{"action":"pick","id":"lib-nowhere"}"#)), "not a discovered server")
        #expect(!model.handle(.reload), "a command of another screen")
        #expect(HeadlessCommand.decode(line: #"{"action":"dance"}"#) == .failure(.unknownAction("dance")))
        #expect(HeadlessCommand.decode(line: #"{"action":"pick","id":7}"#) == .failure(.badArguments(.pick)))
    }

    @Test func serverSetupPicksADiscoveredServerByID() async throws {
        let lan = LANServer(id: "lib-den", name: "Den", hostAndPort: "127.0.0.1:9", version: "1.0.0",
                            url: URL(string: "http://127.0.0.1:9")!)
        let model = ServerSetupModel(environment: .init(verifier: ServerVerifier { _ in .failure(.unreachable) },
                                                        discovery: .fixed([.found(lan)]), settings: .inMemory(), send: { _ in }))
        defer { model.deactivate() }
        await settle { !model.discovered.isEmpty }
        #expect(model.snapshot["discovered"]?[0]?["name"] == "Den")
        #expect(model.handle(try command(#"{"action":"pick","id":"lib-den"}"#)))
        #expect(model.urlText == "http://127.0.0.1:9")
        await settle { !model.isChecking }
        #expect(model.snapshot["code"] == "unreachable")
    }

    @Test func setupAdminSplitsTheNameAndKeepsPasswordsOut() async throws {
        let model = AdminSetupModel(server: Self.closed, dependencies: .test(), send: { _ in })
        #expect(model.handle(try command(#"{"action":"setupAdmin","name":"Ada King Lovelace","email":"ada@example.com","password":"analytical-engine"}"#)))
        #expect(model.firstName == "Ada King" && model.lastName == "Lovelace")
        #expect(!"\(model.snapshot)".contains("analytical-engine"))
        await settle { model.status != .creating }
        #expect(model.snapshot["code"] == "unreachable")
        #expect(model.snapshot["server"] == "http://127.0.0.1:9")

        let invalid = AdminSetupModel(server: Self.closed, dependencies: .test(), send: { _ in })
        #expect(invalid.handle(try command(#"{"action":"setupAdmin","name":"Ada","email":"ada@","password":"short"}"#)))
        #expect(invalid.snapshot["code"] == "invalidForm")
        #expect(invalid.snapshot["fieldErrors"]?["password"] == "Use at least 8 characters.")
        #expect(!"\(invalid.snapshot)".contains("short"), "no password in the snapshot")
    }

    @Test func loginKeepsThePasswordOutAndReportsWhy() async throws {
        let events = LockedValue<[AuthEvent]>([])
        let model = LoginModel(server: Self.closed, dependencies: .test(),
                               send: { event in events.withLock { $0.append(event) } })
        #expect(model.handle(try command(#"{"action":"login","email":"ada@example.com","password":"secret-words"}"#)))
        #expect(!"\(model.snapshot)".contains("secret-words"))
        await settle { model.status != .signingIn }
        #expect(model.snapshot["code"] == "unreachable")
        #expect(model.handle(.changeServer))
        #expect(events.value.last == .changeServer)
    }

    @Test func confirmPairingNeedsAPendingRequestAndABoolean() throws {
        let navigator = AppNavigator(registry: .standard, dependencies: .test())
        navigator.preview(.pairing, state: "open")
        let model = try #require(navigator.activeModel(.pairing))
        #expect(!model.handle(.confirmPairing(accept: true)), "nothing pending")
        navigator.preview(.pairing, state: "request")
        let asked = try #require(navigator.activeModel(.pairing))
        #expect(asked.snapshot["request"]?["client"] != nil)
        #expect(HeadlessCommand.decode(line: #"{"action":"confirmPairing","accept":"yes"}"#) == .failure(.badArguments(.confirmPairing)))
        #expect(HeadlessCommand.decode(line: #"{"action":"confirmPairing"}"#) == .failure(.badArguments(.confirmPairing)))
        #expect(HeadlessCommand.decode(line: #"{"action":"confirmPairing","accept":true,"also":1}"#) == .failure(.badArguments(.confirmPairing)))
        #expect(asked.request != nil)
        #expect(asked.handle(try command(#"{"action":"confirmPairing","accept":false}"#)))
        #expect(asked.request == nil)
    }

    @Test func everyStandardScreenHasAHeadlessForm() {
        for node in RouteRegistry.standard.nodes {
            let navigator = AppNavigator(registry: .standard, dependencies: .test())
            #expect(navigator.preview(node.route, state: nil))
            let model = navigator.activeModel
            #expect(model != nil, "\(node.route)")
            #expect(model.flatMap { HeadlessScreens.standard.snapshot(of: $0, on: node.route) } != nil, "\(node.route)")
        }
    }
}
