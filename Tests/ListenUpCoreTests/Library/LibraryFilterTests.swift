import Foundation
import ListenUpAPI
import ListenUpTestSupport
import Testing
@testable import ListenUpCore

/// The library's Downloaded filter: only books downloaded in full, with
/// the search, kept current as downloads finish or are removed, and
/// recomputed only when the set of downloaded books changes.
@MainActor
@Suite("Library: the Downloaded filter")
struct LibraryFilterTests {
    /// The preview library over the `mixed` downloads (book-2 done, book-1
    /// downloading, book-4 queued, book-5 paused, book-9 failed).
    func library(downloads: DownloadsModel) -> LibraryModel {
        let model = LibraryModel(dependencies: .test(), session: nil, downloads: downloads, load: false, send: { _ in })
        model.showForPreview(LibraryModel.previewBooks, status: .loaded)
        return model
    }

    func settle(_ done: () -> Bool) async {
        for _ in 0..<500 where !done() { try? await Task.sleep(for: .milliseconds(10)) }
    }

    @Test func onlyBooksDownloadedInFullAreShown() {
        let downloads = DownloadsModel.preview("mixed", dependencies: .test())
        let model = library(downloads: downloads)
        #expect(model.filter == .all)
        #expect(model.visible.count == LibraryModel.previewBooks.count)
        model.send(.filter(.downloaded))
        // Downloading, queued, paused and failed books are not downloaded.
        #expect(model.visible.map(\.id) == ["book-2"])
        #expect(model.downloadedBookIDs == ["book-2"])
        model.send(.filter(.all))
        #expect(model.visible.count == LibraryModel.previewBooks.count)
    }

    @Test func theFilterAndTheSearchBothApplyInTheChosenOrder() {
        let downloads = DownloadsModel.preview("done", dependencies: .test())
        let model = library(downloads: downloads)
        model.send(.filter(.downloaded))
        #expect(model.visible.map(\.title) == ["Dune", "Piranesi"], "by title, the two downloaded books")
        model.send(.search("pira"))
        #expect(model.visible.map(\.id) == ["book-2"])
        model.send(.search("middlemarch"))
        #expect(model.visible.isEmpty, "a match that is not downloaded stays hidden")
        model.send(.filter(.all))
        #expect(model.visible.map(\.title) == ["Middlemarch"])
    }

    @Test func aRemovedDownloadLeavesTheFilteredBooks() async {
        let downloads = DownloadsModel.preview("done", dependencies: .test())
        let model = library(downloads: downloads)
        model.send(.filter(.downloaded))
        #expect(model.visible.count == 2)
        downloads.send(.remove(bookID: "book-9"))
        await settle { model.visible.count == 1 }
        #expect(model.visible.map(\.id) == ["book-2"])
        downloads.send(.removeAll)
        await settle { model.visible.isEmpty }
        #expect(model.visible.isEmpty)
        #expect(model.downloadedBookIDs.isEmpty)
    }

    @Test func aBookJoinsWhenItsLastFileIsDoneAndProgressAloneRecomputesNothing() async throws {
        let rig = try await DownloadsModelTests().rig(books: 1) { _, fetcher in
            fetcher.script("book-0-b", .hold)
        }
        let book = CachedBook(id: "book-0", title: "Book 0", authors: "", narrators: "", series: "", duration: 0,
                              createdAt: Date(), updatedAt: Date())
        let model = LibraryModel(dependencies: .test(), session: nil, downloads: rig.model, load: false, send: { _ in })
        model.showForPreview([book], status: .loaded, filter: .downloaded)
        #expect(model.visible.isEmpty)
        rig.model.send(.download(bookID: "book-0"))
        // The first file is whole, the second held: progress is published
        // while the book is not downloaded yet.
        await settle { (rig.model.item("book-0")?.bytes ?? 0) > 0 }
        try? await Task.sleep(for: .milliseconds(50))
        #expect(model.visible.isEmpty, "a book still downloading is not downloaded")
        #expect(model.downloadedSetChanges == 0, "progress alone changes nothing shown")
        rig.fetcher.release()
        await settle { !model.visible.isEmpty }
        #expect(model.visible.map(\.id) == ["book-0"])
        #expect(model.downloadedSetChanges == 1)
    }

    @Test func theFilterIsNotRememberedAcrossRestarts() {
        let settings = SettingsClient.inMemory()
        var dependencies = Dependencies.test()
        dependencies.settings = settings
        let downloads = DownloadsModel.preview("done", dependencies: dependencies)
        let model = LibraryModel(dependencies: dependencies, session: nil, downloads: downloads, load: false, send: { _ in })
        model.send(.filter(.downloaded))
        let again = LibraryModel(dependencies: dependencies, session: nil, downloads: downloads, load: false, send: { _ in })
        #expect(again.filter == .all)
    }

    @Test func aBooksDownloadSizeIsItsFilesSizes() {
        var details = BookDetails()
        #expect(LibraryModel.downloadSize(of: details) == nil, "no files known")
        details.audioFiles = [
            BookDetails.AudioFileEntry(id: "a", duration: 1, size: 300, format: "mp3"),
            BookDetails.AudioFileEntry(id: "b", duration: 1, size: 200, format: "mp3"),
        ]
        #expect(LibraryModel.downloadSize(of: details) == 500)
        details.audioFiles?.append(BookDetails.AudioFileEntry(id: "c", duration: 1, size: 0, format: "mp3"))
        #expect(LibraryModel.downloadSize(of: details) == nil, "a file of unknown size: unknown")
    }
}
