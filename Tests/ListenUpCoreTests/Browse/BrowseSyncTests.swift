import Foundation
import ListenUpAPI
@testable import ListenUpCore
import ListenUpTestSupport
import Testing

/// The contributors and series sync as the books do: in full once, then
/// only what changed after the newest change seen.
@Suite("Browse sync")
struct BrowseSyncTests {
    @Test func aFullSyncThenDeltas() async throws {
        let server = try ScriptedServer(titles: [])
        let store = InMemoryLibraryStore()
        try store.apply(BrowseStoreTests.library, deleting: [], state: LibrarySyncState())
        let first = Date(timeIntervalSince1970: 1_800_000_000)
        await server.setBrowse(contributors: [Contributor(id: "tolkien", name: "Tolkien", updatedAt: first)],
                               series: [Series(id: "lotr", name: "LOTR", description: "Hobbits.", updatedAt: first)])
        let sync = BrowseSync(server: server, store: store)
        #expect(try await sync.run() == 2)
        #expect(try store.syncState(of: .series) == LibrarySyncState(fullSyncDone: true, newestUpdate: first))
        #expect(try store.browsePage(.series, id: "lotr")?.description == "Hobbits.")
        #expect(try await sync.run() == 0, "a delta after the newest change brings nothing")
        let later = first.addingTimeInterval(60)
        await server.setBrowse(contributors: [Contributor(id: "tolkien", name: "Tolkien", updatedAt: first)],
                               series: [Series(id: "lotr", name: "The Lord of the Rings", updatedAt: later)])
        #expect(try await sync.run() == 1)
        #expect(try store.browseItems(.series).first { $0.id == "lotr" }?.name == "The Lord of the Rings")
    }
}
