import Foundation

/// The intents, turned into engine calls and listening records.
extension PlayerModel {
    // MARK: Loading a book

    /// Plays the book named `bookID` (a command from outside the library:
    /// a paired device, the headless front, *Continue listening*): it is
    /// read from the cache here, once.
    func play(_ bookID: String) {
        if resumeIfLoaded(bookID) { return }
        let book: PlayableBook?
        do {
            book = try PlayableBook.read(bookID, from: library)
        } catch {
            dependencies.logger.warning("Could not read the book to play", metadata: ["reason": "\(error)"])
            book = nil
        }
        guard let book else {
            fail(Failure(session == nil ? .sessionLapsed : .unknownBook))
            return
        }
        play(book)
    }

    /// Resumes `bookID` when it is the book loaded (from the start once it
    /// ended). - Returns: whether it was.
    private func resumeIfLoaded(_ bookID: String) -> Bool {
        guard nowPlaying?.bookID == bookID, timeline != nil, status != .error, status != .stopped else { return false }
        if status == .ended { seek(to: 0) }
        resume()
        return true
    }

    /// Plays `book` from its resume point (or resumes it, if loaded): the
    /// value is all it needs of the library.
    func play(_ book: PlayableBook) {
        if resumeIfLoaded(book.id) { return }
        guard let session else {
            fail(Failure(.sessionLapsed))
            return
        }
        closeSpan()
        savePosition()
        let (bookID, cached, files) = (book.id, book.listing, book.audioFiles)
        guard !files.isEmpty else {
            nowPlaying = NowPlaying(book: cached, chapters: [], duration: cached.duration)
            fail(Failure(.noAudio))
            return
        }
        let base = PlaybackTimeline(
            bookID: bookID,
            files: files.map { PlaybackTimeline.File(id: $0.id, url: session.serverURL, start: 0, duration: $0.duration) },
            chapters: book.chapters.map(PlaybackTimeline.Chapter.init))
        nowPlaying = NowPlaying(book: cached, chapters: base.chapters, duration: base.duration)
        fetchCover(of: cached)
        timeline = nil
        status = .loading
        failure = nil
        wantsToPlay = true
        refreshedAfterRefusal = false
        let local = try? listening.position(bookID: bookID)
        position = local?.position ?? 0
        chapterIndex = base.chapterIndex(at: position)
        adopt(local)
        let connection = session.connection
        // A downloaded book plays from its files: no audio access to ask
        // for, no header, nothing from the network but the server's
        // position (which waits at most 3 s, and not at all offline). A
        // download whose files are no longer the book's (the server changed
        // them since) is not used: the book streams. (Just after start, the
        // saved downloads may still be being read: they are waited for.)
        Task {
            await downloads?.restored()
            let downloaded = downloads?.localTimeline(bookID: bookID).flatMap { $0.files.map(\.id) == files.map(\.id) ? $0.files : nil }
            if downloaded != nil { dependencies.logger.info("Playing from the download", metadata: ["book": "\(bookID)"]) }
            async let access = downloaded != nil ? .success(AudioAccess(urls: Self.urls(of: downloaded ?? []), headers: [:]))
                : Self.audioAccess(bookID: bookID, fileIDs: files.map(\.id), connection: connection)
            let server = await Self.serverPosition(of: bookID, after: local?.updatedAt, connection: connection)
            let audio = await access
            guard nowPlaying?.bookID == bookID, status == .loading else { return }
            switch audio {
            case .failure(let error):
                fail(Failure(error == .sessionLapsed ? .sessionLapsed : .network, message: error.userMessage))
            case .success(let access):
                var timeline = base
                timeline.headers = access.headers
                for index in timeline.files.indices {
                    guard let url = access.urls[timeline.files[index].id] else { continue }
                    timeline.files[index].url = url
                }
                if let server, ListeningRules.newer(local: local, server: server) == server {
                    // The server's row is newer (another device): take its
                    // finished, speed and boost, and keep it here.
                    let row = server.filling(from: local)
                    adopt(row)
                    try? listening.savePosition(row)
                }
                let resume = ListeningRules.resumePoint(local: local, server: server, duration: timeline.duration)
                var start = resume?.position ?? 0
                if let resume, start > 0 { start -= ListeningRules.rewind(afterPause: Date().timeIntervalSince(resume.updatedAt)) }
                load(timeline, at: max(0, start))
            }
        }
    }

