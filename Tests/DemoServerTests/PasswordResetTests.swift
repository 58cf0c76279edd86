import DemoServer
import Foundation
import ListenUpAPI
import ListenUpLive
import ListenUpTestSupport
import Testing
@testable import ListenUpCore

/// Password reset through the live kRPC connection against the demo server
/// (addendum §6.3): the ticket, the repeating status watch, the order of
/// the completion's refusals, five attempts, and every session ended on
/// success. REST v1 has none, and says so without asking.
@Suite("Password reset")
struct PasswordResetTests {
    let logs = LogCapture()
    static let device = DeviceInfo(deviceType: "desktop", platform: "Linux", clientName: "ListenUp for Linux", clientVersion: "0.1.0",
                                   deviceName: "Ada's desktop")

    func start(_ wire: DemoProtocol = .krpc) async throws -> (DemoServer, URL) {
        var configuration = DemoServer.Configuration()
        configuration.bookCount = 2
        configuration.protocol = wire
        // Tests here count attempts: none may come back mid-test.
        configuration.rateLimitsRefill = false
        configuration.krpc.passwordResetPollInterval = 0.2
        configuration.admin = .init(email: "ada@example.com", password: "analytical-engine")
        let server = DemoServer(configuration: configuration, logger: logs.logger)
        try await server.start()
        let url = try #require(server.baseURL)
        return (server, url)
    }

    func connection(_ url: URL, _ wire: DemoProtocol = .krpc) -> any ServerConnection {
        switch wire {
        case .krpc: KRPCServerConnection(baseURL: url, session: nil, transport: .live, sessions: .inMemory(), deviceInfo: Self.device,
                                         logger: logs.logger)
        case .rest: APIClient(baseURL: url, session: nil, transport: .live, sessions: .inMemory(), deviceInfo: Self.device,
                              logger: logs.logger)
        }
    }

    @Test func anApprovedResetChangesThePasswordAndEndsEverySession() async throws {
        let (server, url) = try await start()
        defer { Task { await server.stop() } }
        let signedIn = connection(url)
        let stored = try await signedIn.login(email: "ada@example.com", password: "analytical-engine")
        #expect(try await signedIn.libraryBookCount() == 2)

        let resetting = connection(url)
        let claim = DeviceClaim.mint().value
        let ticket = try await resetting.requestPasswordReset(email: "ada@example.com", deviceClaim: claim)
        let lifetime = ticket.expiresAt.timeIntervalSinceNow
        #expect(lifetime > 14 * 60 && lifetime <= 15 * 60 + 1, "15 minutes: \(lifetime)")
        #expect(server.pendingPasswordResets().map(\.ticketID) == [ticket.ticketID])
        var statuses = try await resetting.passwordResetStatus(ticketID: ticket.ticketID).makeAsyncIterator()
        #expect(try await statuses.next() == .pending)
        #expect(try await statuses.next() == .pending, "each poll is sent, repeats included")
        await #expect(throws: ServerError.passwordReset(.notApproved)) {
            try await resetting.completePasswordReset(ticketID: ticket.ticketID, claimSecret: claim, code: "ABCD2345", newPassword: "difference-engine")
        }
        let code = try #require(server.approvePasswordReset(ticketID: ticket.ticketID))
        #expect(code.count == 9 && code.dropFirst(4).first == "-")
        var next = try await statuses.next()
        while next == .pending { next = try await statuses.next() }
        #expect(next == .approved)

