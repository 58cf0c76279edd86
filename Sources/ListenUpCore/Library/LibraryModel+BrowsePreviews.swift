import Foundation
import PNGEncoding

extension LibraryModel {
    /// Previews: the preview books, browsed through a ``BrowseModel`` over
    /// an in-memory cache of them (``previewServerBooks``), with `intents`
    /// sent to it (a tab, a page, a search) and, with `selected`, that
    /// book's details with its links.
    /// With `images`, the pages' photo and cover arrive (``previewImage(_:)``);
    /// without, the person shows their initials and the series no cover.
    func browseForPreview(_ intents: [BrowseModel.Intent], query: String = "", selected: String? = nil, images: Bool = false,
                          activities: Bool = true) {
        showForPreview(LibraryModel.previewBooks, status: .loaded, query: query, selected: selected, progress: LibraryModel.previewProgress)
        let store = Self.previewBrowseStore()
        // Selecting a book reads its details and links from it.
        self.store = store
        let browse = BrowseModel(dependencies: dependencies, store: store, library: self)
        self.browse = browse
        if images {
            browse.images = BrowseImageLoader(cache: nil, logger: dependencies.logger) { image in Self.previewImage(image) }
        }
        // Home, with this week's listening kept from an earlier start.
        try? store.saveListeningStats(Self.previewStats(now: Date()))
        home = HomeModel(dependencies: dependencies, server: nil, store: store, library: self)
        // The user's shelves and a neighbour's (LibraryModel+ShelfPreviews.swift).
        let shelves = ShelvesModel(dependencies: dependencies, server: nil, store: store, library: self)
        self.shelves = shelves
        home?.shelves = shelves
        shelves.start()
        // Others' activity (LibraryModel+DiscoverPreviews.swift).
        if activities { Self.addPreviewActivities(to: store, now: Date()) }
        let discover = DiscoverModel(previewStore: store, listeningNow: activities ? Self.previewListeningNow(now: Date()) : [],
                                     dependencies: dependencies)
        home?.discover = discover
        discover.start()
        if !query.isEmpty { browse.send(.search(query)) }
        for intent in intents { browse.send(intent) }
        if selected != nil, let id = selection?.book.id {
            selection?.links = (try? store.links(ofBook: id)) ?? BookLinks()
        }
    }

    /// Browsing previews: the tabs, each kind of page, a search finding
    /// series and people, a book's details with its links, and an empty
    /// search of a list.
    nonisolated static let browsePreviews: [PreviewState<LibraryModel>] = [
        .init("home", player: "playing") { $0.browseForPreview([.showHome]) },
        .init("home-discover-empty", player: "idle") { $0.browseForPreview([.showHome], activities: false) },
        .init("series") { $0.browseForPreview([.show(.series)]) },
        .init("authors") { $0.browseForPreview([.show(.authors)]) },
        .init("narrators") { $0.browseForPreview([.show(.narrators)]) },
        .init("series-no-results") { $0.browseForPreview([.show(.series)], query: "zzyzx") },
        .init("series-page", player: "idle") { $0.browseForPreview([.open(.series, id: "series-modern-classics")]) },
        .init("contributor-page", player: "idle") { $0.browseForPreview([.open(.contributor, id: "person-ursula-k-le-guin")]) },
        .init("contributor-photo", player: "idle") {
            $0.browseForPreview([.open(.contributor, id: "person-ursula-k-le-guin")], images: true)
        },
        .init("series-cover", player: "idle") { $0.browseForPreview([.open(.series, id: "series-modern-classics")], images: true) },
        .init("genre-page", player: "idle") { $0.browseForPreview([.open(.genre, id: "genre-science-fiction")]) },
        .init("search-people") { $0.browseForPreview([], query: "cl") },
        .init("details-links", player: "idle") { $0.browseForPreview([], selected: "book-0") },
        .init("shelf-page", player: "idle") { $0.browseForPreview([.open(.shelf, id: LibraryModel.previewShelfID)]) },
        .init("shelf-page-others", player: "idle") { $0.browseForPreview([.open(.shelf, id: LibraryModel.previewOthersShelfID)]) },
        .init("add-to-shelf", player: "idle") { model in
            model.browseForPreview([], selected: "book-0")
            model.shelfPreviewOverlay = .addToShelf
        },
        .init("new-shelf") { model in
            model.browseForPreview([.showHome])
            model.shelfPreviewOverlay = .newShelf
        },
    ]

    /// A week of listening ending `now`: a streak of four days, a quiet
    /// Tuesday-like gap, and the top genres as the Go server counts them.
    nonisolated static func previewStats(now: Date) -> ListeningStats {
        let minutes = [25, 0, 40, 15, 55, 70, 35]
        let days = minutes.enumerated().map { index, value in
            ListeningStats.Day(date: ListeningStats.dayString(now.addingTimeInterval(Double(index - 6) * 86_400)), seconds: Int64(value * 60))
        }
        return ListeningStats(totalSeconds: 312_000, currentStreakDays: 4, longestStreakDays: 12, booksFinished: 7, days: days,
                              topGenres: [.init(name: "Literary Fiction", seconds: 6_000), .init(name: "Science Fiction", seconds: 3_600),
                                          .init(name: "Fantasy", seconds: 1_200)])
    }

