import Foundation

/// What the engine reports, and what the player records of it: spans,
/// local positions, *Continue listening*.
extension PlayerModel {
    // MARK: Engine events

    func handle(_ event: PlaybackEngineEvent) {
        guard timeline != nil else { return }
        switch event {
        case .status(let engineStatus): apply(engineStatus)
        case .position(let reported): advance(to: reported)
        case .ended:
            advance(to: timeline?.duration ?? position)
            // Reaching the end finishes the book: the last span says so
            // (the server's row, kRPC) and reaches the end (REST v1 marks
            // a book finished near its end).
            if !finished, let bookID = timeline?.bookID {
                finished = true
                noteFinished(bookID, true)
            }
            closeSpan()
            wantsToPlay = false
            status = .ended
            savePosition()
            flushListening()
        }
    }

    private func apply(_ engineStatus: PlaybackEngineStatus) {
        switch engineStatus {
        case .idle:
            break
        case .loading:
            if status != .playing { status = .loading }
        case .playing:
            status = .playing
            refreshedAfterRefusal = false
            if openSpan == nil { openSpan = (position, Date(), rate) }
            restartSleepTimer()
            updatePositionInterval()
        case .paused:
            if status == .loading, wantsToPlay { return }
            closeSpan()
            if status != .ended { status = .paused }
            holdSleepTimer()
        case .buffering(let percent):
            bufferingPercent = percent
            if status == .playing || status == .loading { status = .buffering }
        case .failed(let reason):
            engineFailed(reason)
        }
    }

    private func engineFailed(_ reason: PlaybackFailure) {
        closeSpan()
        savePosition()
        let resumeAt = reason.position ?? position
        if reason.kind == .unauthorized || reason.kind == .forbidden, !refreshedAfterRefusal, let session, let timeline {
            // The access token ran out mid-book: refresh (single flight, in
            // the connection) and carry on from the same position.
            refreshedAfterRefusal = true
            status = .buffering
            let connection = session.connection
            let fileIDs = timeline.files.map(\.id)
            let bookID = timeline.bookID
            Task {
                do throws(ServerError) {
                    let access = try await connection.audioAccess(bookID: bookID, fileIDs: fileIDs, afterRefusal: true)
                    guard self.timeline?.bookID == bookID, let engine else { return }
                    var renewed = self.timeline ?? timeline
                    renewed.headers = access.headers
                    for index in renewed.files.indices {
                        if let url = access.urls[renewed.files[index].id] { renewed.files[index].url = url }
                    }
                    self.timeline = renewed
                    engine.setHeaders(access.headers)
                    engine.load(renewed, at: resumeAt)
                    if wantsToPlay { engine.play() }
                } catch {
                    fail(Failure(error == .sessionLapsed ? .sessionLapsed : Failure.Code(reason.kind), message: error.userMessage))
                }
            }
            return
        }
        dependencies.logger.warning("Playback failed", metadata: ["kind": "\(reason.kind.rawValue)", "detail": "\(reason.detail)"])
        fail(Failure(Failure.Code(reason.kind)))
    }

    func fail(_ reason: Failure) {
        closeSpan()
        wantsToPlay = false
        failure = reason
        status = .error
    }

    /// A position report: chapters, the sleep timer, periodic spans and saves.
    private func advance(to reported: Int64) {
        guard let timeline else { return }
        let previousChapter = chapterIndex
        position = timeline.clamp(reported)
        updateChapter()
        if chapterIndex != previousChapter, previousChapter != nil, openSpan != nil {
            // A chapter change cuts the span and saves the position.
            cutSpan()
            savePosition()
        }
        if status == .buffering { status = .playing }
        guard openSpan != nil else { return }
        if let open = openSpan, Date().timeIntervalSince(open.at) >= Self.spanInterval { cutSpan() }
        // A report due for the save may come a hair early.
        if let lastSaved, ContinuousClock.now - lastSaved.at < Self.saveInterval - .milliseconds(250) {} else { savePosition() }
        tickSleepTimer()
        updatePositionInterval()
    }

