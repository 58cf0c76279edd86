import ArgumentParser
import Foundation
import ListenUpCore

/// The command line, parsed into ``LaunchOptions``, whose `launch()`
/// builds the dependencies once (`Dependencies.live`, the composition root)
/// and hands them to one of the two fronts, GTK or headless.
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
    var headless = LaunchOptions.defaults.headless

    @Option(help: ArgumentHelp("Open one screen in one state with preview data.", valueName: "ROUTE[:STATE]"))
    var preview: String?

    @Option(help: ArgumentHelp("Write the window to a PNG after the first frame, then exit.", valueName: "FILE.png"))
    var screenshot: String?

    @Flag(help: "List every ROUTE:STATE that --preview accepts, then exit.")
    var listPreviews = LaunchOptions.defaults.listPreviews

    @Option(help: ArgumentHelp("Start with this server instead of the saved one (it is checked, and saved once verified).", valueName: "URL"))
    var server: String?

    @Flag(name: .customLong("pair"), help: "Open Pair a Device at start (the QR code for a companion).")
    var openPairing = LaunchOptions.defaults.openPairing

    @Flag(name: .customLong("gapplication-service"),
          help: "Start as a D-Bus service, as the session bus does for GNOME's search: no window until one is asked for; quits when idle.")
    var gapplicationService = LaunchOptions.defaults.gapplicationService

    @Flag(name: .customLong("print-renderer"),
          help: ArgumentHelp("Print the renderer settings the app would give GTK here (NAME=value lines; none when GTK's default stands), then exit.",
                             visibility: .hidden))
    var printRenderer = LaunchOptions.defaults.printRenderer

    @Option(name: .customLong("qr-png"),
            help: ArgumentHelp("With --headless: write the pairing QR code to this PNG for each new code.", valueName: "FILE.png"))
    var qrPNG: String?

    @Argument(help: ArgumentHelp("Invite links to open (listenup://join/CODE, https://link.listenup.audio/o?t=invite…, SERVER/join/CODE); a running app opens them.",
                                 valueName: "LINK"))
    var links = LaunchOptions.defaults.links

    /// The launch the command line asks for.
    var options: LaunchOptions {
        LaunchOptions(headless: headless, preview: preview, screenshot: screenshot, listPreviews: listPreviews, server: server,
                      openPairing: openPairing, gapplicationService: gapplicationService, printRenderer: printRenderer,
                      qrPNG: qrPNG, links: links)
    }

    /// The desktop starts the app with no argument (its desktop entry's
    /// `%U` is empty unless links are opened), and that launch has nothing
    /// to parse: it takes the options' defaults, which are the command's
    /// too (its options with no value are nil). swift-argument-parser's check for a completion-script request,
    /// which it makes whatever the arguments, took 2.3 ms of a 96 ms start
    /// (docs/performance.md).
    static func main() {
        guard CommandLine.arguments.count > 1 else {
            let status = MainActor.assumeIsolated { LaunchOptions.defaults.launch() }
            if status != 0 { Foundation.exit(status) }
            return
        }
        main(nil)
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
        let options = options
        let status = MainActor.assumeIsolated { options.launch() }
        if status != 0 { throw ExitCode(status) }
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
