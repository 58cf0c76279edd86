import DemoServer
import Foundation
import ListenUpAPI
import ListenUpLive
import ListenUpTestSupport
import Testing
@testable import ListenUpCore

/// Registration through the live connections against the demo server, both
/// protocols: the mode each server reports, what a registration leads to,
/// and the status watch hearing a decision live (and ending after it).
@Suite("Registration on both protocols")
struct RegistrationTests {
    let logs = LogCapture()
    static let device = DeviceInfo(deviceType: "desktop", platform: "Linux", clientName: "ListenUp for Linux", clientVersion: "0.1.0",
                                   deviceName: "Grace's desktop")

    func start(_ wire: DemoProtocol, _ mode: DemoServer.RegistrationMode) async throws -> (DemoServer, any ServerConnection) {
        var configuration = DemoServer.Configuration()
        configuration.bookCount = 2
        configuration.protocol = wire
        configuration.registration = mode
        // Tests here count attempts: none may come back mid-test.
        configuration.rateLimitsRefill = false
        configuration.admin = .init(email: "ada@example.com", password: "analytical-engine")
        let server = DemoServer(configuration: configuration, logger: logs.logger)
        try await server.start()
        let url = try #require(server.baseURL)
        let connection: any ServerConnection = switch wire {
        case .krpc: KRPCServerConnection(baseURL: url, session: nil, transport: .live, sessions: .inMemory(), deviceInfo: Self.device,
                                         logger: logs.logger)
        case .rest: APIClient(baseURL: url, session: nil, transport: .live, sessions: .inMemory(), deviceInfo: Self.device,
                              logger: logs.logger)
        }
        return (server, connection)
    }

    @Test(arguments: [DemoProtocol.rest, .krpc], DemoServer.RegistrationMode.allCases)
    func theModeIsTheServers(_ wire: DemoProtocol, _ mode: DemoServer.RegistrationMode) async throws {
        let (server, connection) = try await start(wire, mode)
        defer { Task { await server.stop() } }
        let expected: RegistrationMode = switch (wire, mode) {
        case (_, .closed): .closed
        // The Go server has a bool only, and queues every registration.
        case (.rest, _): .approval
        case (.krpc, .open): .open
        case (.krpc, .approval): .approval
        }
        #expect(try await connection.registrationMode() == expected)
        server.setRegistration(.closed)
        #expect(try await connection.registrationMode() == .closed, "read again, not remembered")
    }

    /// Today's server tells of each change while the mode is followed (the
    /// same mode set again sends nothing); the Go server answers once.
    @Test(arguments: [DemoProtocol.rest, .krpc])
    func theModeIsFollowedWhereTheServerTellsOfChanges(_ wire: DemoProtocol) async throws {
        let (server, connection) = try await start(wire, .closed)
        defer { Task { await server.stop() } }
        var modes = try await connection.registrationModes().makeAsyncIterator()
        #expect(try await modes.next() == .closed)
        guard wire == .krpc else {
            #expect(try await modes.next() == nil, "REST v1 answers once")
            return
        }
        server.setRegistration(.closed)
        server.setRegistration(.open)
        #expect(try await modes.next() == .open, "no second closed: only changes are sent")
        server.setRegistration(.approval)
        #expect(try await modes.next() == .approval)
    }

