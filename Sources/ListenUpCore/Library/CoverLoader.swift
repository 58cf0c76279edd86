import Foundation
import Logging

/// A cover's bytes and the format they really are (the server labels every
/// cover `image/jpeg`, PNGs included, so the bytes are sniffed).
public struct CoverData: Sendable, Equatable {
    public var bytes: Data
    public var format: ImageFormat

    /// `nil` when the bytes are not an image we know.
    public init?(bytes: Data) {
        guard let format = ImageFormat.sniff(bytes) else { return nil }
        self.bytes = bytes
        self.format = format
    }
}

/// What a cover fetch brought back.
public enum CoverFetch: Sendable, Equatable {
    /// The cover's bytes, and the `ETag` they were served with (nil: none).
    case image(Data, etag: String?)
    /// 304: the copy cached under the `ETag` sent as `If-None-Match` is current.
    case notModified
    /// The book has no cover (404).
    case none
}

extension ServerConnection {
    /// A server that cannot revalidate (no `ETag`s): a plain fetch.
    public func cover(bookID: String, maxBytes: Int, ifNoneMatch etag: String?) async throws(ServerError) -> CoverFetch {
        try await cover(bookID: bookID, maxBytes: maxBytes).map { .image($0, etag: nil) } ?? .none
    }
}

