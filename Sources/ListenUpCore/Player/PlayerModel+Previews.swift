import Foundation

extension PlayerModel {
    nonisolated static let previews: [PreviewState<PlayerModel>] = [
        .init("playing") { $0.showForPreview(status: .playing, position: 4_380_000) },
        .init("paused") { $0.showForPreview(status: .paused, position: 4_380_000) },
        .init("buffering") { $0.showForPreview(status: .buffering, position: 4_380_000, buffering: 42) },
        .init("loading") { $0.showForPreview(status: .loading, position: 0) },
        .init("error") {
            $0.showForPreview(status: .error, position: 4_380_000,
                              failure: Failure(.network))
        },
        .init("sleep") { $0.showForPreview(status: .playing, position: 4_380_000, sleep: .minutes(15), sleepRemaining: 734_000) },
        .init("sleep-chapter") { $0.showForPreview(status: .playing, position: 4_380_000, sleep: .endOfChapter, sleepRemaining: 1_020_000) },
        .init("fast") { $0.showForPreview(status: .playing, position: 4_380_000, rate: 1.75) },
        // A book finished (on another device), played again, with a boost.
        .init("finished-boost") { $0.showForPreview(status: .paused, position: 1_320_000, finished: true, boost: 6) },
        // Paused after another device listened further: the offer.
        .init("offered") {
            $0.showForPreview(status: .paused, position: 4_380_000)
            $0.positionOffer = PositionNotice(id: UUID(), bookID: "book-2", position: 5_025_000, device: nil,
                                              listenedAt: Date(timeIntervalSince1970: 1_750_000_000))
        },
        // A chapter chosen a moment ago: the window's toast offers to go
        // back (the window follows this player: `player: "jumped"`).
        .init("jumped", player: "jumped") {
            $0.showForPreview(status: .playing, position: 4_380_000)
            $0.jumpHistory = ["book-2": [RecentPosition(position: 9_126_000, leftAt: Date())]]
            $0.lastJump = JumpNotice(id: UUID(), bookID: "book-2", position: 4_380_000, undoPosition: 9_126_000, at: Date())
        },
        // Recent Positions open: where the book was before its last jumps
        // (the list is the screenshot's `-dialog.png`).
        .init("recent") {
            $0.showForPreview(status: .paused, position: 4_380_000)
            let now = Date()
            $0.jumpHistory = ["book-2": [(8_045_000, 40.0), (12_600_000, 420), (2_730_000, 1_500), (15_300_000, 7_800)].map {
                RecentPosition(position: $0.0, leftAt: now.addingTimeInterval(-$0.1))
            }]
            $0.opensRecentPositions = true
        },
        .init("idle") { $0.showForPreview(status: .idle, position: 0, loaded: false) },
    ]

    /// The preview book: "Piranesi" from the library's previews, 12 chapters.
    nonisolated static let previewBook = NowPlaying(
        bookID: "book-2", title: "Piranesi", authors: "Susanna Clarke", narrators: "Chiwetel Ejiofor",
        chapters: [
            "Part 1: Piranesi", "The Other", "The Sixteen", "The Albatross", "The Prophet", "Laurence Arne-Sayles",
            "Part 2: The Other", "Part 3: The Prophet", "Part 4: Valentine Ketterley", "Part 5: Matthew Rose Sorensen",
            "Part 6: Waves", "Part 7: Matthew Rose Sorensen",
        ].enumerated().map { PlaybackTimeline.Chapter(title: $0.element, start: Int64($0.offset) * 2_500_000, end: Int64($0.offset + 1) * 2_500_000) },
        duration: 30_000_000)

    /// Previews only.
    func showForPreview(status: Status, position: Int64, rate: Double = 1, buffering: Int = 0, failure: Failure? = nil,
                        sleep: SleepTimer? = nil, sleepRemaining: Int64? = nil, loaded: Bool = true, finished: Bool = false,
                        boost: Double = 0) {
        nowPlaying = loaded ? Self.previewBook : nil
        self.finished = finished
        volumeBoostDb = boost
        self.status = status
        self.position = position
        self.rate = rate
        bufferingPercent = buffering
        self.failure = failure
        sleepTimer = sleep
        self.sleepRemaining = sleepRemaining
        chapterIndex = loaded ? Self.previewBook.chapters.lastIndex { $0.start <= position } : nil
        continueListening = [
            ContinueListeningItem(bookID: "book-2", title: "Piranesi", author: "Susanna Clarke", position: position,
                                  duration: 30_000_000, progress: Double(position) / 30_000_000, lastPlayedAt: Date(timeIntervalSince1970: 1_750_000_000)),
            ContinueListeningItem(bookID: "book-4", title: "Project Hail Mary", author: "Andy Weir", position: 40_000_000,
                                  duration: 58_000_000, progress: 0.69, lastPlayedAt: Date(timeIntervalSince1970: 1_749_000_000)),
            ContinueListeningItem(bookID: "book-0", title: "The Left Hand of Darkness", author: "Ursula K. Le Guin", position: 5_200_000,
                                  duration: 52_000_000, progress: 0.1, lastPlayedAt: Date(timeIntervalSince1970: 1_748_000_000)),
        ]
    }
}

extension ScreenKey where Model == PlayerModel {
    /// The player (opened from the now-playing bar).
    public static var player: Self { Self(.player) }
}

extension RouteNode {
    /// The player page: an overlay over the library, showing the session's
    /// player (``RouteContext/player``); never the screen of an auth state.
    public static let player = RouteNode(
        .player,
        serves: { _ in false },
        model: { context in
            context.player ?? PlayerModel(dependencies: context.dependencies, session: nil)
        },
        previews: PlayerModel.previews
    )
}
