import Foundation
import Logging

/// One book's download, run off the main actor: fresh access to its audio
/// (a signed URL expires, so it is asked for at every start), then each
/// file from the bytes already on disk, then the cover. Returns how it
/// ended; ``DownloadsModel`` records that.
struct DownloadJob: Sendable {
    /// (An `Error` only so that `access(afterRefusal:)` can return it as a `Result`'s failure.)
    enum Outcome: Error, Equatable, Sendable {
        case done(hasCover: Bool)
        case paused(BookDownload.Failure)
        case failed(BookDownload.Failure)
        /// Cancelled (paused by the user, removed, the app quitting).
        case stopped
    }

    let download: BookDownload
    let store: any DownloadStore
    let connection: any ServerConnection
    let fetcher: AudioFileFetcher
    /// Bytes on disk of each running book, read by the model's ticker.
    let bytes: LockedValue<[String: Int64]>
    let logger: Logger

    /// A body that ends before the file is whole is asked for again this
    /// many times (from where it stopped) before the book is paused.
    static let shortBodyRetries = 3

    func run() async -> Outcome {
        let bookID = download.bookID
        var access: AudioAccess
        switch await self.access(afterRefusal: false) {
        case .success(let fresh): access = fresh
        case .failure(let outcome): return outcome
        }
        for file in download.files {
            var refreshed = false
            var refetched = false
            var shortBodies = 0
            let destination = store.url(bookID: bookID, file: file)
            while true {
                if Task.isCancelled { return .stopped }
                let onDisk = store.bytesOnDisk(bookID: bookID, file: file)
                switch DownloadRules.step(onDisk: onDisk, size: file.size) {
                case .done:
                    break
                case .refetch:
                    logger.warning("A downloaded file is longer than the server says; fetching it again",
                                   metadata: ["book": "\(bookID)", "file": "\(file.id)", "bytes": "\(onDisk)", "size": "\(file.size)"])
                    if refetched { return .failed(DownloadRules.sizeMismatch) }
                    refetched = true
                    store.removeFile(bookID: bookID, file: file)
                    continue
                case .fetch(let offset):
                    guard let url = access.urls[file.id] else { return .failed(DownloadRules.notFound) }
                    let before = totalOnDisk(excluding: file)
                    let request = AudioFileFetcher.Request(url: url, headers: access.headers, destination: destination,
                                                           offset: offset, expectedSize: file.size)
                    let counter = bytes
                    do throws(AudioFileFetcher.Failure) {
                        try await fetcher.fetch(request) { written in
                            counter.withLock { $0[bookID] = before + min(file.size, offset + written) }
                        }
                    } catch {
                        switch DownloadRules.reaction(to: Task.isCancelled ? .cancelled : error, refreshed: refreshed, refetched: refetched) {
                        case .stop:
                            return .stopped
                        case .refreshAccess:
                            refreshed = true
                            switch await self.access(afterRefusal: true) {
                            case .success(let fresh): access = fresh
                            case .failure(let outcome): return outcome
                            }
                        case .refetch:
                            refetched = true
                            store.removeFile(bookID: bookID, file: file)
                        case .pause(let failure):
                            logger.info("Download paused", metadata: ["book": "\(bookID)", "reason": "\(error)"])
                            return .paused(failure)
                        case .fail(let failure):
                            logger.warning("Download failed", metadata: ["book": "\(bookID)", "reason": "\(error)"])
                            return .failed(failure)
                        }
                        continue
                    }
                    // The body ended. A short file is asked for again
                    // from where it stopped; a long one is caught above.
                    if store.bytesOnDisk(bookID: bookID, file: file) < file.size {
                        shortBodies += 1
                        if shortBodies > Self.shortBodyRetries { return .paused(DownloadRules.network) }
                    }
                    continue
                }
                break
            }
        }
        bytes.withLock { $0[bookID] = download.totalBytes }
        return .done(hasCover: await fetchCover())
    }

    /// Bytes on disk of the book's files other than `file`.
    private func totalOnDisk(excluding file: BookDownload.File) -> Int64 {
        download.files.filter { $0.id != file.id }
            .reduce(0) { $0 + min($1.size, store.bytesOnDisk(bookID: download.bookID, file: $1)) }
    }

    private func access(afterRefusal: Bool) async -> Result<AudioAccess, Outcome> {
        do throws(ServerError) {
            return .success(try await connection.audioAccess(bookID: download.bookID, fileIDs: download.files.map(\.id), afterRefusal: afterRefusal))
        } catch {
            if Task.isCancelled { return .failure(.stopped) }
            switch error {
            case .sessionLapsed: return .failure(.failed(DownloadRules.sessionLapsed))
            case .server(404, _): return .failure(.failed(DownloadRules.notFound))
            case .server(403, _): return .failure(.failed(DownloadRules.forbidden))
            default: return .failure(.paused(DownloadRules.network))
            }
        }
    }

    /// Copies the cover into the book's folder (`cover`); false when the
    /// book has none or it could not be fetched (the library's cache
    /// still shows it).
    private func fetchCover() async -> Bool {
        if store.coverFile(bookID: download.bookID) != nil { return true }
        do throws(ServerError) {
            guard let data = try await connection.cover(bookID: download.bookID, maxBytes: CoverLoader.maxCoverBytes) else { return false }
            do {
                try store.saveCover(data, bookID: download.bookID)
                return true
            } catch {
                logger.debug("A downloaded book's cover could not be kept", metadata: ["book": "\(download.bookID)", "reason": "\(error)"])
                return false
            }
        } catch {
            logger.debug("A downloaded book's cover could not be fetched", metadata: ["book": "\(download.bookID)", "code": "\(error.code)"])
            return false
        }
    }
}
