import Foundation

extension LibraryModel {
    /// Previews only.
    func showForPreview(_ books: [CachedBook], status: Status, offline: Bool = false, syncing: SyncProgress? = nil,
                        query: String = "", selected: String? = nil, progress: [String: BookProgress] = [:],
                        layout: LibraryLayout = .grid, filter: LibraryFilter = .all, finished: Bool? = nil) {
        self.progress = progress
        self.layout = layout
        index = LibraryIndex(books)
        order = index.order(by: sort)
        self.books = order.map { book(at: $0) }
        self.query = query
        self.filter = filter
        finishedFilter = finished
        refilter()
        self.status = status
        hasLoadedCache = true
        isOffline = offline
        syncProgress = syncing
        if let selected, let cached = books.first(where: { $0.id == selected }) {
            let details = cached.decodedDetails
            selection = Details(book: self.books.first { $0.id == selected } ?? book(at: 0), subtitle: details.subtitle,
                                description: PlainText.fromHTML(details.description ?? ""), publisher: details.publisher,
                                publishYear: details.publishYear, contributors: details.contributors, chapters: details.chapters,
                                downloadSize: Self.downloadSize(of: details))
        }
    }

    nonisolated static let previews: [PreviewState<LibraryModel>] = [
        .init("loading") { $0.showForPreview([], status: .loading, syncing: SyncProgress(stored: 3_500, expected: 10_000)) },
        .init("loaded") { $0.showForPreview(LibraryModel.previewBooks, status: .loaded) },
        .init("search") { $0.showForPreview(LibraryModel.previewBooks, status: .loaded, query: "ur") },
        .init("no-results") { $0.showForPreview(LibraryModel.previewBooks, status: .loaded, query: "zzyzx") },
        .init("empty") { $0.showForPreview([], status: .loaded) },
        .init("offline") { $0.showForPreview(LibraryModel.previewBooks, status: .loaded, offline: true) },
        .init("details") { $0.showForPreview(LibraryModel.previewBooks, status: .loaded, selected: "book-2") },
        .init("listening", player: "playing") {
            $0.showForPreview(LibraryModel.previewBooks, status: .loaded, progress: LibraryModel.previewProgress)
        },
        .init("listening-list", player: "playing") {
            $0.showForPreview(LibraryModel.previewBooks, status: .loaded, progress: LibraryModel.previewProgress, layout: .list)
        },
        .init("listening-offer", player: "offered") {
            $0.showForPreview(LibraryModel.previewBooks, status: .loaded, progress: LibraryModel.previewProgress)
        },
        .init("listening-details", player: "paused") {
            $0.showForPreview(LibraryModel.previewBooks, status: .loaded, selected: "book-2", progress: LibraryModel.previewProgress)
        },
        // Downloads ("mixed": book-2 done, book-1 at 40 %, book-4 queued,
        // book-5 paused by the network, book-9 refused for lack of space).
        .init("downloads", player: "idle", downloads: "mixed") { $0.showForPreview(LibraryModel.previewBooks, status: .loaded) },
        .init("downloads-list", player: "idle", downloads: "mixed") {
            $0.showForPreview(LibraryModel.previewBooks, status: .loaded, layout: .list)
        },
        .init("downloaded-filter", player: "idle", downloads: "done") {
            $0.showForPreview(LibraryModel.previewBooks, status: .loaded, filter: .downloaded)
        },
        .init("downloaded-none", player: "idle", downloads: "none") {
            $0.showForPreview(LibraryModel.previewBooks, status: .loaded, filter: .downloaded)
        },
        .init("download-details", player: "idle", downloads: "mixed") {
            $0.showForPreview(LibraryModel.previewBooks, status: .loaded, selected: "book-0")
        },
        .init("download-details-downloading", player: "idle", downloads: "mixed") {
            $0.showForPreview(LibraryModel.previewBooks, status: .loaded, selected: "book-1")
        },
        .init("download-details-queued", player: "idle", downloads: "mixed") {
            $0.showForPreview(LibraryModel.previewBooks, status: .loaded, selected: "book-4")
        },
        .init("download-details-paused", player: "idle", downloads: "mixed") {
            $0.showForPreview(LibraryModel.previewBooks, status: .loaded, selected: "book-5")
        },
        .init("download-details-failed", player: "idle", downloads: "mixed") {
            $0.showForPreview(LibraryModel.previewBooks, status: .loaded, selected: "book-9")
        },
        .init("download-details-done", player: "idle", downloads: "mixed") {
            $0.showForPreview(LibraryModel.previewBooks, status: .loaded, selected: "book-2")
        },
        // The Finished filter: the finished books, and none of them.
        .init("finished-filter", player: "idle") {
            $0.showForPreview(LibraryModel.previewBooks, status: .loaded, progress: LibraryModel.previewProgress, finished: true)
        },
        .init("finished-none", player: "idle") {
            $0.showForPreview(LibraryModel.previewBooks, status: .loaded, finished: true)
        },
        .init("failed") {
            $0.showForPreview([], status: .failed(code: "unreachable", message: ServerError.transport(.unreachable("")).userMessage))
        },
    ]