    private static func urls(of files: [PlaybackTimeline.File]) -> [String: URL] {
        Dictionary(files.map { ($0.id, $0.url) }, uniquingKeysWith: { first, _ in first })
    }

    private static func audioAccess(bookID: String, fileIDs: [String], connection: any ServerConnection) async -> Result<AudioAccess, ServerError> {
        do throws(ServerError) {
            return .success(try await connection.audioAccess(bookID: bookID, fileIDs: fileIDs, afterRefusal: false))
        } catch {
            return .failure(error)
        }
    }

    /// Fetches the cover (to the disk cache) for the media controls.
    private func fetchCover(of book: CachedBook) {
        coverFile = nil
        let downloads = downloads
        Task {
            // A downloaded book's cover is in its folder: no fetch, offline
            // too. (Just after start the saved downloads may still be being
            // read: they are waited for.)
            await downloads?.restored()
            guard nowPlaying?.bookID == book.id else { return }
            if let downloaded = downloads?.coverFile(bookID: book.id) {
                coverFile = downloaded
                return
            }
            guard book.hasCover, let coverLoader else { return }
            guard await coverLoader.cover(for: book.id, version: book.updatedAt, size: .large) != nil,
                  let file = await coverLoader.file(for: book.id, version: book.updatedAt, size: .large),
                  nowPlaying?.bookID == book.id else { return }
            coverFile = file
        }
    }

    /// The server's position in `bookID` when it is newer than `after`
    /// (nil offline, or when it is not); waits at most 3 s.
    private static func serverPosition(of bookID: String, after: Date?, connection: any ServerConnection) async -> ListeningPosition? {
        let (answers, answer) = AsyncStream<ListeningPosition?>.makeStream()
        let fetch = Task {
            let positions = try? await connection.listeningPositions(updatedAfter: after)
            answer.yield(positions?.first { $0.bookID == bookID })
        }
        let timeout = Task {
            try? await Task.sleep(for: .seconds(3))
            answer.yield(nil)
        }
        defer {
            fetch.cancel()
            timeout.cancel()
        }
        for await position in answers { return position }
        return nil
    }

    private func load(_ timeline: PlaybackTimeline, at start: Int64) {
        let engine = engine ?? makeEngine()
        self.timeline = timeline
        position = start
        chapterIndex = timeline.chapterIndex(at: start)
        engine.setRate(rate)
        engine.setVolume(volume)
        engine.setGain(decibels: gainDecibels)
        engine.load(timeline, at: start)
        engine.play()
        dependencies.logger.info("Playing", metadata: ["book": "\(timeline.bookID)", "files": "\(timeline.files.count)", "from": "\(start)"])
    }

    private func makeEngine() -> any PlaybackEngine {
        let engine = dependencies.makePlaybackEngine()
        self.engine = engine
        let events = engine.events()
        engineEvents = Task { [weak self] in
            for await event in events {
                guard let self else { return }
                self.handle(event)
            }
        }
        return engine
    }

    // MARK: The last book, offered

    /// Shows the book listened to last (the head of *Continue listening*)
    /// paused where it was left, without loading it: the window offers it
    /// at start, and Play (or the media keys) resumes it. With no list
    /// cached yet, the first one fetched is used. Nothing happens once a
    /// book is loaded, or when the book is not in the library's cache.
    public func offerLastBook() {
        offersLastBook = true
        guard nowPlaying == nil, status == .idle, let item = continueListening.first else { return }
        let read: PlayableBook?
        do {
            read = try PlayableBook.read(item.bookID, from: library)
        } catch {
            dependencies.logger.debug("Could not read the last book", metadata: ["reason": "\(error)"])
            return
        }
        guard let read, !read.audioFiles.isEmpty else { return }
        let cached = read.listing
        let book = NowPlaying(book: cached, chapters: read.chapters.map(PlaybackTimeline.Chapter.init),
                              duration: read.audioFiles.reduce(0) { $0 + $1.duration })
        let local = try? listening.position(bookID: item.bookID)
        let resume = ListeningRules.resumePoint(local: local, server: ListeningPosition(bookID: item.bookID, position: item.position, updatedAt: item.lastPlayedAt),
                                                duration: book.duration)
        nowPlaying = book
        adopt(local)
        position = resume?.position ?? 0
        updateChapter()
        status = .paused
        fetchCover(of: cached)
    }

