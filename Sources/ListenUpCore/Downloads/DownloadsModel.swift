import Foundation
import Observation

/// Books downloaded for listening offline, for the signed-in session: the
/// queue (two books at a time, in the order asked for), each book's
/// progress, pause, resume, cancel and remove, and the space they take.
///
/// Lives as long as the session (the ``AppNavigator`` owns it, beside the
/// player). Main actor only; the files are fetched by one task per book
/// off the main actor (``AudioFileFetcher``), which reports its bytes to a
/// locked counter: the model publishes them at most every
/// ``Configuration/progressInterval``, so the window and the headless
/// front are woken a few times a second, never per chunk.
///
/// Every state change is written to the book's manifest first
/// (``DownloadStore``): after a restart (or `kill -9`) the queue is read
/// back, a book that was downloading waits its turn again, and each file
/// goes on from the bytes on disk.
@MainActor @Observable
public final class DownloadsModel {
    /// Every download, by book id, as of its last change of status (a
    /// running book's bytes are in ``progress``, so a progress tick does not
    /// wake what follows only the statuses: the library's Downloaded
    /// filter, the cells' badges).
    public internal(set) var items: [String: Item] = [:]
    /// Bytes on disk of each book downloading now, published every
    /// ``Configuration/progressInterval`` while it runs (``item(_:)`` and
    /// ``currentItems`` fold them into the items).
    public internal(set) var progress: [String: Int64] = [:]
    /// The last book that could not be queued.
    public internal(set) var refusal: Refusal?
    /// Bytes of every download on disk (partial files included).
    public internal(set) var bytesOnDisk: Int64 = 0
    /// Walks of the downloads folder started (``refreshBytesOnDisk()``).
    @ObservationIgnored var diskWalks = 0

    @ObservationIgnored let dependencies: Dependencies
    @ObservationIgnored let session: Session?
    @ObservationIgnored let store: any DownloadStore
    @ObservationIgnored let configuration: Configuration
    /// The session's library cache: the signed-in session's, or (standalone)
    /// opened on the first download.
    @ObservationIgnored lazy var library: (any LibraryStore)? = session.map { dependencies.openLibrary($0.serverURL, $0.userID) }
    /// The task of each book downloading now, with its serial number (a
    /// job that ends after another replaced it must not end the new one).
    @ObservationIgnored var jobs: [String: (serial: Int, task: Task<Void, Never>)] = [:]
    @ObservationIgnored var jobSerial = 0
    /// Tasks told to stop (a pause) that may still be writing: a new job
    /// for the same book waits for its old one, so two never write one file.
    @ObservationIgnored var stopping: [String: Task<Void, Never>] = [:]
    /// Bytes on disk of each book downloading now, as its task writes them.
    @ObservationIgnored let liveBytes = LockedValue<[String: Int64]>([:])
    @ObservationIgnored var ticker: Task<Void, Never>?
    /// Books paused by the network, and how often they were retried.
    @ObservationIgnored var retries: [String: (attempt: Int, task: Task<Void, Never>)] = [:]

    /// The read of the saved downloads, until it is shown (``restored()``).
    @ObservationIgnored var restoring: Task<Void, Never>?
    /// Intents sent before the saved downloads were read, sent after.
    @ObservationIgnored var waitingIntents: [Intent] = []

    /// - Parameters:
    ///   - session: whose downloads; nil (previews) keeps them in memory.
    ///   - store: overrides the session's store (previews, tests).
    ///   - saved: the saved downloads, already read (previews); nil: they
    ///     are read off the main actor (every manifest, and every file's
    ///     size) and shown when read.
    ///   - library: the session's library cache (``SignedInSession``'s);
    ///     nil: the session's is opened on the first download.
    public init(dependencies: Dependencies, session: Session?, store: (any DownloadStore)? = nil,
                configuration: Configuration = Configuration(), saved: Saved? = nil, library: (any LibraryStore)? = nil) {
        self.dependencies = dependencies
        self.session = session
        self.configuration = configuration
        if let store {
            self.store = store
        } else if let session {
            self.store = dependencies.openDownloads(session.serverURL, session.userID)
        } else {
            self.store = InMemoryDownloadStore()
        }
        if let library { self.library = library }
        if let saved {
            restore(saved)
        } else {
            let store = self.store
            restoring = Task { [weak self] in
                let saved = await Task.detached(priority: .userInitiated) { Saved.read(from: store) }.value
                self?.restore(saved)
            }
        }
    }

    /// Returns once the saved downloads are shown (at once when they are).
    public func restored() async {
        await restoring?.value
    }

