import CAdwaita
import GtkBridge
import ListenUpCore
import Logging

/// The app window: a header bar over the page of the active route, inside a
/// toast overlay for transient messages.
///
/// Follows the navigator: each route change builds the new page, cross-fades
/// to it (instantly when animations are off) and tears the old one down.
/// Opens at the size and state it was closed with (GSettings).
@MainActor
public final class MainWindow {
    /// The `AdwApplicationWindow`.
    public let window: UnsafeMutablePointer<GtkWidget>
    private var root: Window { Window(unchecked: window) }
    private let stack: Stack
    let toasts: ToastOverlay
    private let navigator: AppNavigator
    private let pages: PageRegistry
    private let logger: Logger
    private var page: (any RoutePage)?
    private var pageRoute: Route?
    private var pageModel: ObjectIdentifier?
    private var retiring: [(any RoutePage, UnsafeMutablePointer<GtkWidget>)] = []
    private var observation: StateObservation?
    private var connections: [SignalConnection] = []
    private var libraryObservation: StateObservation?
    /// The now-playing bar under the page (signed in, a book loaded): made
    /// when a book first is, so a window that plays nothing never builds it.
    private(set) var nowPlaying: NowPlayingBar?
    /// The window's vertical box: header, page, then the bar once made.
    private let content: Box
    /// Follows the session's player (``ModelFollower``).
    private var player: ModelFollower<PlayerModel>?
    private let application: UnsafeMutablePointer<AdwApplication>
    /// Whether the window is on screen: its surface mapped and not
    /// minimized. The player reports its position every second only then.
    private(set) var isOnScreen = false
    private var surfaceConnections: [SignalConnection] = []
    /// The last remote command announced in a toast.
    private var shownNotice: PlayerModel.RemoteNotice?
    private var shownPlayerNotice: PlayerModel.Notice?
    private var shownOffer: PlayerModel.PositionNotice?
    /// The offer toast's button, connected while it is shown.
    private var offerConnection: SignalConnection?
    /// The last jump announced, and its toast while it may be on screen
    /// (MainWindow+Jumps.swift).
    var shownJump: PlayerModel.JumpNotice?
    var jumpToast: ShownToast?
    /// Follows the session's downloads for refusals (no space, no audio).
    private var downloads: ModelFollower<DownloadsModel>?
    /// The last refusal shown.
    private var shownRefusal: DownloadsModel.Refusal?
    /// Follows the session's browsing: a page that cannot be opened is said
    /// (``followMissingPage(_:)``).
    var browse: ModelFollower<BrowseModel>?
    var shownMissingPage: BrowseModel.PageKey?
    /// The last toast shown (tests).
    private(set) var lastToast: String?
    /// When the last toast came (``isToastArriving``).
    private var lastToastAt: ContinuousClock.Instant?
    /// The session's suspend, inhibited while audio plays.
    private var inhibition: SuspendInhibition
    private var libraryWasOffline = false
    /// The GTK window has been destroyed.
    private var isClosed = false
    /// Asked at each close: true hides the window instead of closing it
    /// (the app plays on in the background, ``BackgroundPlayback``).
    var hidesOnClose: (@MainActor () -> Bool)?
    /// The primary menu (on every screen: Pair a Device…, and Sign Out while signed in).
    let menuButton: MenuButton
    /// The window's actions (`WindowAction`): the menu items and the
    /// "Pair a Device…" links on the sign-in and server pages run them.
    private(set) var actions: InstalledActions<WindowAction>?
    /// The menu's saved servers, *Add Server…* and *Remove Server…*.
    private(set) var serversMenu: ServersMenu?

