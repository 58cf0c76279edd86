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
        let calls = await server.calls
        #expect(calls.prefix(4) == ["count", "page first", "page 2", "page 4"], "\(calls)")
        #expect(calls.contains("events"))

        try await server.announce(id: "book-new", title: "Beloved")
        await settle { model.books.count == 6 }
        #expect(model.books.map(\.title).prefix(2) == ["Anathem", "Beloved"])

        await server.lapse()
        await settle { !events.value.isEmpty }
        #expect(events.value == [.sessionRefused])

        model.send(.signOut)
        await settle { events.value.count == 2 }
        #expect(events.value.last == .signedOut)
        #expect(await server.calls.last == "logout")
    }
}
