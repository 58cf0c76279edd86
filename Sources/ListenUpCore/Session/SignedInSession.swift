import Foundation

/// One signed-in session and the models that live as long as it: the
/// library, the player, the downloads and the account's preferences.
///
/// It makes them, hands them one library cache (the one read ahead at
/// launch, or opened now), and wires what one of them learns to the others,
/// so that no model relays another's events:
/// - the library's sync and live events show the server answering again
///   after an outage → the player sends the spans it queued and the
///   downloads the network paused go on;
/// - another device reported a position → the player;
/// - the live events (re)connected or say the preferences changed → the
///   account's preferences are read again;
/// - the account is gone on the server → the session is refused;
/// - the player finished or restarted a book → that one book in the library;
/// - a sync or a live event changed the cache → the browse lists and pages.
///
/// The navigator makes one when a session starts (``AppNavigator/update(_:)``)
/// and ends it when the session ends or the app quits. Main actor only.
@MainActor
public final class SignedInSession {
    /// Who is signed in, and the connection.
    public let session: Session
    /// The library's model (the library route shows this one).
    public let library: LibraryModel
    public let player: PlayerModel
    public let downloads: DownloadsModel
    /// The account's playback preferences (also the player's
    /// ``PlayerModel/accountPreferences``).
    public let accountPreferences: AccountPreferencesSync
    /// Browsing the library by series, author, narrator and genre.
    public let browse: BrowseModel
    /// Home: this week's listening and the books added last.
    public let home: HomeModel
    /// Where the account is signed in (Preferences → Devices).
    public let accountSessions: AccountSessionsModel
    /// The user's shelves and others' (Home, a book's *Add to Shelf*).
    public let shelves: ShelvesModel
    /// What others on the server listen to (Discover).
    public let discover: DiscoverModel
    /// The library cache every model of the session reads and writes.
    let store: any LibraryStore
    private let send: @MainActor @Sendable (AuthEvent) -> Void
    /// A sync failed to reach the server, or the live events dropped: the
    /// next answer is the server coming back.
    private(set) var serverUnreachable = false
    /// ``leave()`` ran: nothing more is wired.
    private var left = false
    /// Stopping the downloads and the player (``end(grace:)``), once.
    private var ending: Task<Void, Never>?

    /// Makes the session's models and starts the library (its cache is
    /// shown, then synced).
    public init(session: Session, dependencies: Dependencies, send: @escaping @MainActor @Sendable (AuthEvent) -> Void) {
        self.session = session
        self.send = send
        let readAhead = dependencies.libraryReadAhead.take(for: session)
        let store = readAhead?.store ?? dependencies.openLibrary(session.serverURL, session.userID)
        self.store = store
        downloads = DownloadsModel(dependencies: dependencies, session: session, library: store)
        player = PlayerModel(dependencies: dependencies, session: session, downloads: downloads, library: store)
        accountPreferences = AccountPreferencesSync(dependencies: dependencies, session: session, player: player)
        player.accountPreferences = accountPreferences
        library = LibraryModel(dependencies: dependencies, session: session, player: player, downloads: downloads,
                               load: false, send: send)
        browse = BrowseModel(dependencies: dependencies, store: store, library: library)
        browse.images = BrowseImageLoader(server: session.connection,
                                          cache: dependencies.openCoverCache(session.serverURL, session.userID), logger: dependencies.logger)
        library.browse = browse
        home = HomeModel(dependencies: dependencies, server: session.connection, store: store, library: library)
        accountSessions = AccountSessionsModel(server: session.connection, logger: dependencies.logger)
        accountSessions.followInterval = dependencies.devicesRefresh
        library.home = home
        shelves = ShelvesModel(dependencies: dependencies, server: session.connection, store: store, library: library)
        home.shelves = shelves
        library.shelves = shelves
        discover = DiscoverModel(dependencies: dependencies, server: session.connection, store: store)
        home.discover = discover
        library.start(store: store, readAhead: readAhead, events: self)
        shelves.start()
        discover.start()
        player.libraryChanged = { [weak library] bookID, progress in
            library?.progressChanged(bookID, progress)
        }
    }

    /// Stops what the session runs on the main actor, at once: the
    /// library's sync and live events, the account's preferences, and the
    /// wiring between the models. ``end(grace:)`` stops the rest.
    public func leave() {
        guard !left else { return }
        left = true
        library.deactivate()
        browse.stop()
        home.stop()
        shelves.stop()
        discover.stop()
        accountSessions.stop()
        accountPreferences.stop()
        player.libraryChanged = nil
    }

    /// Leaves the session (``leave()``), then stops the downloads and the
    /// player (its last span is queued, and sent if it can be within
    /// `grace`). Ending twice does nothing more: the second call waits
    /// for the first to be over.
    public func end(grace: Duration = .seconds(2)) async {
        leave()
        if let ending { return await ending.value }
        let (downloads, player) = (downloads, player)
        let ending = Task { @MainActor in
            await downloads.shutdown()
            await player.shutdown(grace: grace)
        }
        self.ending = ending
        await ending.value
    }
}

extension SignedInSession: LibrarySessionEvents {
    func serverUnreachable(_ unreachable: Bool) {
        guard !left, unreachable != serverUnreachable else { return }
        serverUnreachable = unreachable
        guard !unreachable else { return }
        player.serverIsBack()
        downloads.serverIsBack()
    }

    func listeningPositionChanged(_ position: ListeningPosition) {
        guard !left else { return }
        player.positionReported(position)
    }

    func accountPreferencesMayHaveChanged() {
        accountPreferences.refresh()
    }

    /// The account was deleted on the server: its credentials are
    /// forgotten here and in the secret store (the server revokes the
    /// session next), and Sign in says why.
    func accountDeleted(reason: String?) {
        guard !left else { return }
        let (connection, send) = (session.connection, send)
        Task {
            await connection.logout()
            send(.sessionRefused(.accountRemoved(reason: reason)))
        }
    }

    func libraryCacheChanged() {
        guard !left else { return }
        browse.cacheChanged()
        shelves.cacheChanged()
        discover.cacheChanged()
    }

    func listeningNowMayHaveChanged() {
        guard !left else { return }
        discover.listeningNowMayHaveChanged()
    }
}
