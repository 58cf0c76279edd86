import Foundation
@testable import ListenUpCore
import Testing

/// The shelves model: reads the cache off the main actor (offline too),
/// checks a name before anything is sent, and says a refusal plainly.
@Suite("Shelves model")
@MainActor
struct ShelvesModelTests {
    static func store() throws -> InMemoryLibraryStore {
        let store = InMemoryLibraryStore()
        try store.apply(BrowseStoreTests.library, deleting: [], state: LibrarySyncState())
        try store.apply(.allShelves([ShelfStoreTests.shelf("s2", "commute", books: ["b5"]),
                                     ShelfStoreTests.shelf("s1", "Bedtime", books: ["b2", "b1"])]), state: LibrarySyncState())
        try store.saveDiscoveredShelves([ShelfStoreTests.shelf("d1", "Favourites", books: ["b4"], owner: ShelfOwner(id: "u2", name: "Mara"))])
        return store
    }

    @Test func shelvesAreReadFromTheCacheByNameWithWhatHoldsABook() async throws {
        let model = ShelvesModel(dependencies: .test(), server: nil, store: try Self.store(), library: nil)
        model.start()
        try await waitUntil { model.reads > 0 }
        #expect(model.mine.map(\.name) == ["Bedtime", "commute"], "by name, whatever the case")
        #expect(model.shelves(holding: "b1") == ["s1"])
        #expect(model.shelves(holding: "b3").isEmpty)
        #expect(model.discovered.first?.owner?.name == "Mara")
        #expect(model.shelf(id: "d1")?.name == "Favourites")
    }

    @Test func aNameIsCheckedBeforeAnythingIsSentAndARefusalIsSaid() async throws {
        let server = OfflineServerConnection(baseURL: URL(string: "http://127.0.0.1:9")!, session: nil, sessions: .inMemory())
        let model = ShelvesModel(dependencies: .test(), server: server, store: try Self.store(), library: nil)
        let blank = await model.perform(.create(name: "   ", description: "", isPrivate: false, addingBook: nil))
        #expect(blank == .failure(ShelfProblem(code: "invalidName", message: "Give the shelf a name.")), "refused here, not sent")
        let long = await model.perform(.update(id: "s1", name: String(repeating: "x", count: 101), description: "", isPrivate: false))
        #expect((try? long.get()) == nil && model.problem?.code == "invalidName")
        // A valid name is sent: a server that cannot be reached says so.
        let sent = await model.perform(.add(bookID: "b3", shelfID: "s1"))
        #expect(model.problem == ShelfProblem(.sessionLapsed), "\(sent)")
    }

    private func waitUntil(_ condition: @escaping @MainActor () -> Bool) async throws {
        for _ in 0..<500 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
        #expect(condition())
    }
}
