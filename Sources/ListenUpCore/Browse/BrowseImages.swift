import Foundation
import Logging

/// An image the server keeps for a browse entity: a person's photo or a
/// series' cover.
public enum BrowseImage: Sendable, Hashable {
    /// `GET /api/v1/contributors/{id}/photo` (kRPC) or `…/{id}/image` (REST v1).
    case contributorPhoto(id: String)
    /// `GET /api/v1/series/{id}/cover` (kRPC; REST v1 serves none).
    case seriesCover(id: String)

    /// The image of a page, when the page names one (``BrowsePageContents/imagePath``).
    public init?(page contents: BrowsePageContents) {
        guard contents.imagePath != nil else { return nil }
        switch contents.kind {
        case .contributor: self = .contributorPhoto(id: contents.id)
        case .series: self = .seriesCover(id: contents.id)
        default: return nil
        }
    }
}

extension ServerConnection {
    /// A server that serves no browse images (previews, offline).
    public func browseImage(_ image: BrowseImage, maxBytes: Int) async throws(ServerError) -> Data? { nil }
}

/// Fetches the photos and series covers of browse pages and keeps them, in
/// a ``CoverCache`` (the covers' folder) and, a few, in memory.
///
/// Neither server tags these images with an `ETag` (contract v0.9 §5: no
/// caching headers on today's server; the Go server sends only
/// `Cache-Control`). What names an image's version is its path: today's
/// server's `imagePath`/`coverPath` are content-addressed
/// (`contributors/<sha256>.jpg`), and REST v1's mapping adds the row's
/// update time to its fixed URL. So a copy is kept with the path it was
/// fetched for (`+person-<id>` and `+person-<id>.path`; a book's cover
/// names never start with `+`), served while the path is the same, and
/// fetched again when it changes. A 404 or bytes that are not an image are
/// remembered for the run, per path.
public actor BrowseImageLoader {
    /// Images larger than this are refused (a broken or hostile server).
    public static let maxImageBytes = 8 << 20
    /// Decoded-or-not images kept in memory (a page shows one).
    static let memoryCapacity = 32

    private let fetch: @Sendable (BrowseImage) async throws(ServerError) -> Data?
    private let cache: (any CoverCache)?
    private let logger: Logger
    private var memory: [BrowseImage: (path: String, image: CoverData)] = [:]
    private var order: [BrowseImage] = []
    private var absent: Set<String> = []
    /// Fetches under way, so a page shown twice fetches once.
    private var running: [String: Task<CoverData?, Never>] = [:]

    /// The images of `server`, kept in `cache` (memory only when nil).
    public init(server: any ServerConnection, cache: (any CoverCache)?, logger: Logger) {
        self.init(cache: cache, logger: logger) { image throws(ServerError) in
            try await server.browseImage(image, maxBytes: BrowseImageLoader.maxImageBytes)
        }
    }

    /// A loader over a fetch function (tests).
    public init(cache: (any CoverCache)?, logger: Logger,
                fetch: @escaping @Sendable (BrowseImage) async throws(ServerError) -> Data?) {
        self.fetch = fetch
        self.cache = cache
        self.logger = logger
    }

    /// The image of `page`, or nil when it has none or it cannot be had now.
    public func image(for page: BrowsePageContents) async -> CoverData? {
        guard let image = BrowseImage(page: page), let path = page.imagePath else { return nil }
        return await self.image(image, path: path)
    }

    /// `image` at the version `path` names, or nil when it has none or it
    /// cannot be had now (offline: the copy kept, if its path is the same).
    public func image(_ image: BrowseImage, path: String) async -> CoverData? {
        if let kept = memory[image], kept.path == path { return kept.image }
        let key = Self.key(image, path)
        if absent.contains(key) { return nil }
        let name = Self.fileName(image)
        if let cache, cache.read(name + ".path").flatMap({ String(data: $0, encoding: .utf8) }) == path,
           let data = cache.read(name), let decoded = CoverData(bytes: data) {
            remember(image, path, decoded)
            return decoded
        }
        if let task = running[key] { return await task.value }
        let task = Task { await self.download(image, path: path) }
        running[key] = task
        let result = await task.value
        running[key] = nil
        return result
    }

    private func download(_ image: BrowseImage, path: String) async -> CoverData? {
        let data: Data?
        do {
            data = try await fetch(image)
        } catch {
            logger.debug("Browse image not loaded", metadata: ["image": "\(Self.fileName(image))", "code": "\(error.code)"])
            return nil
        }
        let name = Self.fileName(image)
        guard let data, let decoded = CoverData(bytes: data) else {
            absent.insert(Self.key(image, path))
            cache?.remove(name)
            cache?.remove(name + ".path")
            return nil
        }
        remember(image, path, decoded)
        if let cache {
            do {
                try cache.write(data, to: name)
                try cache.write(Data(path.utf8), to: name + ".path")
            } catch {
                logger.debug("Browse image not cached on disk", metadata: ["reason": "\(error)"])
            }
        }
        return decoded
    }

    private func remember(_ image: BrowseImage, _ path: String, _ decoded: CoverData) {
        order.removeAll { $0 == image }
        order.append(image)
        memory[image] = (path, decoded)
        while order.count > Self.memoryCapacity { memory[order.removeFirst()] = nil }
    }

    /// The cache's name for `image`.
    static func fileName(_ image: BrowseImage) -> String {
        switch image {
        case .contributorPhoto(let id): "+person-" + CoverLoader.safeName(id)
        case .seriesCover(let id): "+series-" + CoverLoader.safeName(id)
        }
    }

    private static func key(_ image: BrowseImage, _ path: String) -> String {
        fileName(image) + "\n" + path
    }
}

extension BrowseModel {
    /// The photo or cover of the page showing `contents`, from the cache or
    /// the server; nil when it has none, or none can be had now.
    public func image(for contents: BrowsePageContents) async -> CoverData? {
        guard let images else { return nil }
        return await images.image(for: contents)
    }
}
