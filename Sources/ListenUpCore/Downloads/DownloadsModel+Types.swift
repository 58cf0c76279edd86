import Foundation

extension DownloadsModel {
    /// One book's download as the fronts show it.
    public struct Item: Equatable, Sendable, Identifiable {
        public var download: BookDownload
        /// Bytes on disk so far (of ``BookDownload/totalBytes``).
        public var bytes: Int64

        public var id: String { download.bookID }
        public var bookID: String { download.bookID }
        public var status: BookDownload.Status { download.status }
        public var totalBytes: Int64 { download.totalBytes }
        public var failure: BookDownload.Failure? { download.failure }

        /// 0...1.
        public var fraction: Double {
            let total = totalBytes
            guard total > 0 else { return download.status == .done ? 1 : 0 }
            return min(1, max(0, Double(bytes) / Double(total)))
        }

        public init(download: BookDownload, bytes: Int64) {
            self.download = download
            self.bytes = bytes
        }
    }

    public enum Intent: Equatable, Sendable {
        /// Queues a book (or resumes it when paused, or tries a failed one
        /// again), reading it from the library's cache first.
        case download(bookID: String)
        /// Queues a book the library read already (``PlayableBook``).
        case downloadBook(PlayableBook)
        case pause(bookID: String)
        case resume(bookID: String)
        /// Stops a download and deletes what it wrote.
        case cancel(bookID: String)
        /// Deletes a book's files (downloaded or not).
        case remove(bookID: String)
        /// Pauses every queued or running download.
        case pauseAll
        /// Resumes every paused download.
        case resumeAll
        /// Deletes every download.
        case removeAll
    }

    /// A book that could not be queued (no space, no audio), for a toast
    /// or a headless line; replaced by the next refusal.
    public struct Refusal: Equatable, Sendable {
        public var bookID: String
        public var failure: BookDownload.Failure
        /// The book's size when it is known (0 otherwise: an unknown book,
        /// no audio).
        public var totalBytes: Int64 = 0
        /// Counts refusals, so the same one twice is seen twice.
        public var serial: Int
    }

    /// What can be tuned (tests make it quick).
    public struct Configuration: Sendable {
        /// Books downloading at once.
        public var concurrentBooks = DownloadRules.concurrentBooks
        /// How often running downloads publish their bytes.
        public var progressInterval: Duration = .milliseconds(250)
        /// Waits before a download paused by the network is tried again.
        public var retryDelays = DownloadRules.retryDelays

        public init() {}
    }

    /// The downloads as saved: each manifest with its files' bytes on disk.
    public struct Saved: Sendable {
        public var downloads: [(download: BookDownload, onDisk: [Int64])]
        /// Why the manifests could not be read (then there are none).
        public var error: String?

        /// Reads every manifest of `store` and the sizes of its files:
        /// file reads, for a task off the main actor.
        public static func read(from store: any DownloadStore) -> Saved {
            do {
                return Saved(downloads: try store.downloads().map { ($0, store.bytesOnDisk(eachFileOf: $0)) })
            } catch {
                return Saved(downloads: [], error: "\(error)")
            }
        }
    }
}