    /// Where the preview listener stands: two books under way (as in the
    /// player's Continue listening), one finished.
    nonisolated static let previewProgress: [String: BookProgress] = [
        "book-2": BookProgress(fraction: 0.146, finished: false),
        "book-4": BookProgress(fraction: 0.69, finished: false),
        "book-9": BookProgress(fraction: 1, finished: true),
    ]

    /// The size of each of a preview book's three audio files.
    nonisolated static func previewFileSize(_ index: Int) -> Int64 {
        100_000_000 + Int64(index) * 7_000_000
    }

    /// A small library for previews: real-looking titles, a long one, and
    /// CJK, Arabic and emoji.
    nonisolated static let previewBooks: [CachedBook] = {
        let entries: [(String, String, String, String, Int64)] = [
            ("The Left Hand of Darkness", "Ursula K. Le Guin", "George Guidall", "Hainish Cycle #4", 52_000_000),
            ("Middlemarch", "George Eliot", "Juliet Stevenson", "", 128_000_000),
            ("Piranesi", "Susanna Clarke", "Chiwetel Ejiofor", "", 30_000_000),
            ("The Remains of the Day", "Kazuo Ishiguro", "Simon Prebble", "", 35_000_000),
            ("Project Hail Mary", "Andy Weir", "Ray Porter", "", 58_000_000),
            ("Wolf Hall", "Hilary Mantel", "Simon Slater", "Thomas Cromwell #1", 86_000_000),
            ("吾輩は猫である", "夏目漱石", "", "", 40_000_000),
            ("ألف ليلة وليلة", "مجهول", "", "", 72_000_000),
            ("The Extraordinarily Long and Winding Chronicle of Everything That Happened Before Breakfast 🌅", "A. Very-Longname", "", "Chronicles #12", 9_000_000),
            ("Dune", "Frank Herbert", "Scott Brick", "Dune #1", 75_000_000),
        ]
        let start = Date(timeIntervalSince1970: 1_750_000_000)
        return entries.enumerated().map { index, entry in
            var details = BookDetails()
            details.description = index == 2
                ? "<p>Piranesi's house is no ordinary building: its rooms are infinite, its corridors endless.</p><p>For as long as he can remember, <b>Piranesi</b> has lived in the House &amp; explored it.</p>"
                : "<p>A preview description.</p>"
            details.contributors = [BookDetails.Person(name: entry.1, roles: ["author"])]
                + (entry.2.isEmpty ? [] : [BookDetails.Person(name: entry.2, roles: ["narrator"])])
            details.chapters = (0..<12).map { BookDetails.ChapterEntry(title: "Chapter \($0 + 1)", start: Int64($0) * 1_800_000, duration: 1_800_000) }
            details.publisher = "Preview House"
            details.publishYear = "2020"
            // Three files, as the downloads' previews have them.
            details.audioFiles = (0..<3).map {
                BookDetails.AudioFileEntry(id: "file-\($0)", duration: entry.4 / 3, size: LibraryModel.previewFileSize(index), format: "m4b")
            }
            return CachedBook(id: "book-\(index)", title: entry.0, authors: entry.1, narrators: entry.2, series: entry.3,
                              duration: entry.4, createdAt: start.addingTimeInterval(Double(index) * 86_400),
                              updatedAt: start, hasCover: false, details: details)
        }
    }()
}
