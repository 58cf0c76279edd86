import ArgumentParser
import Foundation
import GtkBridge
import ListenUpCore
import ListenUpHeadless
import ListenUpLive
import ListenUpUI
import Logging
import MPRIS

/// The composition root: parses the command line, builds the dependencies
/// once, and hands them to one of the two fronts (GTK or headless).
@main
struct ListenUpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listenup",
        abstract: "ListenUp for Linux: a desktop client for ListenUp audiobook servers.",
        discussion: """
        Environment: LISTENUP_LOG=trace|debug|info|warning|error sets the log level (logs go to stderr); \
        LISTENUP_GLASS=translucent|opaque forces the glass mode; LISTENUP_DATA_DIR points at the data folder; \
        LISTENUP_LOCALE_DIR at the translations (<lang>/LC_MESSAGES/listenup.mo); \
        LISTENUP_PAIRING_BIND=ADDR[,ADDR…] binds and advertises pairing on these addresses only (e.g. 127.0.0.1); \
        LISTENUP_IDLE_QUIT_SECONDS=N quits after N seconds (not 600) with the window closed and nothing playing. \
        Without a GPU render node (/dev/dri/renderD*) the app draws with GTK's cairo renderer; \
        GSK_RENDERER overrides that.
        """
    )

    @Flag(help: "Run without a display: JSON lines out on stdout, JSON commands in on stdin.")
    var headless = false

    @Option(help: ArgumentHelp("Open one screen in one state with preview data.", valueName: "ROUTE[:STATE]"))
    var preview: String?

    @Option(help: ArgumentHelp("Write the window to a PNG after the first frame, then exit.", valueName: "FILE.png"))
    var screenshot: String?

    @Flag(help: "List every ROUTE:STATE that --preview accepts, then exit.")
    var listPreviews = false

    @Option(help: ArgumentHelp("Start with this server instead of the saved one (it is checked, and saved once verified).", valueName: "URL"))
    var server: String?

    @Flag(name: .customLong("pair"), help: "Open Pair a Device at start (the QR code for a companion).")
    var openPairing = false

    @Flag(name: .customLong("gapplication-service"),
          help: "Start as a D-Bus service, as the session bus does for GNOME's search: no window until one is asked for; quits when idle.")
    var gapplicationService = false

    @Flag(name: .customLong("print-renderer"),
          help: ArgumentHelp("Print the renderer settings the app would give GTK here (NAME=value lines; none when GTK's default stands), then exit.",
                             visibility: .hidden))
    var printRenderer = false

    @Option(name: .customLong("qr-png"),
            help: ArgumentHelp("With --headless: write the pairing QR code to this PNG for each new code.", valueName: "FILE.png"))
    var qrPNG: String?

    @Argument(help: ArgumentHelp("Invite links to open (listenup://join/CODE, https://link.listenup.audio/o?t=invite…, SERVER/join/CODE); a running app opens them.",
                                 valueName: "LINK"))
    var links: [String] = []

    /// Follows the saved state (or `server`), with pairing open on top if asked.
    @MainActor
    private func startLive(_ navigator: AppNavigator, server: ServerAddress?) {
        navigator.start(server: server)
        if openPairing { _ = navigator.open(.pairing) }
    }

    func validate() throws {
        if let preview, PreviewTarget(preview) == nil {
            throw ValidationError("Unknown preview “\(preview)”. Run listenup --list-previews for the names.")
        }
        if let server, case .failure(let error) = ServerAddress.parse(server) {
            throw ValidationError("--server: \(error.userMessage)")
        }
        if headless, screenshot != nil {
            throw ValidationError("--screenshot needs a display; it cannot be combined with --headless.")
        }
        if gapplicationService, headless || preview != nil || screenshot != nil {
            throw ValidationError("--gapplication-service starts the window's app as a D-Bus service; it cannot be combined with --headless, --preview or --screenshot.")
        }
        if !links.isEmpty, headless || preview != nil || screenshot != nil {
            throw ValidationError("Links open in the window's app; use claimInvite with --headless.")
        }
        if qrPNG != nil, !headless {
            throw ValidationError("--qr-png is for --headless; the window shows the QR code itself.")
        }
    }

    func run() throws {
        let status = MainActor.assumeIsolated { launch() }
        if status != 0 { throw ExitCode(status) }
    }

    @MainActor
    private func launch() -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = environment["LISTENUP_LOG"].flatMap(Logger.Level.init(rawValue:)) ?? .info
            return handler
        }
        let logger = Logger(label: "io.github.listenup.Desktop")
        if printRenderer {
            // For the benches, whose C baselines draw the way the app does.
            let choice = RendererChoice.forThisMachine(environment: environment)
            let lines = choice.orderedSettings.map { "\($0.name)=\($0.value)\n" }.joined()
            FileHandle.standardOutput.write(Data(lines.utf8))
            return 0
        }
        if !headless {
            // Before any thread starts: the choice is made through setenv.
            let renderer = RendererChoice.forThisMachine(environment: environment)
            renderer.apply()
            if let reason = renderer.reason { logger.debug("Drawing with cairo, GL off: \(reason)") }
        }
        let locations = ResourceLocations()
        let localeDirectory = locations.localeDirectory(environment: environment)
        Localization.bind(localeDirectory: localeDirectory)
        logger.debug("Translations: \(localeDirectory)")

        if listPreviews {
            for node in RouteRegistry.standard.nodes {
                for state in node.previews { FileHandle.standardOutput.write(Data("\(node.route.rawValue):\(state.name)\n".utf8)) }
            }
            return 0
        }

        let target = preview.flatMap(PreviewTarget.init)
        var dependencies: Dependencies = target == nil
            ? .live(environment: environment, locations: locations, logger: logger)
            : .appPreview(logger: logger)
        // A window draws a large library's first screen before the rest is
        // read; the headless front reports the library once it is read whole.
        if !headless { dependencies.libraryFirstScreen = .window }
        let navigator = AppNavigator(registry: .standard, dependencies: dependencies)
        let startServer = server.flatMap { try? ServerAddress.parse($0).get() }

        if headless {
            // GTK is never initialised on this path. The media controls
            // follow the player here too (a headless player is still one the
            // desktop can pause).
            let controls = target == nil ? MediaControlsHost(navigator: navigator, raise: nil, quit: {
                Task { @MainActor in
                    await navigator.shutdown(grace: .seconds(2))
                    Foundation.exit(0)
                }
            }, logger: logger) : nil
            withExtendedLifetime(controls) {
                HeadlessRunner.run(navigator: navigator, logger: logger, qrPNGPath: qrPNG) {
                    if let target { navigator.preview(target.route, state: target.state) } else { startLive(navigator, server: startServer) }
                }
            }
        }

        guard GtkRuntime.initialize() else {
            logger.error("No display found. Set DISPLAY or WAYLAND_DISPLAY, or run listenup --headless.")
            return 1
        }
        if let target { navigator.preview(target.route, state: target.state) } else { startLive(navigator, server: startServer) }
        var options = ListenUpApplication.Options(
            screenshotPath: screenshot,
            exitAfterFirstFrame: ["1", "content"].contains(environment["LISTENUP_EXIT_AFTER_FIRST_FRAME"]),
            waitForContent: environment["LISTENUP_EXIT_AFTER_FIRST_FRAME"] == "content",
            nonUnique: target != nil || screenshot != nil,
            glassOverride: environment["LISTENUP_GLASS"].flatMap(GlassMode.init(rawValue:)),
            // Previews and screenshots of the preferences (a page of them) over a screen.
            openPreferences: environment["LISTENUP_OPEN_PREFERENCES"].flatMap { $0.isEmpty ? nil : $0 },
            backgroundGrace: BackgroundPolicy.idleGrace(environment: environment),
            isService: gapplicationService
        )
        options.links = links
        let app = ListenUpApplication(
            navigator: navigator,
            data: DataDirectory.locate(environment: environment, executable: locations.executable),
            options: options,
            logger: logger
        )
        let controls = target == nil && screenshot == nil
            ? MediaControlsHost(navigator: navigator, raise: { app.raise() }, quit: { app.quit() }, logger: logger) : nil
        return withExtendedLifetime(controls) { app.run() }
    }
}

/// `ROUTE[:STATE]` from `--preview`, checked against the registry.
struct PreviewTarget {
    let route: Route
    let state: String?

    init?(_ text: String) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard let first = parts.first, let route = Route(rawValue: first),
              let node = RouteRegistry.standard.node(for: route) else { return nil }
        let state = parts.count > 1 ? parts[1] : nil
        if let state, node.preview(named: state) == nil { return nil }
        self.route = route
        self.state = state
    }
}
