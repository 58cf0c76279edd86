import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore
import Logging

/// The GTK front: an `AdwApplication` (`io.github.listenup.Desktop`) whose
/// window follows the navigator.
@MainActor
public final class ListenUpApplication {
    /// How this run should behave beyond showing the window.
    public struct Options: Sendable {
        /// Write the window to this PNG after its first frame, then quit.
        public var screenshotPath: String?
        /// Quit right after the first frame (start-up benchmarks).
        public var exitAfterFirstFrame = false
        /// With `exitAfterFirstFrame`: wait for the first frame that shows a
        /// page past `loading` with its content ready (the library's cached
        /// books), not just the first frame.
        public var waitForContent = false
        /// Skip D-Bus uniqueness (previews, screenshots, tests).
        public var nonUnique = false
        /// Forced glass mode, from `LISTENUP_GLASS`.
        public var glassOverride: GlassMode?
        /// Open the preferences over the window at start, on this page
        /// (`general`, `playback`, `downloads`; previews: with `screenshotPath`, the
        /// shot is of the preferences window).
        public var openPreferences: String?
        /// With the window closed while a book played: how long nothing may
        /// play before the app quits (``BackgroundPolicy/idleGrace``).
        public var backgroundGrace: Duration = BackgroundPolicy.idleGrace
        /// Started by D-Bus activation (`--gapplication-service`, for GNOME
        /// Shell's search): no window until activated; quits when idle.
        public var isService = false
        /// Links to open (invite links), handed to the running app when
        /// there is one (GApplication's `open`).
        public var links: [String] = []

        public init(screenshotPath: String? = nil, exitAfterFirstFrame: Bool = false, waitForContent: Bool = false,
                    nonUnique: Bool = false, glassOverride: GlassMode? = nil, openPreferences: String? = nil,
                    backgroundGrace: Duration = BackgroundPolicy.idleGrace, isService: Bool = false) {
            self.screenshotPath = screenshotPath
            self.exitAfterFirstFrame = exitAfterFirstFrame
            self.waitForContent = waitForContent
            self.nonUnique = nonUnique
            self.glassOverride = glassOverride
            self.openPreferences = openPreferences
            self.backgroundGrace = backgroundGrace
            self.isService = isService
        }
    }

    /// The application id, also the GSettings schema id and desktop file name.
    public static let applicationID = "io.github.listenup.Desktop"

    private let application: UnsafeMutablePointer<AdwApplication>
    private let navigator: AppNavigator
    private let pages: PageRegistry
    private let data: DataDirectory?
    private let options: Options
    private let logger: Logger
    private var theme: GlassTheme?
    private var window: MainWindow?
    private var preferences: PreferencesWindow?
    /// Asks before an invite link signs the user out.
    private lazy var inviteSignOut = InviteSignOutDialog(navigator: navigator)
    /// Playing on with the window closed (a unique, live app only: a
    /// preview could never be brought back).
    private var background: BackgroundPlayback?
    private var connections: [SignalConnection] = []
    private var exitStatus: Int32 = 0
    private var screenshotAttempts = 0
    /// Frames a screenshot waited for the page's content.
    private var contentFrames = 0

    public init(navigator: AppNavigator, pages: PageRegistry = .standard, data: DataDirectory?, options: Options, logger: Logger) {
        self.navigator = navigator
        self.pages = pages
        self.data = data
        self.options = options
        self.logger = logger
        var flags = options.nonUnique ? G_APPLICATION_NON_UNIQUE : G_APPLICATION_DEFAULT_FLAGS
        if options.isService { flags = GApplicationFlags(rawValue: flags.rawValue | G_APPLICATION_IS_SERVICE.rawValue) }
        flags = GApplicationFlags(rawValue: flags.rawValue | G_APPLICATION_HANDLES_OPEN.rawValue)
        application = newObject(adw_application_new(Self.applicationID, flags))
        connections.append(application.connect(.startup) { [weak self] in self?.startup() })
        connections.append(application.connect(.activate) { [weak self] in self?.activate() })
        connections.append(application.connect(.open) { [weak self] links in
            guard let self else { return }
            self.activate()
            self.open(links, navigator: self.navigator, dialog: self.inviteSignOut, parent: self.window?.window)
        })
        addActions()
    }

