import Foundation
import ListenUpCore
import Testing
@testable import ListenUpLive

/// The downloads on disk: folder names, manifests, files and the cover.
@Suite struct FileDownloadStoreTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("file-download-store-\(UUID().uuidString)", isDirectory: true)

    func download(_ id: String = "book-1") -> BookDownload {
        BookDownload(bookID: id, title: "A Book", authors: "An Author", files: [.init(id: "af-1", name: "001-af-1.mp3", size: 4, duration: 1_000)],
                     chapters: [], requestedAt: Date(timeIntervalSince1970: 1_000), hasCover: true)
    }

    @Test func folderNamesAreSafeAndDistinct() {
        #expect(FileDownloadStore.folderName("book-1") == "book-1")
        #expect(FileDownloadStore.folderName("a/b") != FileDownloadStore.folderName("a_b"))
        #expect(FileDownloadStore.folderName("..") == "_2E_2E")
        #expect(!FileDownloadStore.folderName("x/../y").contains("/"))
    }

    @Test func aManifestAFileAndTheCoverAreKeptAndRemovedWithTheBook() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let store = FileDownloadStore(root: root)
        let book = download()
        try store.save(book)
        #expect(try store.downloads() == [book])

        let file = try #require(book.files.first)
        try Data([1, 2, 3]).write(to: store.url(bookID: book.bookID, file: file))
        #expect(store.bytesOnDisk(bookID: book.bookID, file: file) == 3)
        store.removeFile(bookID: book.bookID, file: file)
        #expect(store.bytesOnDisk(bookID: book.bookID, file: file) == 0)

        #expect(store.coverFile(bookID: book.bookID) == nil)
        #expect(store.cover(bookID: book.bookID) == nil)
        try store.saveCover(Data([0x89, 0x50, 0x4E, 0x47]), bookID: book.bookID)
        let cover = try #require(store.coverFile(bookID: book.bookID))
        #expect(cover.deletingLastPathComponent() == store.folder(bookID: book.bookID))
        #expect(store.cover(bookID: book.bookID) == Data([0x89, 0x50, 0x4E, 0x47]))

        try store.remove(bookID: book.bookID)
        #expect(store.coverFile(bookID: book.bookID) == nil)
        #expect(try store.downloads().isEmpty)
    }
}
