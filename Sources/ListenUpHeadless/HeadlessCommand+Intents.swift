import ListenUpCore

/// What a command asks of the session's player or downloads, as their
/// intents (the presenter hands them on; `recentPositions` is answered by
/// the presenter itself).
extension HeadlessCommand {
    /// The player's intent, for a player command (nil for the others).
    public var playerIntent: PlayerModel.Intent? {
        switch self {
        case .play(let bookID): .play(bookID: bookID)
        case .pause: .pause
        case .resume: .resume
        case .stop: .stop
        case .seek(let position): .seek(position)
        case .skip(let seconds): .skip(seconds: seconds)
        case .chapter(let index): .chapter(index)
        case .rate(let value): .rate(value)
        case .volume(let value): .volume(value)
        case .boost(let decibels): .boost(decibels)
        case .sleepTimer(let timer): .sleep(timer)
        case .markFinished(let bookID, let finished): .markFinished(bookID: bookID, finished: finished)
        case .takeOffer: .takeOffer
        case .undoJump: .undoJump
        default: nil
        }
    }

    /// The downloads' intent, for a download command (nil for the others).
    public var downloadsIntent: DownloadsModel.Intent? {
        switch self {
        case .download(let bookID): .download(bookID: bookID)
        case .pauseDownload(let bookID): .pause(bookID: bookID)
        case .resumeDownload(let bookID): .resume(bookID: bookID)
        case .cancelDownload(let bookID): .cancel(bookID: bookID)
        case .removeDownload(let bookID): .remove(bookID: bookID)
        case .pauseDownloads: .pauseAll
        case .resumeDownloads: .resumeAll
        case .removeDownloads: .removeAll
        default: nil
        }
    }
}