    /// `app.quit` (Ctrl+Q), `app.preferences` (Ctrl+,), `app.shortcuts`
    /// (F1, Ctrl+?), `app.about`; Ctrl+W closes the window (`window.close`,
    /// GTK's own action).
    private func addActions() {
        var added: [SignalConnection] = []
        _ = InstalledActions<AppAction>(on: OpaquePointer(application), connections: &added) { [weak self] action in
            guard let self else { return }
            switch action {
            case .quit:
                self.window?.saveWindowState()
                self.quit()
            case .preferences:
                self.showPreferences()
            case .shortcuts:
                guard let window = self.window?.window else { return }
                ShortcutsWindow.present(over: window)
            case .about:
                guard let window = self.window?.window else { return }
                AboutWindow.present(over: window)
            }
        }
        connections += added
        for (action, accelerators) in Self.accelerators {
            let strings = accelerators.map { strdup($0) }
            var pointers = strings.map { UnsafePointer($0) } + [nil]
            gtk_application_set_accels_for_action(application.cast(to: GtkApplication.self), action, &pointers)
            for string in strings { free(string) }
        }
    }

    /// The app's keyboard shortcuts by action (the shortcuts window lists the same).
    static let accelerators: [(String, [String])] = [
        (AppAction.quit.detailedName, ["<Control>q"]),
        (AppAction.preferences.detailedName, ["<Control>comma"]),
        (AppAction.shortcuts.detailedName, ["F1", "<Control>question"]),
        (GtkWindowAction.close.detailedName, ["<Control>w"]),
    ]

    /// Opens the preferences, or brings the open ones to the front.
    /// - Parameter page: the page to show (nil: as they are, General at first).
    func showPreferences(on page: PreferencesWindow.Page? = nil) {
        guard let main = window else { return }
        if let preferences {
            if let page { preferences.show(page) }
            preferences.present()
            return
        }
        let opened = PreferencesWindow(model: navigator.makePreferences(), parent: main.window) { [weak self] in
            self?.preferences = nil
        }
        preferences = opened
        if let page { opened.show(page) }
        opened.present()
        logger.debug("Preferences opened", metadata: ["page": "\(page?.rawValue ?? "general")"])
    }

    /// Runs the GLib main loop until the app quits.
    /// - Returns: the process exit status.
    public func run() -> Int32 {
        MainContext.installDispatchBridge()
        // GApplication sees only argv[0] and the links to open: our own
        // flags are parsed already.
        let arguments = ([CommandLine.arguments.first ?? "listenup"] + options.links).map { strdup($0) }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments + [nil]
        // GNOME Shell's search, on the bus connection the run registers on.
        let searchProvider = options.nonUnique ? nil : ShellSearchProvider.exported(
            for: application.cast(to: GApplication.self), navigator: navigator, service: options.isService, logger: logger)
        let status = g_application_run(application.cast(to: GApplication.self), Int32(arguments.count), &argv)
        searchProvider?.unexport()
        arguments.forEach { free($0) }
        // The window is gone: the player queues its last span and saves its
        // position at once, then gets up to 2 s to send what is queued.
        let finished = LockedValue(false)
        Task { @MainActor [navigator] in
            await navigator.shutdown(grace: .seconds(2))
            finished.value = true
        }
        _ = MainContext.iterate(until: { finished.value }, timeout: .seconds(3))
        return status != 0 ? status : exitStatus
    }

