import Foundation

/// Running the downloads: one job per book off the main actor, what its
/// end means for the book, retries after the network failed, and the
/// bytes published while they run.
extension DownloadsModel {
    func startJob(_ bookID: String) {
        guard let item = items[bookID], let session else { return }
        if let refusal = spaceRefusal(for: item.download, alsoQueued: false) {
            setStatus(bookID, .failed, failure: refusal)
            return
        }
        setStatus(bookID, .downloading, failure: nil)
        liveBytes.withLock { $0[bookID] = item.bytes }
        let job = DownloadJob(download: item.download, store: store, connection: session.connection,
                              fetcher: dependencies.audioFileFetcher, bytes: liveBytes, logger: dependencies.logger)
        let previous = stopping[bookID]
        jobSerial += 1
        let serial = jobSerial
        jobs[bookID] = (serial, Task { [weak self] in
            await previous?.value
            let outcome = await job.run()
            self?.finished(bookID, serial: serial, outcome)
        })
    }

    func finished(_ bookID: String, serial: Int, _ outcome: DownloadJob.Outcome) {
        guard jobs[bookID]?.serial == serial else { return }   // paused, cancelled or removed meanwhile
        jobs[bookID] = nil
        progress[bookID] = nil
        liveBytes.withLock { $0[bookID] = nil }
        switch outcome {
        case .done(let hasCover):
            retries[bookID] = nil
            if var download = items[bookID]?.download {
                download.hasCover = hasCover
                download.status = .done
                download.failure = nil
                persist(download)
                items[bookID]?.download = download
                items[bookID]?.bytes = download.totalBytes
            }
            dependencies.logger.info("Download done", metadata: ["book": "\(bookID)"])
        case .paused(let failure):
            setStatus(bookID, .paused, failure: failure)
            if failure.code == .network { scheduleRetry(bookID) }
        case .failed(let failure):
            setStatus(bookID, .failed, failure: failure)
        case .stopped:
            // Stopped though nobody asked (the fetch says it was cancelled):
            // left for the user to resume rather than tried in a loop.
            setStatus(bookID, .paused, failure: nil)
        }
        refreshBytesOnDisk()
        schedule()
    }

    /// Measures the downloads on disk (a walk of every book's folder) off
    /// the main actor, then publishes ``bytesOnDisk``; of walks that overlap,
    /// the last one started wins.
    func refreshBytesOnDisk() {
        diskWalks += 1
        let walk = diskWalks
        let store = store
        Task { [weak self] in
            let total = await Task.detached { store.totalBytesOnDisk() }.value
            guard let self, walk == self.diskWalks else { return }
            self.bytesOnDisk = total
        }
    }

    func scheduleRetry(_ bookID: String) {
        let attempt = retries[bookID].map { $0.attempt + 1 } ?? 0
        guard let delay = DownloadRules.retryDelay(attempt: attempt, delays: configuration.retryDelays) else { return }
        let task = Task { [weak self] in
            try? await Task.sleep(for: delay)
            guard !Task.isCancelled, let self, self.items[bookID]?.status == .paused, self.items[bookID]?.failure?.code == .network else { return }
            self.setStatus(bookID, .queued, failure: nil)
            self.schedule()
        }
        retries[bookID] = (attempt, task)
    }

    // MARK: Progress

    func startTicker() {
        let interval = configuration.progressInterval
        ticker = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                self?.publishBytes()
            }
        }
    }

    /// Copies the running books' bytes into ``progress`` (only those that changed).
    func publishBytes() {
        let live = liveBytes.value
        for (bookID, bytes) in live where jobs[bookID] != nil && progress[bookID] != bytes {
            progress[bookID] = bytes
        }
    }
}