    @Test(arguments: [DemoProtocol.rest, .krpc])
    func anApprovalIsHeardLiveAndThenTheAccountSignsIn(_ wire: DemoProtocol) async throws {
        let (server, connection) = try await start(wire, .approval)
        defer { Task { await server.stop() } }
        let outcome = try await connection.register(displayName: "Grace Brewster Hopper", email: "grace@example.com", password: "compiler-first")
        guard case .pendingApproval(let userID) = outcome else { Issue.record("\(outcome)"); return }
        #expect(server.pendingRegistrations() == [.init(userID: userID, email: "grace@example.com", displayName: "Grace Brewster Hopper")],
                "REST splits the name: first word, then the rest")
        await #expect(throws: ServerError.self) { _ = try await connection.login(email: "grace@example.com", password: "compiler-first") }
        var statuses = try await connection.registrationStatus(userID: userID).makeAsyncIterator()
        #expect(try await statuses.next() == .pending)
        #expect(server.approveRegistration(userID: userID))
        #expect(try await statuses.next() == .approved)
        #expect(try await statuses.next() == nil, "the watch ends after the decision")
        let session = try await connection.login(email: "grace@example.com", password: "compiler-first")
        #expect(session.email == "grace@example.com")
        // Watched again later, the answer is at once.
        var again = try await connection.registrationStatus(userID: userID).makeAsyncIterator()
        #expect(try await again.next() == .approved)
        #expect(!logs.text.contains("compiler-first"), "no password in any log")
    }

    @Test(arguments: [DemoProtocol.rest, .krpc])
    func aDenialIsHeardLive(_ wire: DemoProtocol) async throws {
        let (server, connection) = try await start(wire, .approval)
        defer { Task { await server.stop() } }
        guard case .pendingApproval(let userID) = try await connection.register(displayName: "Grace", email: "grace@example.com",
                                                                                 password: "compiler-first") else {
            Issue.record("not pending"); return
        }
        var statuses = try await connection.registrationStatus(userID: userID).makeAsyncIterator()
        #expect(try await statuses.next() == .pending)
        server.denyRegistration(userID: userID, reason: "Family only.")
        #expect(try await statuses.next() == .declined(message: wire == .krpc ? "Family only." : nil))
    }

    @Test(arguments: [DemoProtocol.rest, .krpc])
    func anUnknownRegistrationIsNotFoundOrDenied(_ wire: DemoProtocol) async throws {
        let (server, connection) = try await start(wire, .approval)
        defer { Task { await server.stop() } }
        do {
            var statuses = try await connection.registrationStatus(userID: "no-such-user").makeAsyncIterator()
            let first = try await statuses.next()
            // The Go server answers `denied` for an id it does not know.
            #expect(wire == .rest && first == .declined(message: nil), "\(String(describing: first))")
        } catch {
            #expect(wire == .krpc && (error as? ServerError) == .server(status: 404, message: ""), "\(error)")
        }
    }

    @Test func anOpenKRPCServerSignsTheMemberInWithThisDevicesLabel() async throws {
        let (server, connection) = try await start(.krpc, .open)
        defer { Task { await server.stop() } }
        let outcome = try await connection.register(displayName: "Grace Hopper", email: "grace@example.com", password: "compiler-first")
        guard case .signedIn(let session) = outcome else { Issue.record("\(outcome)"); return }
        #expect(session.displayName == "Grace Hopper" && session.email == "grace@example.com")
        #expect(await connection.currentSession == session)
        let listed = try #require(try await connection.accountSessions())
        #expect(listed.first?.label == "Grace's desktop")
    }

    @Test(arguments: [DemoProtocol.rest, .krpc])
    func refusalsReadAsTheScreensNeedThem(_ wire: DemoProtocol) async throws {
        let (server, connection) = try await start(wire, .approval)
        defer { Task { await server.stop() } }
        do {
            _ = try await connection.register(displayName: "Ada", email: "ada@example.com", password: "another-one")
            Issue.record("an email in use was taken")
        } catch {
            #expect(CreateAccountModel.code(for: error) == "emailInUse")
            #expect(!error.userMessage.isEmpty)
        }
        server.setRegistration(.closed)
        do {
            _ = try await connection.register(displayName: "Grace", email: "grace@example.com", password: "compiler-first")
            Issue.record("a closed server took a registration")
        } catch {
            #expect(CreateAccountModel.code(for: error) == "registrationClosed")
            if wire == .krpc { #expect(error.userMessage == RegistrationMessages.closed) }
        }
    }

    @Test func theSixthRegistrationInAMinuteIsRateLimited() async throws {
        let (server, connection) = try await start(.krpc, .approval)
        defer { Task { await server.stop() } }
        for index in 0..<5 {
            _ = try await connection.register(displayName: "Reader", email: "reader\(index)@example.com", password: "long-enough")
        }
        do {
            _ = try await connection.register(displayName: "Reader", email: "reader5@example.com", password: "long-enough")
            Issue.record("a sixth registration in a minute was taken")
        } catch {
            #expect(CreateAccountModel.code(for: error) == "rateLimited", "\(error)")
        }
    }
}