    private func activate() {
        if window != nil {
            showWindow()
            return
        }
        Appearance.apply(navigator.settings.load().colorScheme)
        theme = GlassTheme(data: data, override: options.glassOverride, logger: logger)
        let main = MainWindow(application: application, navigator: navigator, pages: pages, logger: logger)
        logger.debug("Templates: \(PageTemplates.bundlePath ?? "none")")
        window = main
        if !options.nonUnique { keepPlayingInBackground(main) }
        theme?.attach(main.window)
        if options.screenshotPath != nil || options.exitAfterFirstFrame {
            watchFirstFrame(of: main.window)
        }
        afterFirstFrame(of: main.window)
        main.present()
        if let page = options.openPreferences { showPreferences(on: PreferencesWindow.Page(rawValue: page) ?? .general) }
    }

    /// GTK and libadwaita are set up: the icon theme gets its last search
    /// path and is read off the main thread while the window is built
    /// (``IconThemeLoad``). A D-Bus-activated search provider draws no icon.
    private func startup() {
        guard let display = gdk_display_get_default() else { return }
        addIconSearchPaths(display: display)
        if !options.isService { IconThemeLoad.start(for: display) }
    }

    /// The app icon (About, the window) comes from the icon theme: installed,
    /// `<prefix>/share/icons` is on it through XDG_DATA_DIRS; from a checkout
    /// (`data/icons`) or a prefix outside XDG_DATA_DIRS, it is added here.
    private func addIconSearchPaths(display: OpaquePointer) {
        guard let data else { return }
        let theme = gtk_icon_theme_get_for_display(display)
        for folder in [data.file("icons"), data.url.deletingLastPathComponent().appendingPathComponent("icons")]
        where FileManager.default.fileExists(atPath: folder.appendingPathComponent("hicolor").path) {
            gtk_icon_theme_add_search_path(theme, folder.path)
        }
    }

    /// Work the first frame does not need, once it is on screen.
    ///
    /// - Start-up's burst (the templates, the style sheets, the first page)
    ///   leaves freed memory in malloc's heaps, about 0.8 MiB resident at
    ///   idle on the setup page: it is given back (docs/performance.md).
    /// - The windows' icon on X11 (`_NET_WM_ICON`, for window lists that do
    ///   not read the desktop entry; Wayland shells always take the entry's).
    ///   GTK sends every fixed size the theme has, so the app ships PNGs
    ///   beside its SVG (`build-aux/render-app-icons`): rendering the SVG
    ///   would load librsvg, libxml2 and ICU for good. The default serves
    ///   the windows made later (preferences, dialogs); a window already
    ///   shown keeps the icon it had, so the main one is named too.
    private func afterFirstFrame(of window: UnsafeMutablePointer<GtkWidget>) {
        let watched = GWeakObject(window)
        let logger = logger
        connections.append(window.connect(.realize) {
            FramePaint.afterNext(of: window) {
                FreedMemory.release(logger: logger)
                guard GtkRuntime.displayIsX11 else { return }
                gtk_window_set_default_icon_name(AppInfo.id)
                // A window destroyed by then (a screenshot taken, the app
                // quit after its first frame) has no icon to take.
                guard let alive = watched.strongReference() else { return }
                withExtendedLifetime(alive) { Window(unchecked: window).setIconName(AppInfo.id) }
            }
        })
    }

    private func watchFirstFrame(of window: UnsafeMutablePointer<GtkWidget>) {
        connections.append(window.connect(.realize) { [weak self] in
            FramePaint.untilDone(of: window) {
                guard let self else { return true }
                if self.options.waitForContent, !self.showsContent { return false }
                // A screenshot waits a few frames for what the page reads
                // off the main thread (the library's browse pages), and for
                // a toast to slide in (a jump's).
                let waits = !self.showsContent ? self.contentFrames < Self.screenshotFrames * 3
                    : self.window?.isToastArriving == true && self.contentFrames < Self.screenshotFrames * 6
                if self.options.screenshotPath != nil, waits {
                    self.contentFrames += 1
                    return false
                }
                return self.firstFrameDrawn()
            }
        })
    }

