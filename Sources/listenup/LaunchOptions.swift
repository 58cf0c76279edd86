import Foundation
import GtkBridge
import ListenUpCore
import ListenUpHeadless
import ListenUpLive
import ListenUpUI
import Logging
import MPRIS

/// What a launch asks for: the command line's options as
/// ``ListenUpCommand`` parsed them, or ``defaults`` for a launch with no
/// argument (the command's options default to these).
struct LaunchOptions: Sendable {
    var headless = false
    var preview: String?
    var screenshot: String?
    var listPreviews = false
    var server: String?
    var openPairing = false
    var gapplicationService = false
    var printRenderer = false
    var qrPNG: String?
    var links: [String] = []

    /// A launch with no argument: the window, following the saved state.
    static let defaults = LaunchOptions()

    /// Follows the saved state (or `server`), with pairing open on top if asked.
    @MainActor
    private func startLive(_ navigator: AppNavigator, server: ServerAddress?) {
        navigator.start(server: server)
        if openPairing { _ = navigator.open(.pairing) }
    }

    /// Starts the front asked for and runs it.
    /// - Returns: the process's exit status.
    @MainActor
    func launch() -> Int32 {
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
