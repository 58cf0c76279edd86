import Foundation
import Logging

/// The desktop's search (GNOME Shell's search provider) over the signed-in
/// library: answers from the local cache only, never the network, and
/// opens what was found in the app.
///
/// Every answer waits, up to ``readyWithin``, for the app to know who is
/// signed in and for the library's cache to be read (a search often starts
/// the app: D-Bus activation); signed out, or still not ready, the answer is
/// empty. The ``DesktopSearchIndex`` is built off the main actor, once per
/// change of the cache, and searched in memory.
///
/// The presenter (the Shell provider over D-Bus, in `ListenUpUI`) calls it
/// on the main actor and turns its answers into D-Bus replies.
@MainActor
public final class DesktopSearch {
    /// A result as the Shell shows it: ``DesktopSearchMeta`` and the file
    /// of the cover cached for it, if there is one.
    public struct Shown: Equatable, Sendable {
        public var meta: DesktopSearchMeta
        public var coverFile: URL?
    }

    private let navigator: AppNavigator
    private let logger: Logger
    /// How long an answer waits for the signed-in library's cache.
    public var readyWithin: Duration
    /// The index built last and what it was built from: the library and its cache version.
    private var built: (library: ObjectIdentifier, version: Int, index: DesktopSearchIndex)?
    private var building: (library: ObjectIdentifier, version: Int, task: Task<DesktopSearchIndex, Never>)?

    public init(navigator: AppNavigator, readyWithin: Duration = .seconds(5), logger: Logger) {
        self.navigator = navigator
        self.readyWithin = readyWithin
        self.logger = logger
    }

    // MARK: Answers

    /// The identifiers of the results for `terms`, best first.
    public func results(for terms: [String]) async -> [String] {
        guard let index = await index() else { return [] }
        return index.results(for: terms).map(\.identifier)
    }

    /// The identifiers among `previous` that `terms` still match.
    public func results(for terms: [String], within previous: [String]) async -> [String] {
        guard let index = await index() else { return [] }
        return index.results(for: terms, within: previous).map(\.identifier)
    }

    /// What the Shell shows for each identifier it knows, in order (those
    /// not in the library are left out).
    public func shown(_ identifiers: [String]) async -> [Shown] {
        guard let index = await index(), let signedIn = navigator.signedIn else { return [] }
        let store = signedIn.store
        var shown: [Shown] = []
        for result in identifiers.compactMap(DesktopSearchResult.init(identifier:)) {
            var count: Int?
            if result.kind == .person, index.isAuthorAndNarrator(result.id) {
                count = await Task.detached(priority: .userInitiated) {
                    (try? store.browsePage(.contributor, id: result.id))?.entries.count
                }.value
            }
            guard let meta = index.meta(for: result, personBookCount: count) else { continue }
            var cover: URL?
            if let book = meta.coverBookID, let version = meta.coverVersion {
                cover = await signedIn.library.coverFile(bookID: book, version: version)
            }
            shown.append(Shown(meta: meta, coverFile: cover))
        }
        return shown
    }

    // MARK: Opening

    /// Shows `identifier` in the app: a book's details, a series' or a
    /// person's page, over the library (an overlay such as the player is
    /// closed). Nothing happens for one not in the library.
    /// - Returns: whether it was shown.
    @discardableResult
    public func open(_ identifier: String) async -> Bool {
        guard let result = DesktopSearchResult(identifier: identifier), await index() != nil,
              let signedIn = navigator.signedIn else { return false }
        navigator.closeOverlay()
        switch result.kind {
        case .book:
            signedIn.library.send(.select(result.id))
            return signedIn.library.selection?.book.id == result.id
        case .series:
            signedIn.browse.send(.open(.series, id: result.id))
        case .person:
            signedIn.browse.send(.open(.contributor, id: result.id))
        }
        return true
    }

    /// Shows the library's books searched for `terms` (Home and the pages
    /// over the books are left, the search field holds the terms).
    /// - Returns: whether a library was there to search.
    @discardableResult
    public func launchSearch(_ terms: [String]) async -> Bool {
        guard await index() != nil, let signedIn = navigator.signedIn else { return false }
        navigator.closeOverlay()
        signedIn.browse.send(.closeAll)
        if signedIn.browse.showsHome || signedIn.browse.shown != nil { signedIn.browse.send(.show(nil)) }
        signedIn.library.send(.search(terms.joined(separator: " ")))
        return true
    }

    // MARK: The index

    /// The index of the signed-in library once its cache has been read;
    /// nil when nobody is signed in, or the cache is still not read after
    /// ``readyWithin``.
    public func index() async -> DesktopSearchIndex? {
        let deadline = ContinuousClock.now + readyWithin
        while true {
            let state = navigator.authState
            if state != .initializing {
                guard let library = navigator.signedIn?.library else { return nil }
                if library.hasLoadedCache { break }
            }
            guard ContinuousClock.now < deadline else {
                logger.debug("Desktop search: the library is not ready; no results")
                return nil
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        guard let signedIn = navigator.signedIn else { return nil }
        let library = signedIn.library
        let key = (ObjectIdentifier(library), library.cacheVersion)
        if let built, built.library == key.0, built.version == key.1 { return built.index }
        let task: Task<DesktopSearchIndex, Never>
        if let building, building.library == key.0, building.version == key.1 {
            task = building.task
        } else {
            let (books, order, store, logger) = (library.index, library.sort == .title ? library.order : nil, signedIn.store, logger)
            task = Task.detached(priority: .userInitiated) {
                let start = ContinuousClock.now
                func list(_ kind: BrowseKind) -> [BrowseItem] {
                    do { return try store.browseItems(kind) } catch {
                        logger.warning("Desktop search: a browse list is unreadable", metadata: ["list": "\(kind.rawValue)", "reason": "\(error)"])
                        return []
                    }
                }
                let index = DesktopSearchIndex(library: books, titleOrder: order, series: list(.series), authors: list(.authors),
                                               narrators: list(.narrators))
                let counts = index.counts
                logger.debug("Desktop search: index built", metadata: [
                    "books": "\(counts.books)", "series": "\(counts.series)", "people": "\(counts.people)",
                    "ms": "\((ContinuousClock.now - start).milliseconds)",
                ])
                return index
            }
            building = (key.0, key.1, task)
        }
        let index = await task.value
        if building?.library == key.0, building?.version == key.1 { building = nil }
        // A newer cache may have been shown meanwhile: that one is built at the next call.
        if library.cacheVersion == key.1 { built = (key.0, key.1, index) }
        return index
    }
}