    /// A page past `loading` is on screen with its content. The window
    /// follows a route change a moment later, so the page on screen must be
    /// the active route's, not the one it replaces.
    private var showsContent: Bool {
        guard let window, let route = window.currentPageRoute else { return false }
        return route != .loading && route == navigator.activeRoute && window.currentPage?.isContentReady == true
    }

    /// Writes the screenshot, if asked for, and quits.
    /// - Returns: false to be called again after the next frame: GTK has
    ///   no picture of a window that waits for a new layout (the library's
    ///   grid fits its columns to the width it was given, which asks for
    ///   one more), so that window is taken once it has settled.
    private func firstFrameDrawn() -> Bool {
        if screenshotAttempts == 0 { logger.info("First frame drawn") }
        if let path = options.screenshotPath, let window {
            screenshotAttempts += 1
            // The preferences, when opened at start, are what the shot is of.
            let shown = preferences?.window ?? window.window
            if WidgetRenderer.savePNG(of: shown, to: path) {
                logger.info("Screenshot written", metadata: ["path": "\(path)"])
                saveDialogScreenshot(besides: path)
            } else if screenshotAttempts < Self.screenshotFrames {
                return false
            } else {
                logger.error("Screenshot failed", metadata: ["path": "\(path)"])
                exitStatus = 1
            }
        }
        quit()
        return true
    }

    /// Frames tried for a screenshot before giving up.
    private static let screenshotFrames = 10

    /// A dialog the page shows (the pairing confirmation) is a window of its
    /// own: it goes to `<name>-dialog.png` beside the window's screenshot.
    private func saveDialogScreenshot(besides path: String) {
        guard let dialog = window?.currentPage?.dialog else { return }
        let dialogPath = (path.hasSuffix(".png") ? String(path.dropLast(4)) : path) + "-dialog.png"
        _ = MainContext.iterate(until: { gtk_widget_get_mapped(dialog) != 0 && gtk_widget_get_width(dialog) > 0 }, timeout: .seconds(2))
        MainContext.iterate(until: { false }, timeout: .milliseconds(100))
        if WidgetRenderer.savePNG(of: dialog, to: dialogPath) {
            logger.info("Dialog screenshot written", metadata: ["path": "\(dialogPath)"])
        } else {
            logger.warning("Dialog screenshot failed", metadata: ["path": "\(dialogPath)"])
        }
    }

    /// Brings the window to the front (the media controls' Raise); an
    /// instance the search started with no window yet opens one.
    public func raise() {
        guard window != nil else {
            g_application_activate(application.cast(to: GApplication.self))
            return
        }
        showWindow()
    }

    /// Whether the window is hidden while the app plays on (tests).
    var isPlayingInBackground: Bool { background?.isActive == true }

    /// Closing `main` while a book plays hides it instead, if the user
    /// wants that (``BackgroundPlayback``).
    private func keepPlayingInBackground(_ main: MainWindow) {
        let connection = g_application_get_dbus_connection(application.cast(to: GApplication.self))
        let playback = BackgroundPlayback(navigator: navigator, grace: options.backgroundGrace,
                                          portal: connection.map { BackgroundPortal(connection: $0, logger: logger) },
                                          logger: logger) { [weak self] in self?.quit() }
        background = playback
        main.hidesOnClose = { [weak playback] in
            guard let playback, playback.keepsRunningOnClose else { return false }
            playback.begin()
            return true
        }
    }

    /// Shows the window; coming back from the background, with the player
    /// open on the book that played on.
    private func showWindow() {
        guard let window else { return }
        if let background, background.isActive {
            background.end()
            if navigator.player?.nowPlaying != nil { _ = navigator.open(.player) }
        }
        window.present()
    }

    /// Closes the window and ends the main loop.
    public func quit() {
        background?.end()
        if let window { gtk_window_destroy(window.window.cast(to: GtkWindow.self)) }
        g_application_quit(application.cast(to: GApplication.self))
    }
}
