import Foundation
import ListenUpTestSupport
import Logging
import Testing
@testable import ListenUpCore

/// Where the account is signed in: read when asked, another device signed
/// out (this one never), every other one at once, a server that lists
/// none, and a failure that keeps the list shown.
@MainActor @Suite("Account sessions")
struct AccountSessionsModelTests {
    static let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    static func session(_ id: String, current: Bool = false) -> AccountSession {
        AccountSession(id: id, label: "Device \(id)", platform: "Linux", createdAt: now, lastUsedAt: now, isCurrent: current)
    }

    @Test func sessionsAreReadAndOthersSignedOutButNeverThisOne() async throws {
        let server = try ScriptedServer(titles: [])
        server.sessionsListed.withLock { $0 = [Self.session("me", current: true), Self.session("phone"), Self.session("tablet")] }
        let model = AccountSessionsModel(server: server, logger: Self.quiet)
        #expect(model.sessions == nil, "nothing read before it is asked")
        model.refresh()
        await model.settle()
        #expect(model.sessions?.map(\.id) == ["me", "phone", "tablet"] && model.isSupported && model.failure == nil)

        model.end("me")
        await model.settle()
        #expect(model.sessions?.count == 3, "this device's session is not ended from the list")
        model.end("phone")
        await model.settle()
        #expect(model.sessions?.map(\.id) == ["me", "tablet"])
        model.endOthers()
        await model.settle()
        #expect(model.sessions?.map(\.id) == ["me"])
        #expect(await server.calls.filter { $0.hasPrefix("end session") } == ["end session phone", "end session tablet"])
    }

    @Test func aServerThatListsNoneSaysSoAndAFailureKeepsTheList() async throws {
        let none = AccountSessionsModel(server: try ScriptedServer(titles: []), logger: Self.quiet)
        none.refresh()
        await none.settle()
        #expect(!none.isSupported && none.sessions == nil)

        let server = try ScriptedServer(titles: [])
        server.sessionsListed.withLock { $0 = [Self.session("me", current: true), Self.session("phone")] }
        let model = AccountSessionsModel(server: server, logger: Self.quiet)
        model.refresh()
        await model.settle()
        await server.setOffline(true)
        model.end("phone")
        await model.settle()
        #expect(model.failure != nil && model.sessions?.count == 2, "the list shown stays")
    }

    /// Followed while someone looks: read again every interval, so a device
    /// signing in elsewhere shows; no more reads once nobody looks.
    @Test func aFollowedListIsReadAgainUntilNobodyLooks() async throws {
        let server = try ScriptedServer(titles: [])
        server.sessionsListed.withLock { $0 = [Self.session("me", current: true)] }
        let model = AccountSessionsModel(server: server, logger: Self.quiet)
        model.followInterval = .milliseconds(50)
        model.follow()
        model.follow()
        await model.settle()
        #expect(model.sessions?.map(\.id) == ["me"])
        server.sessionsListed.withLock { $0 = [Self.session("me", current: true), Self.session("phone")] }
        for _ in 0..<500 where model.sessions?.count != 2 { try await Task.sleep(for: .milliseconds(20)) }
        #expect(model.sessions?.map(\.id) == ["me", "phone"], "read again without being asked")

        model.unfollow()
        let reads = model.reads
        // Four intervals on a quiet machine; a loaded one may take longer.
        for _ in 0..<500 where model.reads <= reads { try await Task.sleep(for: .milliseconds(20)) }
        #expect(model.reads > reads, "one still looks")
        model.unfollow()
        await model.settle()
        let stopped = model.reads
        try await Task.sleep(for: .milliseconds(200))
        #expect(model.reads == stopped, "nobody looks: no more reads")
    }

    /// Two changes chained: the model stays busy until the second ends.
    @Test func aChainedChangeKeepsTheModelBusy() async throws {
        let server = try ScriptedServer(titles: [])
        server.sessionsListed.withLock { $0 = [Self.session("me", current: true), Self.session("phone"), Self.session("tablet")] }
        let model = AccountSessionsModel(server: server, logger: Self.quiet)
        model.refresh()
        await model.settle()
        await server.holdSessionEnd("tablet")
        model.end("phone")
        model.end("tablet")
        // The second change starts once the first has read the list again.
        while await !server.calls.contains("end session tablet") { await Task.yield() }
        #expect(model.reads == 2 && model.sessions?.map(\.id) == ["me", "tablet"], "the first change is done")
        #expect(model.isBusy, "the second change is still under way")
        await server.releaseSessionEnd()
        await model.settle()
        #expect(!model.isBusy && model.sessions?.map(\.id) == ["me"])
    }
}