    public func send(_ intent: Intent) {
        guard restoring == nil else {
            waitingIntents.append(intent)
            return
        }
        switch intent {
        case .download(let bookID): download(bookID)
        case .downloadBook(let book): download(book)
        case .pause(let bookID): pause(bookID)
        case .resume(let bookID): resume(bookID)
        case .cancel(let bookID), .remove(let bookID): remove(bookID)
        case .pauseAll: items.values.filter { $0.download.isActive }.forEach { pause($0.bookID) }
        case .resumeAll: items.values.filter { $0.status == .paused }.sorted { $0.download.requestedAt < $1.download.requestedAt }.forEach { resume($0.bookID) }
        case .removeAll: items.keys.sorted().forEach(remove)
        }
    }

    /// The server answers again (the library synced): downloads the
    /// network paused go on now rather than after their wait.
    public func serverIsBack() {
        for (bookID, retry) in retries {
            retry.task.cancel()
            retries[bookID] = nil
            if items[bookID]?.status == .paused, items[bookID]?.failure?.code == .network { setStatus(bookID, .queued) }
        }
        schedule()
    }

    /// Stops every download (the session ends, the app quits); what was
    /// written stays, and the next run goes on from there.
    public func shutdown() async {
        restoring?.cancel()
        ticker?.cancel()
        ticker = nil
        retries.values.forEach { $0.task.cancel() }
        retries = [:]
        let running = jobs.values.map(\.task) + stopping.values
        jobs = [:]
        running.forEach { $0.cancel() }
        for job in running { await job.value }
    }

    // MARK: The queue

    /// Shows the saved downloads, then sends the intents that waited.
    private func restore(_ saved: Saved) {
        if let error = saved.error {
            dependencies.logger.warning("Could not read the downloads", metadata: ["reason": "\(error)"])
        }
        let runs = configuration.concurrentBooks > 0
        for (var download, onDisk) in saved.downloads {
            let savedStatus = download.status
            // A book that was downloading when the app stopped waits its
            // turn again; a done one whose files changed is fetched again.
            // (A model that starts nothing, a preview's, shows them as saved.)
            if runs, download.status == .downloading { download.status = .queued }
            if runs, download.status == .done, !download.isWhole(onDisk: onDisk) {
                download.status = .queued
                dependencies.logger.info("A downloaded book's files changed on disk; downloading it again", metadata: ["book": "\(download.bookID)"])
            }
            if download.status != savedStatus { persist(download) }
            items[download.bookID] = Item(download: download, bytes: download.bytes(onDisk: onDisk))
        }
        restoring = nil
        refreshBytesOnDisk()
        schedule()
        let waiting = waitingIntents
        waitingIntents = []
        waiting.forEach(send)
    }

    func isWhole(_ download: BookDownload) -> Bool {
        download.isWhole(onDisk: store.bytesOnDisk(eachFileOf: download))
    }

    /// Queues the book named `bookID` (a command that names it by id): it
    /// is read from the cache here, once.
    private func download(_ bookID: String) {
        if goOn(bookID) { return }
        guard session != nil else { return }
        let book: PlayableBook?
        do {
            book = try PlayableBook.read(bookID, from: library)
        } catch {
            dependencies.logger.warning("Could not read the book to download", metadata: ["reason": "\(error)"])
            book = nil
        }
        guard let book else {
            refuse(bookID, BookDownload.Failure(.unknownBook))
            return
        }
        download(book)
    }

    /// A book already here goes on (paused, failed) or stays as it is.
    /// - Returns: whether it is here.
    private func goOn(_ bookID: String) -> Bool {
        guard let item = items[bookID] else { return false }
        switch item.status {
        case .paused, .failed: resume(bookID)
        case .queued, .downloading, .done: break
        }
        return true
    }

    /// Queues `book`: the value is all it needs of the library.
    private func download(_ book: PlayableBook) {
        let bookID = book.id
        if goOn(bookID) { return }
        guard session != nil else { return }
        guard let download = BookDownload(book: book) else {
            refuse(bookID, BookDownload.Failure(.noAudio))
            return
        }
        // A file counts as done at the size the server reported: without
        // one, nothing could tell a whole file from an empty one.
        guard download.files.allSatisfy({ $0.size > 0 }) else {
            refuse(bookID, BookDownload.Failure(.unknownSize))
            return
        }
        if let refusal = spaceRefusal(for: download, alsoQueued: true) {
            refuse(bookID, refusal, totalBytes: download.totalBytes)
            return
        }
        persist(download)
        items[bookID] = Item(download: download, bytes: store.bytesOnDisk(download))
        dependencies.logger.info("Download queued", metadata: ["book": "\(bookID)", "bytes": "\(download.totalBytes)"])
        schedule()
    }