        await #expect(throws: ServerError.passwordReset(.codeIncorrect(attemptsRemaining: 4))) {
            try await resetting.completePasswordReset(ticketID: ticket.ticketID, claimSecret: claim, code: "00000000", newPassword: "difference-engine")
        }
        await #expect(throws: ServerError.passwordReset(.codeIncorrect(attemptsRemaining: 3)), "another device's claim is wrong too") {
            try await resetting.completePasswordReset(ticketID: ticket.ticketID, claimSecret: DeviceClaim.mint().value,
                                                      code: PasswordResetCode.normalized(code), newPassword: "difference-engine")
        }
        try await resetting.completePasswordReset(ticketID: ticket.ticketID, claimSecret: claim, code: PasswordResetCode.normalized(code.lowercased()),
                                                  newPassword: "difference-engine")
        next = try await statuses.next()
        while next == .approved { next = try await statuses.next() }
        #expect(next == .consumed)
        #expect(try await statuses.next() == nil, "the watch ends after a terminal status")

        // An open socket keeps its principal (as upstream's); a new one finds the session ended and its refresh refused.
        let reopened = KRPCServerConnection(baseURL: url, session: stored, transport: .live, sessions: .inMemory(), deviceInfo: Self.device,
                                            logger: logs.logger)
        await #expect(throws: ServerError.sessionLapsed, "the session signed in before the reset has ended") {
            _ = try await reopened.libraryBookCount()
        }
        await #expect(throws: ServerError.self) { _ = try await connection(url).login(email: "ada@example.com", password: "analytical-engine") }
        _ = try await connection(url).login(email: "ada@example.com", password: "difference-engine")
        await #expect(throws: ServerError.passwordReset(.notFound), "a used reset is gone") {
            try await resetting.completePasswordReset(ticketID: ticket.ticketID, claimSecret: claim, code: PasswordResetCode.normalized(code),
                                                      newPassword: "difference-engine")
        }
        #expect(!logs.text.contains(claim) && !logs.text.contains("difference-engine"), "no secret in any log")
    }

    @Test func fiveWrongCodesEndTheRequest() async throws {
        let (server, url) = try await start()
        defer { Task { await server.stop() } }
        let client = connection(url)
        let claim = DeviceClaim.mint().value
        let ticket = try await client.requestPasswordReset(email: "ada@example.com", deviceClaim: claim)
        let code = try #require(server.approvePasswordReset(ticketID: ticket.ticketID))
        for left in (0..<5).reversed() {
            await #expect(throws: ServerError.passwordReset(.codeIncorrect(attemptsRemaining: left))) {
                try await client.completePasswordReset(ticketID: ticket.ticketID, claimSecret: claim, code: "WRONG000", newPassword: "difference-engine")
            }
        }
        await #expect(throws: ServerError.passwordReset(.attemptsExhausted), "even the right code, now") {
            try await client.completePasswordReset(ticketID: ticket.ticketID, claimSecret: claim, code: PasswordResetCode.normalized(code),
                                                   newPassword: "difference-engine")
        }
        _ = try await client.login(email: "ada@example.com", password: "analytical-engine")
    }

    @Test func aWeakPasswordUsesNoAttemptAndTheSixthRequestIsThrottled() async throws {
        let (server, url) = try await start()
        defer { Task { await server.stop() } }
        let client = connection(url)
        let claim = DeviceClaim.mint().value
        let ticket = try await client.requestPasswordReset(email: "ada@example.com", deviceClaim: claim)
        _ = try #require(server.approvePasswordReset(ticketID: ticket.ticketID))
        // Eight spaces pass the app's length check; the server's policy refuses them first.
        await #expect(throws: ServerError.self) {
            try await client.completePasswordReset(ticketID: ticket.ticketID, claimSecret: claim, code: "WRONG000", newPassword: "        ")
        }
        await #expect(throws: ServerError.passwordReset(.codeIncorrect(attemptsRemaining: 4)), "the weak password used no attempt") {
            try await client.completePasswordReset(ticketID: ticket.ticketID, claimSecret: claim, code: "WRONG000", newPassword: "difference-engine")
        }
        for _ in 0..<4 { _ = try await client.requestPasswordReset(email: "nobody@example.com", deviceClaim: claim) }
        do {
            _ = try await client.requestPasswordReset(email: "nobody@example.com", deviceClaim: claim)
            Issue.record("the sixth request in a minute was answered")
        } catch {
            #expect(error.code == "rateLimited", "\(error)")
        }
    }

    @Test @MainActor func fiveWrongCodesEndTheModelsRequest() async throws {
        let (server, url) = try await start()
        defer { Task { await server.stop() } }
        var dependencies = Dependencies.test()
        let logger = logs.logger
        dependencies.connectKRPC = { server, session, _ in
            KRPCServerConnection(baseURL: server.url, session: session, transport: .live, sessions: .inMemory(), deviceInfo: Self.device,
                                 logger: logger)
        }
        let model = ResetPasswordModel(server: KnownServer(url: url, generation: .krpc), email: "ada@example.com", dependencies: dependencies,
                                       send: { _ in })
        defer { model.deactivate() }
        model.send(.request)
        try await until { model.step == .waiting }
        let pending = try #require(server.pendingPasswordResets().first)
        _ = try #require(server.approvePasswordReset(ticketID: pending.ticketID))
        try await until { model.step == .enterCode }
        model.send(.changed(.password, "difference-engine"))
        model.send(.changed(.confirmation, "difference-engine"))
        for left in (1..<5).reversed() {
            model.send(.changed(.code, "0000-000\(left)"))
            model.send(.complete)
            try await until { model.failure?.code == "resetCodeIncorrect" && model.step == .enterCode }
            #expect(model.errorMessage?.contains("\(left) tr") == true, "\(model.errorMessage ?? "")")
        }
        model.send(.changed(.code, "0000-0009"))
        model.send(.complete)
        try await until { model.step != .completing }
        #expect(model.step == .enterCode && model.errorMessage == "That code is not right.", "the fifth wrong code: none left")
        model.send(.changed(.code, "0000-0008"))
        model.send(.complete)
        try await until { model.step == .ended(.attemptsExhausted) }
        model.send(.startAgain)
        #expect(model.step == .enterEmail)
    }

    @Test func aDenialIsHeardAndAnUnknownEmailLooksTheSame() async throws {
        let (server, url) = try await start()
        defer { Task { await server.stop() } }
        let client = connection(url)
        let claim = DeviceClaim.mint().value
        let nobody = try await client.requestPasswordReset(email: "nobody@example.com", deviceClaim: claim)
        #expect(server.pendingPasswordResets().isEmpty, "no account, no request to decide")
        var phantom = try await client.passwordResetStatus(ticketID: nobody.ticketID).makeAsyncIterator()
        #expect(try await phantom.next() == .pending, "an unknown ticket looks pending, never an error")
        #expect(!server.denyPasswordReset(ticketID: nobody.ticketID))

        let first = try await client.requestPasswordReset(email: "ada@example.com", deviceClaim: claim)
        let ticket = try await client.requestPasswordReset(email: "ada@example.com", deviceClaim: claim)
        var earlier = try await client.passwordResetStatus(ticketID: first.ticketID).makeAsyncIterator()
        #expect(try await earlier.next() == .expired, "a new request expires the earlier one")
        var statuses = try await client.passwordResetStatus(ticketID: ticket.ticketID).makeAsyncIterator()
        #expect(try await statuses.next() == .pending)
        #expect(server.denyPasswordReset(ticketID: ticket.ticketID))
        var next = try await statuses.next()
        while next == .pending { next = try await statuses.next() }
        #expect(next == .denied)
        #expect(try await statuses.next() == nil)
        await #expect(throws: ServerError.passwordReset(.notApproved), "denied reads as not approved") {
            try await client.completePasswordReset(ticketID: ticket.ticketID, claimSecret: claim, code: "ABCD2345", newPassword: "difference-engine")
        }
    }

    @Test func restV1SaysItCannot() async throws {
        let (server, url) = try await start(.rest)
        defer { Task { await server.stop() } }
        let client = connection(url, .rest)
        await #expect(throws: ServerError.server(status: 403, message: PasswordResetMessages.unavailable)) {
            _ = try await client.requestPasswordReset(email: "ada@example.com", deviceClaim: "claim")
        }
        #expect(ServerError.server(status: 403, message: PasswordResetMessages.unavailable).userMessage
            == "This server can't reset passwords. Ask its administrator.")
    }

    @Test @MainActor func theModelWalksTheWholeFlow() async throws {
        let (server, url) = try await start()
        defer { Task { await server.stop() } }
        var dependencies = Dependencies.test()
        let logger = logs.logger
        dependencies.connectKRPC = { server, session, _ in
            KRPCServerConnection(baseURL: server.url, session: session, transport: .live, sessions: .inMemory(), deviceInfo: Self.device,
                                 logger: logger)
        }
        let events = LockedValue<[AuthEvent]>([])
        let model = ResetPasswordModel(server: KnownServer(url: url, generation: .krpc), email: "", dependencies: dependencies,
                                       send: { event in events.withLock { $0.append(event) } })
        defer { model.deactivate() }
        model.send(.changed(.email, "ada@example.com"))
        model.send(.request)
        try await until { model.step == .waiting }
        let pending = try #require(server.pendingPasswordResets().first)
        try await until { model.statusChanges == [.pending] }
        let code = try #require(server.approvePasswordReset(ticketID: pending.ticketID))
        try await until { model.step == .enterCode }
        model.send(.changed(.code, "0000-0000"))
        model.send(.changed(.password, "difference-engine"))
        model.send(.changed(.confirmation, "difference-engine"))
        model.send(.complete)
        try await until { model.errorMessage != nil }
        #expect(model.errorMessage == "That code is not right. 4 tries left.")
        #expect(model.step == .enterCode)
        try await Task.sleep(for: .milliseconds(500))
        #expect(model.statusChanges == [.pending, .approved], "repeats every poll change nothing")
        model.send(.changed(.code, code.lowercased()))
        model.send(.complete)
        try await until { !events.value.isEmpty }
        #expect(events.value == [.passwordResetCompleted(email: "ada@example.com")])
    }

    @MainActor
    func until(_ condition: @MainActor () -> Bool) async throws {
        for _ in 0..<500 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
        #expect(condition())
    }
}