    func updateChapter() {
        chapterIndex = timeline?.chapterIndex(at: position) ?? nowPlaying.flatMap { book in
            book.chapters.lastIndex { $0.start <= position }
        }
    }

    // MARK: Spans

    /// Ends the open span here and queues it (durably) for the server.
    func closeSpan() {
        guard let open = openSpan, let bookID = timeline?.bookID ?? nowPlaying?.bookID else {
            openSpan = nil
            return
        }
        openSpan = nil
        guard ListeningRules.isWorthSending(start: open.start, end: position) else { return }
        let span = ListeningSpan(bookID: bookID, start: open.start, end: position, startedAt: open.at, endedAt: Date(),
                                 rate: open.rate, deviceID: deviceID, book: currentFacts)
        do {
            try listening.enqueue(span)
        } catch {
            dependencies.logger.error("Could not queue listening", metadata: ["reason": "\(error)"])
        }
        flushListening()
    }

    /// Queues the span so far and opens the next one where it ended.
    private func cutSpan() {
        let playingRate = openSpan?.rate ?? rate
        closeSpan()
        openSpan = (position, Date(), playingRate)
    }

    /// Records this device's row of the book loaded: the position, and
    /// its finished, speed, boost, gain and chapter.
    func savePosition() {
        guard let row = currentRow, status != .idle else { return }
        do {
            try listening.savePosition(row)
            lastSaved = (position, ContinuousClock.now)
        } catch {
            dependencies.logger.warning("Could not save the position", metadata: ["reason": "\(error)"])
        }
    }

    func flushListening() {
        guard let reporter else { return }
        Task {
            if await reporter.flush() { scheduleContinueRefresh() }
        }
    }

    // MARK: Other devices and Continue listening

    /// Told of a book's progress changed here (finished, or restarted),
    /// once it is in the library's cache: the library shows that book anew.
    public var libraryChanged: (@MainActor (_ bookID: String, _ progress: BookProgress) -> Void)? {
        get { libraryChangedHandler }
        set { libraryChangedHandler = newValue }
    }

    /// A position reported by the server (another device, or this one):
    /// becomes the resume point of a book not playing here; the book
    /// playing here is never moved.
    public func positionReported(_ reported: ListeningPosition) {
        scheduleContinueRefresh()
        let local = try? listening.position(bookID: reported.bookID)
        guard local.map({ reported.updatedAt > $0.updatedAt }) ?? true else { return }
        if reported.bookID == nowPlaying?.bookID {
            otherDeviceMoved(reported, local: local)
            return
        }
        try? listening.savePosition(reported.filling(from: local))
    }

    /// Fetches *Continue listening* again, soon (changes come in bursts).
    func scheduleContinueRefresh() {
        continueRefresh?.cancel()
        continueRefresh = Task {
            try? await Task.sleep(for: .milliseconds(500))
            guard !Task.isCancelled else { return }
            refreshContinueListening()
        }
    }

    func refreshContinueListening() {
        guard let session else { return }
        let connection = session.connection
        Task {
            do throws(ServerError) {
                let items = try await connection.continueListening(limit: 12)
                guard items != continueListening else { return }
                continueListening = items
                try? listening.saveContinueListening(items)
                if offersLastBook { offerLastBook() }
            } catch {
                dependencies.logger.debug("Continue listening not refreshed", metadata: ["code": "\(error.code)"])
            }
        }
    }

    /// The server answers again after an outage: what was queued while
    /// offline is sent now, not at the next minute.
    public func serverIsBack() {
        flushListening()
    }

    /// Sends what earlier runs queued, refreshes *Continue listening*, and
    /// flushes the queue every minute (spans wait there while offline).
    func startPeriodicWork() {
        refreshContinueListening()
        periodic = Task { [weak self] in
            while !Task.isCancelled {
                self?.flushListening()
                try? await Task.sleep(for: .seconds(60))
            }
        }
    }

}