    /// Builds the window for `application`; it is not shown yet.
    public init(application: UnsafeMutablePointer<AdwApplication>, navigator: AppNavigator, pages: PageRegistry, logger: Logger) {
        self.navigator = navigator
        self.pages = pages
        self.logger = logger
        self.application = application
        let ui = PageTemplates.load("main-window")
        let root: Window = ui.child("root")
        window = root.pointer
        root.setApplication(application)
        (stack, toasts, content, menuButton) = (ui.child("stack"), ui.child("toasts"), ui.child("content"), ui.child("menu-button"))
        inhibition = SuspendInhibition(application: application)
        let saved = navigator.settings.load().window
        root.defaultSize = (saved.restoredSize.width, saved.restoredSize.height)
        if saved.maximized { root.maximize() }

        actions = InstalledActions(on: OpaquePointer(window), connections: &connections) { [weak navigator] action in
            switch action {
            case .signOut: navigator?.signOut()
            case .pairDevice: navigator?.open(.pairing)
            case .closePlayer: navigator?.closeOverlay()
            }
        }
        serversMenu = ServersMenu(navigator: navigator, actionMap: OpaquePointer(window), section: ui.object("servers-section"), parent: root)
        self.connections.append(stack.connect(.notify("transition-running")) { [weak self] in self?.dropRetiredPages() })
        self.connections.append(window.connect(.realize) { [weak self] in self?.watchSurface() })
        self.connections.append(window.connect(.destroy) { [weak self] in self?.close() })
        self.connections.append(window.connect(.closeRequest) { [weak self] in
            guard let self else { return false }
            self.saveWindowState()
            // Playing on in the background: hidden, not destroyed.
            guard self.hidesOnClose?() == true else { return false }
            self.root.isVisible = false
            return true
        })
        observation = StateObservation { [weak self] in self?.follow() }
        player = ModelFollower({ [weak navigator] in navigator?.player },
                               replaced: { [weak self] in self?.playerReplaced($0) },
                               follow: { [weak self] in self?.followPlayer($0) })
        player?.start()
        downloads = ModelFollower({ [weak navigator] in navigator?.downloads },
                                  replaced: { [weak self] in self?.shownRefusal = $0?.refusal },
                                  follow: { [weak self] in self?.followDownloadRefusals($0) })
        downloads?.start()
        browse = ModelFollower({ [weak navigator] in navigator?.signedIn?.browse },
                               replaced: { [weak self] in self?.shownMissingPage = $0?.missingPage },
                               follow: { [weak self] in self?.followMissingPage($0) })
        browse?.start()
        addPlayerShortcuts()
    }

    /// Follows the window's surface (made at realize): shown, hidden,
    /// minimized (on X11 a window manager minimizes by unmapping).
    private func watchSurface() {
        surfaceConnections = root.watchSurface { [weak self] in self?.updateOnScreen() }
        updateOnScreen()
    }

    private func updateOnScreen() {
        isOnScreen = root.isSurfaceOnScreen
        navigator.player?.isPositionWatched = isOnScreen
    }

    /// A session's player appeared (or went): the bar offers the book
    /// listened to last, once per session; notices from before are not shown.
    private func playerReplaced(_ player: PlayerModel?) {
        guard let player else {
            show(nil)
            return
        }
        shownNotice = player.remoteNotice
        shownPlayerNotice = player.notice
        player.offerLastBook()
    }

    /// The bar follows the session's player, and its notices are said in
    /// toasts.
    private func followPlayer(_ player: PlayerModel) {
        player.isPositionWatched = isOnScreen
        if let notice = player.remoteNotice, notice != shownNotice {
            // "Paused from My Phone": a paired device changed playback.
            shownNotice = notice
            showToast(notice.message)
        }
        if let notice = player.notice, notice != shownPlayerNotice {
            // "The book could not be marked as finished: …"
            shownPlayerNotice = notice
            showToast(notice.message)
        }
        if let offer = player.positionOffer, offer != shownOffer {
            shownOffer = offer
            offerPosition(offer)
        }
        followJumps(player)
        show(player)
    }

    /// Shows `player` in the bar (made when a book first is loaded); while
    /// audio plays the session is kept from suspending.
    private func show(_ player: PlayerModel?) {
        if nowPlaying == nil, player?.nowPlaying != nil {
            let bar = NowPlayingBar(open: { [weak navigator] in navigator?.open(.player) })
            content.append(bar.widget)
            nowPlaying = bar
        }
        nowPlaying?.show(player)
        nowPlaying?.setHiddenByRoute(navigator.activeRoute == .player)
        let playing = player?.status == .playing || player?.status == .buffering
        inhibition.set(playing, window: root, reason: tr("Playing an audiobook"))
    }

    /// A book the downloads could not queue (no space, no audio) is said in
    /// a toast, once per refusal; one made before the window followed this
    /// session's downloads is not.
    private func followDownloadRefusals(_ downloads: DownloadsModel) {
        if let refusal = downloads.refusal, refusal != shownRefusal {
            shownRefusal = refusal
            showToast(refusal.failure.message)
        }
    }

    /// Whether the suspend is inhibited now (tests).
    var isInhibitingSuspend: Bool { inhibition.isActive }

    /// The player's keys (``playerKeys``, MainWindow+PlayerKeys.swift):
    /// wherever focus is, except in a widget that needs them (a text field
    /// or a slider any key, a list, grid or menu its arrows).
    private func addPlayerShortcuts() {
        root.addCaptureShortcuts(Self.playerKeys.flatMap { key in
            key.triggers.map { trigger in
                (trigger, { @MainActor [weak self] in
                    guard let self, let player = self.navigator.player, player.nowPlaying != nil,
                          !(key.isArrow ? self.root.focusTakesArrows : self.root.focusTakesKeys) else { return false }
                    return key.run(player)
                })
            }
        })
    }