/// Fetches covers through `/api/v1/covers/{id}` with the Bearer header and
/// keeps them: in a ``CoverCache`` (the app's is a folder,
/// `$XDG_CACHE_HOME/listenup/covers-…/`) and in memory
/// (bounded in bytes, least recently used dropped first). At most
/// ``maxConcurrentFetches`` downloads run at once; the newest request is
/// served first (while scrolling, the books on screen now matter most), and
/// a request whose task is cancelled leaves the queue.
///
/// A cover is kept per book version (the book's `updated_at`) and per
/// ``CoverSize``: a grid copy (300 px) is never served where a large one
/// (600 px) was asked for, in memory or in the cache. Beside it in the
/// cache is the `ETag` it was served with (`<book>.etag`: the version, then
/// the tag); when the book changes, the cover is fetched again with
/// `If-None-Match`, and a 304 keeps the cached bytes for the new version
/// (an edit to a book's title rarely changes its cover).
public actor CoverLoader {
    /// Covers larger than this are refused (a broken or hostile server).
    public static let maxCoverBytes = 16 << 20
    public static let maxConcurrentFetches = 6

    /// Fetches a book's cover: its id, the `If-None-Match` to send if any, and the size.
    private let fetch: @Sendable (String, String?, CoverSize) async throws(ServerError) -> CoverFetch
    private let cache: (any CoverCache)?
    private let memoryLimit: Int
    private let logger: Logger

    private var memory: [String: (image: CoverData, lastUse: UInt64)] = [:]
    private var memoryBytes = 0
    private var clock: UInt64 = 0
    /// Books known to have no usable cover (404 or not an image), this run.
    private var absent: Set<String> = []
    private var running = 0
    private var waiting: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
    private var nextWaiter: UInt64 = 0

    /// The bytes kept in memory when no `memoryLimit` is given: small, as
    /// the page keeps decoded covers itself and the cache (a file read from
    /// the page cache) is behind this one; larger when there is no cache.
    static func defaultMemoryLimit(hasCache: Bool) -> Int {
        hasCache ? 1 << 20 : 4 << 20
    }

    /// Covers of `server`, kept in `cache` (in memory only when nil).
    public init(server: any ServerConnection, cache: (any CoverCache)?, memoryLimit: Int? = nil, logger: Logger) {
        self.init(cache: cache, memoryLimit: memoryLimit, logger: logger) { id, etag, size throws(ServerError) in
            try await server.cover(bookID: id, maxBytes: CoverLoader.maxCoverBytes, ifNoneMatch: etag, size: size)
        }
    }

    /// A loader over a plain fetch function, no revalidation (tests).
    public init(cache: (any CoverCache)?, memoryLimit: Int? = nil, logger: Logger,
                fetch: @escaping @Sendable (String) async throws(ServerError) -> Data?) {
        self.init(cache: cache, memoryLimit: memoryLimit, logger: logger) { id, _, _ throws(ServerError) in
            try await fetch(id).map { .image($0, etag: nil) } ?? .none
        }
    }

    /// A loader over a revalidating fetch function: it gets the book's id
    /// and the `ETag` to send as `If-None-Match` (tests).
    public init(cache: (any CoverCache)?, memoryLimit: Int? = nil, logger: Logger,
                revalidatingFetch fetch: @escaping @Sendable (String, String?) async throws(ServerError) -> CoverFetch) {
        self.init(cache: cache, memoryLimit: memoryLimit, logger: logger) { id, etag, _ throws(ServerError) in
            try await fetch(id, etag)
        }
    }

    /// A loader over a revalidating fetch function that also gets the size
    /// asked for (tests).
    public init(cache: (any CoverCache)?, memoryLimit: Int? = nil, logger: Logger,
                sizedFetch fetch: @escaping @Sendable (String, String?, CoverSize) async throws(ServerError) -> CoverFetch) {
        self.fetch = fetch
        self.cache = cache
        self.memoryLimit = memoryLimit ?? Self.defaultMemoryLimit(hasCache: cache != nil)
        self.logger = logger
    }

    /// The cover of `bookID` at `size` (`version` changes when the book
    /// does, so an edited book's cover is fetched again), or `nil` when it
    /// has none or it cannot be had now.
    public func cover(for bookID: String, version: Date, size: CoverSize = .grid) async -> CoverData? {
        let stamp = Self.stamp(version)
        let key = "\(bookID)@\(stamp)@\(size.width)"
        let name = Self.name(bookID, size)
        if let hit = memory[key] {
            touch(key, hit.image)
            return hit.image
        }
        if absent.contains(key) { return nil }
        let fileName = Self.fileName(name, stamp: stamp)
        if let data = cache?.read(fileName), let image = CoverData(bytes: data) {
            remember(key, image)
            return image
        }
        guard await acquire() else { return nil }
        defer { release() }
        // Another request may have fetched it while this one waited.
        if let hit = memory[key] { return hit.image }
        // The copy kept for an earlier version of the book, and its ETag.
        let kept = cache.flatMap { Self.keptCover(name, in: $0) }.flatMap { $0.stamp == stamp ? nil : $0 }
        let answer: CoverFetch
        do {
            answer = try await fetch(bookID, kept?.etag, size)
        } catch {
            logger.debug("Cover not loaded", metadata: ["book": "\(bookID)", "code": "\(error.code)"])
            return nil
        }
        switch answer {
        case .notModified:
            guard let kept, let cache, let data = cache.read(Self.fileName(name, stamp: kept.stamp)),
                  let image = CoverData(bytes: data) else {
                logger.debug("Cover answered 304 with no copy kept", metadata: ["book": "\(bookID)"])
                return nil
            }
            logger.debug("Cover unchanged (304): the copy kept is current", metadata: ["book": "\(bookID)"])
            remember(key, image)
            // The kept copy now serves this version (the player's media controls read the file).
            do {
                try cache.rename(Self.fileName(name, stamp: kept.stamp), to: fileName)
                try Self.keep(name, stamp: stamp, etag: kept.etag, in: cache)
            } catch {
                logger.debug("Cover not cached on disk", metadata: ["reason": "\(error)"])
            }
            return image
        case .none:
            absent.insert(key)
            if let cache { Self.forget(name, keeping: nil, in: cache) }
            return nil
        case .image(let data, let etag):
            guard let image = CoverData(bytes: data) else {
                absent.insert(key)
                return nil
            }
            remember(key, image)
            if let cache {
                do {
                    try cache.write(data, to: fileName)
                    Self.forget(name, keeping: stamp, in: cache)
                    if let etag { try Self.keep(name, stamp: stamp, etag: etag, in: cache) }
                } catch {
                    logger.debug("Cover not cached on disk", metadata: ["reason": "\(error)"])
                }
            }
            return image
        }
    }

    /// The file of the cover of `bookID` at `version` and `size`, when the
    /// cache holds one (the media controls show it).
    public func file(for bookID: String, version: Date, size: CoverSize = .grid) -> URL? {
        cache?.file(Self.fileName(bookID: bookID, version: version, size: size))
    }

    /// Bytes held in memory now (benchmarks, tests).
    public var memoryUsage: Int { memoryBytes }

    /// Requests waiting for a fetch slot now (tests).
    var waitingCount: Int { waiting.count }

    /// The file that holds the cover of `bookID` at `version` and `size`.
    static func fileName(bookID: String, version: Date, size: CoverSize = .grid) -> String {
        fileName(name(bookID, size), stamp: stamp(version))
    }

    /// The name of a book's covers of one size: the grid's keep the names
    /// they had before sizes (the copies cached then are grid copies), a
    /// large one is marked `@600`.
    private static func name(_ bookID: String, _ size: CoverSize) -> String {
        size == .grid ? safeName(bookID) : "\(safeName(bookID))@\(size.width)"
    }

    private static func fileName(_ name: String, stamp: Int64) -> String {
        "\(name).\(stamp)"
    }

    /// A version as the whole seconds that name its cover.
    private static func stamp(_ version: Date) -> Int64 {
        Int64(version.timeIntervalSince1970)
    }

    /// The file beside a book's cover that says which version it is and the `ETag` it came with.
    static func etagFileName(bookID: String, size: CoverSize = .grid) -> String {
        etagFileName(name(bookID, size))
    }

    private static func etagFileName(_ name: String) -> String {
        "\(name).etag"
    }

    /// `id` with only letters, digits, `-` and `_`: a file name.
    static func safeName(_ bookID: String) -> String {
        bookID.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" ? String($0) : "%" }.joined()
    }

    // MARK: ETags in the cache

    /// The version and `ETag` of the cover kept under `name`, if its copy is there.
    private static func keptCover(_ name: String, in cache: any CoverCache) -> (stamp: Int64, etag: String)? {
        guard let record = cache.read(etagFileName(name)), let text = String(data: record, encoding: .utf8) else { return nil }
        let lines = text.split(separator: "\n", maxSplits: 1).map(String.init)
        guard lines.count == 2, let stamp = Int64(lines[0]), !lines[1].isEmpty else { return nil }
        return cache.file(fileName(name, stamp: stamp)) != nil ? (stamp, lines[1]) : nil
    }

    /// Records that the cover kept under `name` at version `stamp` came with `etag`.
    private static func keep(_ name: String, stamp: Int64, etag: String, in cache: any CoverCache) throws {
        // An ETag is one header line; anything else is not one to send back.
        guard !etag.contains(where: \.isNewline) else { return }
        try cache.write(Data("\(stamp)\n\(etag)".utf8), to: etagFileName(name))
    }

    /// Removes the cover kept under `name` for an earlier version (all of
    /// it when `keeping` is nil) and the record of its `ETag`.
    private static func forget(_ name: String, keeping current: Int64?, in cache: any CoverCache) {
        if let kept = keptCover(name, in: cache), kept.stamp != current {
            cache.remove(fileName(name, stamp: kept.stamp))
        }
        cache.remove(etagFileName(name))
    }

    // MARK: Memory

    private func touch(_ key: String, _ image: CoverData) {
        clock += 1
        memory[key] = (image, clock)
    }

    private func remember(_ key: String, _ image: CoverData) {
        guard image.bytes.count <= memoryLimit else { return }
        if memory[key] == nil { memoryBytes += image.bytes.count }
        touch(key, image)
        while memoryBytes > memoryLimit, let oldest = memory.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            memory[oldest.key] = nil
            memoryBytes -= oldest.value.image.bytes.count
        }
    }

    // MARK: Fetch slots

    /// Waits for a fetch slot; `false` if the task was cancelled meanwhile.
    private func acquire() async -> Bool {
        if running < Self.maxConcurrentFetches {
            running += 1
            return true
        }
        nextWaiter += 1
        let id = nextWaiter
        let granted = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume(returning: false)
                } else {
                    waiting.append((id, continuation))
                }
            }
        } onCancel: {
            Task { await self.withdraw(id) }
        }
        return granted
    }

    private func withdraw(_ id: UInt64) {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return }
        waiting.remove(at: index).continuation.resume(returning: false)
    }

    private func release() {
        // Newest first: the books on screen now.
        if let next = waiting.popLast() {
            next.continuation.resume(returning: true)
        } else {
            running -= 1
        }
    }
}