    /// A seek on the offered book (not loaded yet): it starts there.
    func moveOffered(to target: Int64) {
        guard let nowPlaying, status == .paused else { return }
        position = min(max(0, target), nowPlaying.duration)
        updateChapter()
        savePosition()
    }

    // MARK: Controls

    func pause() {
        wantsToPlay = false
        guard timeline != nil, let engine else { return }
        catchUpPosition()
        closeSpan()
        engine.pause()
        pausedAt = Date()
        savePosition()
        if status == .loading || status == .buffering { status = .paused }
        offerHeldPosition()
    }

    func resume() {
        guard let timeline, let engine else {
            if let nowPlaying { play(nowPlaying.bookID) }
            return
        }
        if status == .error || status == .stopped {
            let bookID = timeline.bookID
            self.timeline = nil
            status = .idle
            play(bookID)
            return
        }
        if status == .ended {
            seek(to: 0)
        } else if let pausedAt {
            let back = ListeningRules.rewind(afterPause: Date().timeIntervalSince(pausedAt))
            if back > 0 {
                position = timeline.clamp(position - back)
                engine.seek(to: position)
            }
        }
        pausedAt = nil
        wantsToPlay = true
        positionOffer = nil
        engine.play()
    }

    func stop() {
        closeSpan()
        savePosition()
        wantsToPlay = false
        engine?.stop()
        timeline = nil
        sleepTimer = nil
        sleepRemaining = nil
        sleepDeadline = nil
        status = nowPlaying == nil ? .idle : .stopped
        flushListening()
    }

    func seek(to target: Int64) {
        guard let timeline, let engine else {
            moveOffered(to: target)
            return
        }
        let target = timeline.clamp(target)
        let playing = openSpan != nil
        closeSpan()
        position = target
        updateChapter()
        // "End of chapter" follows the user to the chapter they chose.
        if sleepTimer == .endOfChapter { sleepChapterEnd = chapter?.end ?? nowPlaying?.duration }
        engine.seek(to: target)
        if playing { openSpan = (target, Date(), rate) }
        savePosition()
        if status == .ended { status = .paused }
        updatePositionInterval()
    }

    func skip(by milliseconds: Int64) {
        seek(to: position + milliseconds)
    }

    func jump(toChapter index: Int) {
        guard let chapters = nowPlaying?.chapters, chapters.indices.contains(index) else { return }
        seek(to: chapters[index].start)
    }

    func changeRate(_ value: Double) {
        let normalized = PlaybackSettings.normalizedRate(value)
        guard normalized != rate else { return }
        // A span has one speed: cut it where the speed changes.
        let playing = openSpan != nil
        closeSpan()
        rate = normalized
        engine?.setRate(normalized)
        if playing { openSpan = (position, Date(), normalized) }
        // The book's own speed, in its row (the default speed is the user's
        // choice in Preferences, not the last speed of some book).
        savePosition()
        updatePositionInterval()
    }

    func changeVolume(_ value: Double) {
        let clamped = value.isFinite ? min(max(value, 0), 1) : volume
        guard clamped != volume else { return }
        volume = clamped
        applyVolume()
        rememberPlayback { $0.volume = clamped }
    }

    private func rememberPlayback(_ change: (inout PlaybackSettings) -> Void) {
        var settings = dependencies.settings.load()
        change(&settings.playback)
        settings.playback = settings.playback.normalized
        do {
            try dependencies.settings.save(settings)
        } catch {
            dependencies.logger.warning("Could not save the playback settings", metadata: ["reason": "\(error)"])
        }
    }
}

extension PlayerModel.NowPlaying {
    init(book: CachedBook, chapters: [PlaybackTimeline.Chapter], duration: Int64) {
        self.init(bookID: book.id, title: book.title, authors: book.authors, narrators: book.narrators, hasCover: book.hasCover,
                  version: book.updatedAt, chapters: chapters, duration: duration)
    }
}