    /// Whether `download` fits: its missing bytes, plus (when `alsoQueued`)
    /// those of the books queued before it, against the free space.
    func spaceRefusal(for download: BookDownload, alsoQueued: Bool) -> BookDownload.Failure? {
        var needed = download.totalBytes - store.bytesOnDisk(download)
        if alsoQueued {
            needed += items.values.filter { $0.download.isActive && $0.bookID != download.bookID }
                .reduce(0) { $0 + max(0, $1.totalBytes - $1.bytes) }
        }
        return DownloadRules.spaceRefusal(needed: needed, available: dependencies.diskSpace.available(store.root))
    }

    private func refuse(_ bookID: String, _ failure: BookDownload.Failure, totalBytes: Int64 = 0) {
        dependencies.logger.info("Download refused", metadata: ["book": "\(bookID)", "code": "\(failure.code.rawValue)"])
        refusal = Refusal(bookID: bookID, failure: failure, totalBytes: totalBytes, serial: (refusal?.serial ?? 0) + 1)
    }

    private func pause(_ bookID: String) {
        guard let item = items[bookID], item.download.isActive || item.failure?.code == .network else { return }
        cancelRetry(bookID)
        stopJob(bookID)
        setStatus(bookID, .paused, failure: nil)
        schedule()
    }

    private func resume(_ bookID: String) {
        guard let item = items[bookID], item.status == .paused || item.status == .failed else { return }
        cancelRetry(bookID)
        setStatus(bookID, .queued, failure: nil)
        schedule()
    }

    func requeue(_ bookID: String) {
        setStatus(bookID, .queued, failure: nil)
        schedule()
    }

    private func remove(_ bookID: String) {
        guard items[bookID] != nil else { return }
        cancelRetry(bookID)
        let job = jobs.removeValue(forKey: bookID)?.task
        job?.cancel()
        let stopped = stopping[bookID]
        items[bookID] = nil
        liveBytes.withLock { $0[bookID] = nil }
        let store = store
        let logger = dependencies.logger
        Task {
            // The task stops writing before the folder goes.
            await job?.value
            await stopped?.value
            // Deleting a folder of audio is file system work: not on the main actor.
            do {
                try await Task.detached { try store.remove(bookID: bookID) }.value
            } catch {
                logger.warning("Could not delete a download", metadata: ["book": "\(bookID)", "reason": "\(error)"])
            }
            self.refreshBytesOnDisk()
            self.schedule()
        }
        dependencies.logger.info("Download removed", metadata: ["book": "\(bookID)"])
    }

    private func stopJob(_ bookID: String) {
        publishBytes()
        if let bytes = progress.removeValue(forKey: bookID) { items[bookID]?.bytes = bytes }
        guard let job = jobs.removeValue(forKey: bookID)?.task else { return }
        job.cancel()
        stopping[bookID] = job
        Task { [weak self] in
            await job.value
            if self?.stopping[bookID] == job { self?.stopping[bookID] = nil }
        }
    }

    private func cancelRetry(_ bookID: String) {
        retries.removeValue(forKey: bookID)?.task.cancel()
    }

    /// Starts the queued books that fit beside those running.
    func schedule() {
        let start = DownloadRules.toStart(items.values.map(\.download), running: jobs.count, limit: configuration.concurrentBooks)
        for bookID in start { startJob(bookID) }
        if jobs.isEmpty {
            ticker?.cancel()
            ticker = nil
        } else if ticker == nil {
            startTicker()
        }
    }

    func setStatus(_ bookID: String, _ status: BookDownload.Status, failure: BookDownload.Failure? = nil) {
        guard var download = items[bookID]?.download else { return }
        download.status = status
        download.failure = failure
        persist(download)
        items[bookID]?.download = download
        if status != .downloading { items[bookID]?.bytes = store.bytesOnDisk(download) }
        if let failure {
            dependencies.logger.info("Download stopped", metadata: ["book": "\(bookID)", "status": "\(status.rawValue)", "code": "\(failure.code.rawValue)"])
        }
    }

    func persist(_ download: BookDownload) {
        do {
            try store.save(download)
        } catch {
            dependencies.logger.warning("Could not save a download's state", metadata: ["book": "\(download.bookID)", "reason": "\(error)"])
        }
    }
}
