import Foundation

/// The book's position row: what the player keeps of a book beside where
/// it is (finished, its own speed and volume boost, the measured gain, the
/// chapter). It is taken from the newer of this device's row and the
/// server's when a book loads, saved with every position, and carried on
/// every span, because today's server replaces the row wholesale on each
/// write: a periodic write must never un-finish a book or reset its boost
/// (contract addendum §1.1–1.3, after ListenUp's own
/// `PlaybackPositionRepositoryImpl`).
extension PlayerModel {
    /// The loaded book's row as it stands now (nil with no book).
    var currentRow: ListeningPosition? {
        guard let bookID = timeline?.bookID ?? nowPlaying?.bookID else { return nil }
        return ListeningPosition(bookID: bookID, position: position, updatedAt: Date(), finished: finished, playbackSpeed: rate,
                                 volumeBoostDb: volumeBoostDb, measuredGainDb: measuredGainDb, chapterID: chapterID(at: position))
    }

    /// What a span cut now carries of the row.
    var currentFacts: ListeningPosition.Facts {
        ListeningPosition.Facts(finished: finished, volumeBoostDb: volumeBoostDb, measuredGainDb: measuredGainDb,
                                chapterID: chapterID(at: position))
    }

    /// The id of the chapter at `position`: the last one starting at or
    /// before it, else the first (the apps' rule, addendum §1.4).
    func chapterID(at position: Int64) -> String? {
        guard let chapters = nowPlaying?.chapters, !chapters.isEmpty else { return nil }
        return (chapters.last { $0.start <= position } ?? chapters[0]).id
    }

    /// Takes a book's row: finished, the gain, and its speed and boost, or
    /// the user's defaults (Preferences: default speed, default boost) for
    /// a book never played (no row, or a row that never had them).
    func adopt(_ row: ListeningPosition?) {
        finished = row?.finished ?? false
        let defaults = dependencies.settings.load().playback
        let speed = row?.playbackSpeed.map(PlaybackSettings.normalizedRate) ?? defaults.rate
        if speed != rate {
            rate = speed
            engine?.setRate(speed)
        }
        volumeBoostDb = ListeningRules.boost(row?.volumeBoostDb ?? defaults.defaultVolumeBoostDb)
        measuredGainDb = row?.measuredGainDb
        applyGain()
    }

    /// What the engine adds to the book: its boost, and with *Even Out
    /// Loudness* the loudness correction its row keeps (`measuredGainDb`).
    var gainDecibels: Double {
        volumeBoostDb + (evenLoudness ? measuredGainDb ?? 0 : 0)
    }

    /// The engine plays the book at ``gainDecibels`` (its limiter keeps a
    /// boosted book from clipping).
    func applyGain() {
        engine?.setGain(decibels: gainDecibels)
    }

    /// The book's volume boost changed: kept in its row (the next span
    /// carries it to the server).
    func changeBoost(_ decibels: Double) {
        let boost = ListeningRules.boost(decibels)
        guard boost != volumeBoostDb, nowPlaying != nil else { return }
        volumeBoostDb = boost
        applyGain()
        savePosition()
    }

    // MARK: Finished

    /// *Mark as Finished* or *Mark as Not Started* (back to 0): the row
    /// keeps its speed, boost and gain; the server is told once (a call
    /// that times out is not sent again: the user is told and may try
    /// again).
    func markFinished(_ bookID: String, _ finished: Bool) {
        guard let session else { return }
        let loaded = bookID == (timeline?.bookID ?? nowPlaying?.bookID)
        if loaded, !finished {
            // Back to the start; the listening so far (cut by the seek) was
            // listening of a finished book, and says so.
            if timeline != nil {
                seek(to: 0)
            } else {
                position = 0
                updateChapter()
            }
        }
        if loaded { self.finished = finished }
        var row = (loaded ? currentRow : nil) ?? ((try? listening.position(bookID: bookID)) ?? nil)
            ?? ListeningPosition(bookID: bookID, position: 0, updatedAt: Date())
        row.finished = finished
        // A millisecond after the span the seek above just cut: the server
        // keeps the stored row on a tie, and this write must win.
        row.updatedAt = Date().addingTimeInterval(0.001)
        if !finished {
            row.position = 0
            row.chapterID = loaded ? chapterID(at: 0) : nil
        }
        do {
            try listening.savePosition(row)
        } catch {
            dependencies.logger.warning("Could not save the position", metadata: ["reason": "\(error)"])
        }
        noteFinished(bookID, finished)
        let connection = session.connection
        Task {
            do throws(ServerError) {
                try await connection.setFinished(finished, row: row)
                refreshContinueListening()
            } catch {
                dependencies.logger.warning("Could not mark the book", metadata: ["finished": "\(finished)", "code": "\(error.code)"])
                let message = finished ? tr("The book could not be marked as finished: %@", error.userMessage)
                    : tr("The book could not be marked as not started: %@", error.userMessage)
                notice = Notice(id: UUID(), code: .markFailed, message: message)
            }
        }
    }

    /// The library and *Continue listening* follow a book finished (or
    /// restarted) here at once.
    func noteFinished(_ bookID: String, _ finished: Bool) {
        let progress = BookProgress(fraction: finished ? 1 : 0, finished: finished)
        do {
            try library?.setProgress(progress, for: bookID)
        } catch {
            dependencies.logger.warning("Could not record the book's progress", metadata: ["reason": "\(error)"])
        }
        if finished, continueListening.contains(where: { $0.bookID == bookID }) {
            continueListening.removeAll { $0.bookID == bookID }
            try? listening.saveContinueListening(continueListening)
        }
        libraryChanged?(bookID, progress)
    }
}
