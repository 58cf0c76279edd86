import Foundation
import ListenUpAPI
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

/// Fetches covers through `/api/v1/covers/{id}` with the Bearer header and
/// keeps them: on disk (`$XDG_CACHE_HOME/listenup/covers-…/`) and in memory
/// (bounded in bytes, least recently used dropped first). At most
/// ``maxConcurrentFetches`` downloads run at once; the newest request is
/// served first (while scrolling, the books on screen now matter most), and
/// a request whose task is cancelled leaves the queue.
public actor CoverLoader {
    /// Covers larger than this are refused (a broken or hostile server).
    public static let maxCoverBytes = 16 << 20
    public static let maxConcurrentFetches = 6

    private let fetch: @Sendable (String) async throws(APIClientError) -> Data?
    private let directory: URL?
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

    /// Covers of `server`, cached under `directory` (no disk cache when nil).
    /// `memoryLimit` is small: the page keeps decoded covers itself, and the
    /// disk cache is behind this one.
    public init(server: any ServerConnection, directory: URL?, memoryLimit: Int = 4 << 20, logger: Logger) {
        self.init(directory: directory, memoryLimit: memoryLimit, logger: logger) { id throws(APIClientError) in
            try await server.cover(bookID: id, maxBytes: CoverLoader.maxCoverBytes)
        }
    }

    /// A loader over any fetch function (tests).
    public init(directory: URL?, memoryLimit: Int = 4 << 20, logger: Logger,
                fetch: @escaping @Sendable (String) async throws(APIClientError) -> Data?) {
        self.fetch = fetch
        self.directory = directory
        self.memoryLimit = memoryLimit
        self.logger = logger
        if let directory {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
    }

    /// The cover of `bookID` (`version` changes when the book does, so an
    /// edited book's cover is fetched again), or `nil` when it has none or
    /// it cannot be had now.
    public func cover(for bookID: String, version: Date) async -> CoverData? {
        let key = "\(bookID)@\(Int64(version.timeIntervalSince1970))"
        if let hit = memory[key] {
            touch(key, hit.image)
            return hit.image
        }
        if absent.contains(key) { return nil }
        let file = directory?.appendingPathComponent(Self.fileName(bookID: bookID, version: version))
        if let file, let data = try? Data(contentsOf: file), let image = CoverData(bytes: data) {
            remember(key, image)
            return image
        }
        guard await acquire() else { return nil }
        defer { release() }
        // Another request may have fetched it while this one waited.
        if let hit = memory[key] { return hit.image }
        let data: Data?
        do {
            data = try await fetch(bookID)
        } catch {
            logger.debug("Cover not loaded", metadata: ["book": "\(bookID)", "code": "\(error.code)"])
            return nil
        }
        guard let data, let image = CoverData(bytes: data) else {
            absent.insert(key)
            return nil
        }
        remember(key, image)
        if let file {
            do {
                try data.write(to: file, options: .atomic)
            } catch {
                logger.debug("Cover not cached on disk", metadata: ["reason": "\(error)"])
            }
        }
        return image
    }

    /// Bytes held in memory now (benchmarks, tests).
    public var memoryUsage: Int { memoryBytes }

    /// Requests waiting for a fetch slot now (tests).
    var waitingCount: Int { waiting.count }

    static func fileName(bookID: String, version: Date) -> String {
        let safe = bookID.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" ? String($0) : "%" }.joined()
        return "\(safe).\(Int64(version.timeIntervalSince1970))"
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