    /// A cache of the preview books with their links, and the series and
    /// people the server describes.
    nonisolated static func previewBrowseStore() -> InMemoryLibraryStore {
        let store = InMemoryLibraryStore()
        let updated = Date(timeIntervalSince1970: 1_750_000_000)
        do {
            try store.apply(previewServerBooks, deleting: [], state: LibrarySyncState())
            try store.apply(.series(EntityPage(entities: [
                Series(id: "series-modern-classics", name: "Modern Classics",
                       description: "<p>Novels of the last two centuries that readers keep coming back to, in the order the "
                           + "<i>Preview House</i> list suggests.</p>", coverPath: "series/preview.jpg", updatedAt: updated),
            ])), state: LibrarySyncState())
            try store.apply(.contributors(EntityPage(entities: [
                Contributor(id: "person-ursula-k-le-guin", name: "Ursula K. Le Guin", sortName: "Le Guin, Ursula K.",
                            description: "<p>An American author of novels, short stories and poems, best known for her works of "
                                + "speculative fiction, and a translator.</p>", imagePath: "contributors/preview.jpg",
                            updatedAt: updated),
            ])), state: LibrarySyncState())
            try addPreviewFacets(to: store, at: updated)
            try addPreviewShelves(to: store)
        } catch {
            // An in-memory store does not fail; a preview would show less.
        }
        return store
    }

    /// The preview books as the server sends them: their people (ids made
    /// from the names), a series of four with one unnumbered book besides
    /// each book's own, and genres with their paths.
    nonisolated static let previewServerBooks: [ServerBook] = {
        func slug(_ name: String) -> String {
            let folded = name.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
            return folded.split(separator: "-").joined(separator: "-")
        }
        let genres: [String: [(String, String)]] = [
            "book-0": [("Science Fiction", "fiction/science-fiction")],
            "book-1": [("Classics", "fiction/classics")],
            "book-2": [("Fantasy", "fiction/fantasy")],
            "book-3": [("Classics", "fiction/classics")],
            "book-4": [("Science Fiction", "fiction/science-fiction")],
            "book-5": [("Historical", "fiction/historical")],
            "book-6": [("Classics", "fiction/classics")],
            "book-7": [("Fiction", "fiction")],
            "book-9": [("Science Fiction", "fiction/science-fiction")],
        ]
        // Modern Classics: 1, 2 and 10, numbers sorted as numbers, and one
        // with no number, last.
        let classics: [String: String?] = ["book-3": "1", "book-5": "2", "book-2": "10", "book-1": nil]
        // A person with a second role, on another book (a page of two groups).
        let translators: [String: String] = ["book-6": "Ursula K. Le Guin"]
        return previewBooks.map { cached in
            var contributors: [ServerBook.Contributor] = []
            for name in cached.authors.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
                contributors.append(ServerBook.Contributor(id: "person-\(slug(name))", name: name, roles: ["author"]))
            }
            for name in cached.narrators.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
                contributors.append(ServerBook.Contributor(id: "person-\(slug(name))", name: name, roles: ["narrator"]))
            }
            if let translator = translators[cached.id] {
                contributors.append(ServerBook.Contributor(id: "person-\(slug(translator))", name: translator, roles: ["translator"]))
            }
            var book = ServerBook(id: cached.id, title: cached.title, createdAt: cached.createdAt, updatedAt: cached.updatedAt,
                                  contributors: contributors, totalDuration: cached.duration)
            let details = cached.decodedDetails
            (book.description, book.publisher, book.publishYear) = (details.description, details.publisher, details.publishYear)
            var series: [ServerBook.SeriesPlace] = []
            let own = cached.series.split(separator: "#", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if let name = own.first, !name.isEmpty {
                series.append(ServerBook.SeriesPlace(id: "series-\(slug(name))", name: name, sequence: own.count > 1 ? own[1] : nil))
            }
            if let place = classics[cached.id] {
                series.append(ServerBook.SeriesPlace(id: "series-modern-classics", name: "Modern Classics", sequence: place))
            }
            book.series = series
            let bookGenres = genres[cached.id] ?? []
            book.genres = bookGenres.map { name, path in
                ServerBook.Genre(id: "genre-\(path.split(separator: "/").last.map(String.init) ?? path)", name: name, path: path)
            }
            return book
        }
    }()
}

extension LibraryModel {
    /// A drawn stand-in for a preview's photo (a head and shoulders on a
    /// blue ground) or series cover (bands on a warm ground), as a PNG.
    nonisolated static func previewImage(_ image: BrowseImage) -> Data {
        let side = 160
        var pixels = [UInt8]()
        pixels.reserveCapacity(side * side * 3)
        for y in 0..<side {
            for x in 0..<side {
                let t = Double(x + y) / Double(2 * side)
                var pixel: (Double, Double, Double)
                switch image {
                case .contributorPhoto:
                    pixel = (40 + 60 * t, 90 + 70 * t, 160 + 60 * t)
                    let head = pow(Double(x - 80), 2) + pow(Double(y - 64), 2) < 30 * 30
                    let shoulders = pow(Double(x - 80) / 62, 2) + pow(Double(y - 168) / 58, 2) < 1
                    if head || shoulders { pixel = (236, 214, 190) }
                case .seriesCover:
                    pixel = (230 - 60 * t, 120 + 40 * t, 60 + 30 * t)
                    if (y / 16) % 3 == 1 { pixel = (pixel.0 * 0.8, pixel.1 * 0.8, pixel.2 * 0.8) }
                }
                pixels += [UInt8(pixel.0), UInt8(pixel.1), UInt8(pixel.2)]
            }
        }
        return PNGEncoder.encode(width: side, height: side, pixels: pixels)
    }
}
