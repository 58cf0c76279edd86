import Foundation
import ListenUpAPI
import ListenUpTestSupport
import Testing
@testable import ListenUpCore

@MainActor
@Suite("The library through the server seam alone")
struct ServerSeamTests {
    func settle(_ done: () -> Bool) async {
        for _ in 0..<500 where !done() { try? await Task.sleep(for: .milliseconds(10)) }
    }

    @Test func theLibrarySyncsFollowsEventsAndSignsOutThroughAnyConnection() async throws {
        let server = try ScriptedServer(titles: ["Zebra", "Anathem", "Middlemarch", "Dune", "Emma"])
        let session = Session(try #require(await server.currentSession), connection: server)
        let events = LockedValue<[AuthEvent]>([])
        let model = LibraryModel(dependencies: .test(), session: session, send: { event in events.withLock { $0.append(event) } })
        defer { model.deactivate() }

        await settle { model.isLive && model.books.count == 5 }
        #expect(model.books.map(\.title) == ["Anathem", "Dune", "Emma", "Middlemarch", "Zebra"])
        #expect(model.status == .loaded)
        let firstCalls = await server.calls
        #expect(firstCalls.prefix(4) == ["count", "page first", "page 2", "page 4"], "\(firstCalls)")
        #expect(firstCalls.contains("events"))

        try await server.announce(id: "book-new", title: "Beloved")
        await settle { model.books.count == 6 }
        #expect(model.books.map(\.title).prefix(2) == ["Anathem", "Beloved"])

        await server.lapse()
        await settle { !events.value.isEmpty }
        #expect(events.value == [.sessionRefused(.sessionEnded)])

        // The server says its data changed while a sync runs (the user's
        // reload): the sync under way may have read it before the change,
        // so another runs after it.
        func deltas() async -> Int { await server.calls.filter { $0 == "delta" }.count }
        let before = await deltas()
        await server.holdNextDelta()
        model.send(.reload)
        for _ in 0..<500 where await deltas() == before { try await Task.sleep(for: .milliseconds(10)) }
        #expect(await deltas() == before + 1, "the reload's sync is under way, held")
        await server.announceEvent(.needsDeltaSync)
        try await Task.sleep(for: .milliseconds(200))
        await server.releaseDelta()
        for _ in 0..<500 where await deltas() < before + 2 { try await Task.sleep(for: .milliseconds(10)) }
        let calls = await server.calls
        #expect(await deltas() == before + 2, "the change announced mid-sync is followed by one more sync: \(calls)")

        model.send(.signOut)
        await settle { events.value.count == 2 }
        #expect(events.value.last == .signedOut)
        #expect(await server.calls.last == "logout")
    }
}
