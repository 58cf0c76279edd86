import Foundation
import ListenUpAPI
@testable import ListenUpCore
import Logging
import Testing

/// The desktop's search over the navigator: it waits for the signed-in
/// library's cache, answers from it, opens what was found, and answers
/// nothing (never an error) when nobody is signed in.
@MainActor
@Suite("Desktop search: answers and opening")
struct DesktopSearchTests {
    let logger = Logger(label: "test.desktop-search", factory: { _ in SwiftLogNoOpLogHandler() })

    /// A navigator restoring a saved session whose cache holds the browse
    /// fixture (the server is unreachable: the cache is what there is).
    func signedIn() throws -> (AppNavigator, DesktopSearch) {
        let store = InMemoryLibraryStore()
        try store.apply(BrowseStoreTests.library, deleting: [], state: LibrarySyncState())
        let url = try #require(URL(string: "http://127.0.0.1:9"))
        let stored = StoredSession(serverURL: url, accessToken: "a", refreshToken: "r", sessionID: "session-1", userID: "user-1",
                                   displayName: "Ada L", email: "ada@example.com", accessExpiresAt: .distantFuture)
        var dependencies = Dependencies.test(settings: AppSettings(serverURL: url.absoluteString), sessions: .inMemory([stored]))
        dependencies.openLibrary = { _, _ in store }
        let navigator = AppNavigator(registry: .standard, dependencies: dependencies)
        navigator.start()
        return (navigator, DesktopSearch(navigator: navigator, logger: logger))
    }

    func settle(_ done: () -> Bool) async {
        for _ in 0..<300 where !done() { try? await Task.sleep(for: .milliseconds(10)) }
    }

    @Test func aSignedInLibraryIsAnsweredFromItsCacheOnceRead() async throws {
        let (navigator, search) = try signedIn()
        defer { navigator.signedIn?.leave() }
        // Asked at once, as a search that started the app is: it waits for the cache.
        #expect(await search.results(for: ["tow"]) == ["book:b2"])
        #expect(navigator.signedIn?.library.hasLoadedCache == true)
        #expect(await search.results(for: ["two"], within: ["book:b1", "book:b2"]) == ["book:b2"])
        let shown = await search.shown(["book:b2", "series:lotr", "person:tolkien", "book:gone", "nonsense"])
        #expect(shown.map(\.meta.result.identifier) == ["book:b2", "series:lotr", "person:tolkien"])
        #expect(shown.map(\.meta.name) == ["The Two Towers", "The Lord of the Rings", "J. R. R. Tolkien"])
        #expect(shown[1].meta.description == "Series · 4 books")
        #expect(shown[2].meta.description == "Author and narrator · 4 books", "both roles: the person's books counted once, from their page")
        #expect(shown.allSatisfy { $0.coverFile == nil }, "no cover is cached (and none is fetched)")
    }

    @Test func openingShowsTheBookThePageOrTheLibrarysSearch() async throws {
        let (navigator, search) = try signedIn()
        defer { navigator.signedIn?.leave() }
        #expect(await search.open("book:b3"))
        let signedIn = try #require(navigator.signedIn)
        #expect(signedIn.library.selection?.book.id == "b3", "the book's details")
        #expect(navigator.activeRoute == .library)

        #expect(await search.open("series:lotr"))
        await settle { signedIn.browse.pages.last?.key == BrowseModel.PageKey(kind: .series, id: "lotr") }
        #expect(signedIn.browse.pages.last?.contents.name == "The Lord of the Rings")
        #expect(await search.open("person:serkis"))
        await settle { signedIn.browse.pages.last?.key == BrowseModel.PageKey(kind: .contributor, id: "serkis") }
        #expect(signedIn.browse.pages.last?.contents.name == "Andy Serkis")

        #expect(await search.open("book:gone") == false)
        #expect(await search.open("nonsense") == false)

        #expect(await search.launchSearch(["fellow", "ship"]))
        #expect(signedIn.library.query == "fellow ship")
        #expect(signedIn.browse.pages.isEmpty && signedIn.browse.shown == nil && !signedIn.browse.showsHome, "the books, searched")
        #expect(signedIn.library.visible.map(\.id) == ["b1"])
    }

    @Test func anOverlayIsClosedToShowWhatWasFound() async throws {
        let (navigator, search) = try signedIn()
        defer { navigator.signedIn?.leave() }
        _ = await search.index()
        navigator.open(.pairing)
        #expect(navigator.activeRoute == .pairing)
        #expect(await search.open("book:b1"))
        #expect(navigator.activeRoute == .library)
    }

    @Test func signedOutEveryAnswerIsEmpty() async {
        let navigator = AppNavigator(registry: .standard, dependencies: .test())
        navigator.start()
        #expect(navigator.authState == .needsServer)
        let search = DesktopSearch(navigator: navigator, logger: logger)
        #expect(await search.results(for: ["the"]).isEmpty)
        #expect(await search.results(for: ["the"], within: ["book:b1"]).isEmpty)
        #expect(await search.shown(["book:b1"]).isEmpty)
        #expect(await search.open("book:b1") == false)
        #expect(await search.launchSearch(["the"]) == false)
        #expect(navigator.activeRoute == .serverSetup, "nothing opened")
    }

    @Test func aNewCacheVersionIsSearchedAnew() async throws {
        let (navigator, search) = try signedIn()
        defer { navigator.signedIn?.leave() }
        #expect(await search.results(for: ["hobbit"]).isEmpty)
        let signedIn = try #require(navigator.signedIn)
        let before = signedIn.library.cacheVersion
        try signedIn.store.upsert([BrowseStoreTests.book("b9", "The Hobbit")])
        await signedIn.library.loadCache()
        #expect(signedIn.library.cacheVersion != before)
        #expect(await search.results(for: ["hobbit"]) == ["book:b9"])
    }
}
