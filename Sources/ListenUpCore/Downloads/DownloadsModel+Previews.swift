import Foundation

extension DownloadsModel {
    /// A model (in memory, nothing runs) in preview state `name`, over the
    /// library's preview books, as a screen's preview names it
    /// (`PreviewState(downloads:)`). `mixed`: one book downloaded, one
    /// downloading (40 %), one queued, one paused by the network, one
    /// refused for lack of space. `done`: two books downloaded. `none`:
    /// nothing downloaded yet.
    public static func preview(_ name: String, dependencies: Dependencies) -> DownloadsModel {
        let store = InMemoryDownloadStore()
        let books = LibraryModel.previewBooks
        func download(_ index: Int, _ status: BookDownload.Status, fraction: Double, failure: BookDownload.Failure? = nil) {
            guard books.indices.contains(index) else { return }
            let book = books[index]
            let files = (0..<3).map { BookDownload.File(id: "file-\($0)", name: "00\($0 + 1)-file-\($0).m4b", size: LibraryModel.previewFileSize(index),
                                                        duration: book.duration / 3) }
            let chapters = book.decodedDetails.chapters.map(PlaybackTimeline.Chapter.init)
            let made = BookDownload(bookID: book.id, title: book.title, authors: book.authors, files: files, chapters: chapters,
                                    status: status, failure: failure, requestedAt: Date(timeIntervalSince1970: 1_750_000_000 + Double(index)),
                                    version: book.updatedAt, hasCover: false)
            try? store.save(made)
            var left = Int64(Double(made.totalBytes) * fraction)
            for file in files {
                store.setBytes(min(left, file.size), bookID: book.id, fileID: file.id)
                left = max(0, left - file.size)
            }
        }
        switch name {
        case "none":
            break
        case "done":
            download(2, .done, fraction: 1)
            download(9, .done, fraction: 1)
        default:
            download(2, .done, fraction: 1)
            download(1, .downloading, fraction: 0.4)
            download(4, .queued, fraction: 0)
            download(5, .paused, fraction: 0.72, failure: DownloadRules.network)
            download(9, .failed, fraction: 0, failure: DownloadRules.spaceRefusal(needed: 321_000_000, available: 120_000_000))
        }
        var configuration = Configuration()
        configuration.concurrentBooks = 0   // nothing starts in a preview
        return DownloadsModel(dependencies: dependencies, session: nil, store: store, configuration: configuration,
                              saved: .read(from: store))
    }
}
