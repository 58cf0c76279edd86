import Foundation
import ListenUpLive
import ListenUpTestSupport
import Logging
import Testing
@testable import ListenUpCore

/// The photos and series covers of browse pages: kept by the path that
/// names their version (neither server sends an `ETag`), read from the
/// disk cache in the next run and offline, fetched again when the path
/// changes, never kept when they are not images.
@Suite("Browse images")
struct BrowseImageLoaderTests {
    static let png = CoverLoaderTests.png
    static let jpeg = CoverLoaderTests.jpeg
    static let quiet = CoverLoaderTests.quiet

    func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("listenup-browse-images-\(UUID().uuidString)")
    }

    static func person(_ id: String, path: String?) -> BrowsePageContents {
        BrowsePageContents(kind: .contributor, id: id, name: "Person \(id)", imagePath: path, entries: [])
    }

    @Test func aPageNamesItsImageByKindAndNoPathIsNoImage() {
        #expect(BrowseImage(page: Self.person("c1", path: "contributors/a.jpg")) == .contributorPhoto(id: "c1"))
        #expect(BrowseImage(page: BrowsePageContents(kind: .series, id: "s1", name: "S", imagePath: "series/b.jpg", entries: []))
            == .seriesCover(id: "s1"))
        #expect(BrowseImage(page: Self.person("c1", path: nil)) == nil)
        #expect(BrowseImage(page: BrowsePageContents(kind: .genre, id: "g", name: "G", imagePath: "x", entries: [])) == nil)
    }

    @Test func theDiskServesTheNextRunAndOfflineAndANewPathFetchesAgain() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fetches = LockedValue<[BrowseImage]>([])
        let online = LockedValue(true)
        let fetch: @Sendable (BrowseImage) async throws(ServerError) -> Data? = { image throws(ServerError) in
            guard online.value else { throw .transport(.unreachable("offline")) }
            fetches.withLock { $0.append(image) }
            return fetches.value.count == 1 ? Self.png : Self.jpeg
        }
        let first = BrowseImageLoader(cache: CoverFolder(directory), logger: Self.quiet, fetch: fetch)
        #expect(await first.image(for: Self.person("c1", path: "contributors/a.jpg"))?.format == .png)
        #expect(await first.image(for: Self.person("c1", path: "contributors/a.jpg"))?.format == .png)
        #expect(fetches.value == [.contributorPhoto(id: "c1")], "the second ask is served from memory")

        online.withLock { $0 = false }
        let offline = BrowseImageLoader(cache: CoverFolder(directory), logger: Self.quiet, fetch: fetch)
        #expect(await offline.image(for: Self.person("c1", path: "contributors/a.jpg"))?.bytes == Self.png, "the next run reads the disk")
        #expect(await offline.image(for: Self.person("c1", path: "contributors/b.jpg")) == nil, "a new photo cannot be had offline")

        online.withLock { $0 = true }
        #expect(await offline.image(for: Self.person("c1", path: "contributors/b.jpg"))?.format == .jpeg,
                "a failed read is tried again, and a new path fetches the new photo")
        #expect(fetches.value.count == 2)
        let again = BrowseImageLoader(cache: CoverFolder(directory), logger: Self.quiet, fetch: fetch)
        #expect(await again.image(for: Self.person("c1", path: "contributors/b.jpg"))?.bytes == Self.jpeg)
        #expect(fetches.value.count == 2, "the new photo replaced the old one on disk")
    }

    @Test func noImageAndNotAnImageAreRememberedAndNothingIsKept() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fetches = LockedValue(0)
        let loader = BrowseImageLoader(cache: CoverFolder(directory), logger: Self.quiet) { image throws(ServerError) in
            fetches.withLock { $0 += 1 }
            return image == .contributorPhoto(id: "html") ? Data("<html>not found</html>".utf8) : nil
        }
        #expect(await loader.image(for: Self.person("gone", path: "contributors/x.jpg")) == nil)
        #expect(await loader.image(for: Self.person("gone", path: "contributors/x.jpg")) == nil)
        #expect(await loader.image(for: Self.person("html", path: "contributors/y.jpg")) == nil)
        #expect(fetches.value == 2, "a 404 and a page that is not an image are asked once per path")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        #expect(names.isEmpty, "\(names)")
    }

    @Test func pagesShownTogetherFetchOnceAndHostileIDsStayInTheFolder() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fetches = LockedValue(0)
        let loader = BrowseImageLoader(cache: CoverFolder(directory), logger: Self.quiet) { _ throws(ServerError) in
            fetches.withLock { $0 += 1 }
            try? await Task.sleep(for: .milliseconds(50))
            return Self.png
        }
        let page = BrowsePageContents(kind: .series, id: "../../etc/passwd", name: "S", imagePath: "series/z.jpg", entries: [])
        async let one = loader.image(for: page)
        async let two = loader.image(for: page)
        let results = await [one, two]
        #expect(results.allSatisfy { $0?.bytes == Self.png })
        #expect(fetches.value == 1)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.count == 2 && names.allSatisfy { $0.hasPrefix("+series-") && !$0.contains("/") }, "\(names)")
    }
}