    /// The page on screen.
    public var currentPage: (any RoutePage)? { page }
    /// The route of the page on screen. It lags the navigator's active
    /// route until the window has followed a change.
    public var currentPageRoute: Route? { pageRoute }

    /// A page is fading in.
    var isFading: Bool { stack.isTransitionRunning }

    /// Shows the window.
    public func present() {
        root.present()
        page?.focusDefault()
    }

    /// Shows `text` briefly over the page (a transient error or a confirmation).
    /// *Continue from 1:23:45 (listened on another device)*, with a button
    /// that moves there.
    private func offerPosition(_ offer: PlayerModel.PositionNotice) {
        // TRANSLATORS: a toast after a pause; %@ is a time in the book.
        let text = tr("Continue from %@ (listened on another device)", PlayerControls.time(offer.position))
        noteToast(text)
        offerConnection = toasts.show(text, button: tr("Continue"), seconds: 10) { [weak navigator] in navigator?.player?.send(.takeOffer) }
        nameToastCloseButton()
    }

    /// libadwaita 1.2's toast has a close button with an icon and no
    /// accessible name (a screen reader says "button"): named here, once
    /// the toast's widget exists.
    func nameToastCloseButton() {
        toasts.nameCloseButtons(tr("Dismiss"))
        // Not once the window is gone (a test may close it at once).
        MainContext.idle { [weak self] in
            guard let self, !self.isClosed else { return }
            self.toasts.nameCloseButtons(tr("Dismiss"))
        }
    }

    public func showToast(_ text: String) {
        noteToast(text)
        toasts.show(text)
        nameToastCloseButton()
    }

    /// Remembers the toast just shown: tests read ``lastToast``, and a
    /// screenshot waits while it slides in (``isToastArriving``).
    func noteToast(_ text: String) {
        lastToast = text
        lastToastAt = .now
    }

    /// Whether a toast came a moment ago and may still be sliding in.
    public var isToastArriving: Bool {
        lastToastAt.map { ContinuousClock.now - $0 < .milliseconds(600) } ?? false
    }

    /// Keeps the size and maximised state for the next start.
    func saveWindowState() {
        let size = root.defaultSize
        var settings = navigator.settings.load()
        let state = WindowState(width: size.width, height: size.height, maximized: root.isMaximized)
        guard state != settings.window else { return }
        settings.window = state
        do {
            try navigator.settings.save(settings)
        } catch {
            logger.warning("Window state not saved", metadata: ["error": "\(error)"])
        }
    }

    /// Says so with a toast when the library loses the server (the page's
    /// subtitle keeps saying "Offline" after the toast is gone).
    private func watchLibrary(_ library: LibraryModel?) {
        libraryObservation?.cancel()
        libraryObservation = nil
        guard let library else { return }
        libraryWasOffline = library.isOffline
        libraryObservation = StateObservation { [weak self, weak library] in
            guard let self, let library else { return }
            let offline = library.isOffline
            if offline, !self.libraryWasOffline {
                self.showToast(tr("Can't reach the server. Showing your saved library."))
            }
            self.libraryWasOffline = offline
        }
    }

    private func follow() {
        let route = navigator.activeRoute
        let signedIn: Bool = if case .authenticated = navigator.authState { true } else { false }
        actions?.setEnabled(.signOut, signedIn && route == .library)
        actions?.setEnabled(.pairDevice, route != .pairing)
        guard let model = navigator.activeModel else { return }
        let identity = ObjectIdentifier(model)
        guard route != pageRoute || identity != pageModel else { return }
        guard let newPage = pages.page(for: route, model: model) else {
            logger.error("No page registered for route", metadata: ["route": "\(route.rawValue)"])
            return
        }
        if let old = page { retiring.append((old, old.widget)) }
        watchLibrary(ScreenKey.library.model(model, on: route))
        // The loading page only stands in for the first screen, which takes
        // its place at once: no fade from a spinner at every start.
        let fades = pageRoute != .loading
        page = newPage
        pageRoute = route
        pageModel = identity
        stack.add(newPage.widget)
        stack.show(newPage.widget, animated: fades)
        newPage.focusDefault()
        dropRetiredPages()
    }

    /// Removes pages that have faded out.
    private func dropRetiredPages() {
        guard !stack.isTransitionRunning else { return }
        for (old, widget) in retiring {
            old.teardown()
            stack.remove(widget)
        }
        retiring.removeAll()
    }

    private func close() {
        isClosed = true
        observation?.cancel()
        serversMenu?.stop()
        player?.cancel()
        downloads?.cancel()
        nowPlaying?.teardown()
        inhibition.set(false, window: root, reason: "")
        libraryObservation?.cancel()
        page?.teardown()
        for (old, _) in retiring { old.teardown() }
        retiring.removeAll()
        page = nil
    }
}
