import Foundation
import Logging
import PairingProtocol

/// Every service the core uses, built once in the composition root and passed
/// down through initialisers. Three variants: `live` (the real app), `preview`
/// (`--preview`, design work: nothing persists, no network) and `test`.
public struct Dependencies: Sendable {
    /// Persisted settings.
    public var settings: SettingsClient
    /// Where the app keeps its files.
    public var directories: XDGDirectories
    /// Diagnostics; goes to stderr, never stdout.
    public var logger: Logger
    /// HTTP.
    public var transport: HTTPTransport
    /// Signed-in sessions, one per server (Secret Service or its file fallback).
    public var sessions: SessionStore
    /// ListenUp servers on the LAN.
    public var discovery: ServerDiscoveryClient
    /// Who this client is, told to servers at sign-in.
    public var deviceInfo: ClientDevice
    /// How long a server check may take.
    public var verificationTimeout: Duration = ServerVerifier.timeout
    /// The library cache for a server and user.
    public var openLibrary: @Sendable (_ server: URL, _ userID: String) -> any LibraryStore = { _, _ in InMemoryLibraryStore() }
    /// Where covers of a server and user are kept between runs (`nil`:
    /// memory only; the app's is a `CoverFolder` beside the library cache).
    public var openCoverCache: @Sendable (_ server: URL, _ userID: String) -> (any CoverCache)? = { _, _ in nil }
    /// What the player keeps on this device for a server and user: spans
    /// waiting to be sent, local positions, *Continue listening*.
    public var openListening: @Sendable (_ server: URL, _ userID: String) -> any ListeningStore = { _, _ in InMemoryListeningStore() }
    /// Where a server and user's downloaded books are kept
    /// (`$XDG_DATA_HOME/listenup/downloads/…` in the app).
    public var openDownloads: @Sendable (_ server: URL, _ userID: String) -> any DownloadStore = { _, _ in InMemoryDownloadStore() }
    /// Deletes what this device keeps for a server and user: the library
    /// cache, the covers, the downloads and the listening store (a removed
    /// saved server, ``AppNavigator/removeServer(id:)``). Nothing in memory.
    public var forgetAccount: @Sendable (_ server: URL, _ userID: String) async -> Void = { _, _ in }
    /// Fetches audio files to disk, continuing partial ones.
    public var audioFileFetcher: AudioFileFetcher = .offline
    /// Free space where downloads go.
    public var diskSpace: DiskSpace = .unknown
    /// Makes the audio engine, on first play (GStreamer is loaded then, not
    /// at start-up).
    public var makePlaybackEngine: @Sendable () -> any PlaybackEngine = { SilentPlaybackEngine() }
    /// This installation's id, the `device_id` of listening spans: stable
    /// across runs.
    public var deviceID: @Sendable () -> String = { "preview-device" }
    /// Waits between live-update reconnections.
    public var liveUpdatesBackoff = LibraryLiveUpdates.Backoff()
    /// How often a followed list of the account's signed-in devices is read
    /// again (``AccountSessionsModel/follow(readingNow:)``).
    public var devicesRefresh = AccountSessionsModel.followInterval
    /// How often the library runs a delta sync while it is shown (the server
    /// announces no edits).
    public var periodicSync: Duration = .seconds(15 * 60)
    /// Pairing companion devices: one `DiscoveryServer` for the whole run in
    /// the app (`PairingClient.host(dataDirectory:desktopName:status:logger:)`
    /// in `ListenUpLive`),
    /// ``PairingClient/inert`` in previews and tests unless a test sets a loopback one.
    public var pairing: PairingClient = .inert
    /// Draws the pairing QR code: libqrencode in the app (the `QRCode`
    /// module, set by the composition root, previews included);
    /// ``QRRenderer/Encoder/unavailable`` otherwise.
    public var qrEncoder: QRRenderer.Encoder = .unavailable
    /// What `GET /api/v1/status` tells paired devices; the navigator keeps it current.
    public let pairingStatus = LockedValue(DesktopStatus(activeRoute: Route.loading.rawValue))
    /// The player as paired devices see and drive it; the navigator points
    /// it at the session's player.
    public let playerRemote = PlayerRemote()
    /// The saved session's library, read while the window is built.
    public let libraryReadAhead = LibraryReadAhead()
    /// Whether a large library's first screen is read and shown before the
    /// rest (the window's front sets it); nil: the library is shown once
    /// read whole (the headless front, previews and tests).
    public var libraryFirstScreen: LibraryReadAhead.FirstScreen?
    /// Asks a kRPC server for its info while verifying an address (set by
    /// the composition root, which has WebSockets); nil: only REST v1
    /// servers are recognised.
    public var krpcServerInfo: KRPCServerInfoProbe?
    /// Makes a ``ServerConnection`` to a server, signed in with a session if given.
    public typealias ServerConnector = @Sendable (_ server: KnownServer, _ session: StoredSession?, _ dependencies: Dependencies)
        -> any ServerConnection
    /// Makes the REST v1 ``ServerConnection`` (set by the composition root,
    /// which has the client); nil: none, and every server is reached through
    /// an ``OfflineServerConnection`` (previews and unit tests have no network).
    public var connectREST: ServerConnector?
    /// Makes the kRPC ``ServerConnection`` (set by the composition root);
    /// nil: none, and a kRPC server is talked to as REST v1 (previews and
    /// tests have no kRPC).
    public var connectKRPC: ServerConnector?

    public init(settings: SettingsClient, directories: XDGDirectories, logger: Logger,
                transport: HTTPTransport, sessions: SessionStore, discovery: ServerDiscoveryClient,
                deviceInfo: ClientDevice = .desktop()) {
        self.settings = settings
        self.directories = directories
        self.logger = logger
        self.transport = transport
        self.sessions = sessions
        self.discovery = discovery
        self.deviceInfo = deviceInfo
    }

    /// Makes the verifier of server addresses: the composition root's
    /// (`Dependencies.liveVerifier` in `ListenUpLive`) asks the server over
    /// ``transport``; with none (previews, the core's tests) no address is
    /// a server.
    public var makeVerifier: (@Sendable (Dependencies) -> ServerVerifier)?

    /// Checks server addresses (``makeVerifier``'s verifier).
    public var verifier: ServerVerifier {
        makeVerifier?(self) ?? .unreachable
    }

    /// A connection to `server`, signed in with `session` if given: the
    /// ``ServerConnection`` for the protocol the server speaks
    /// (``KnownServer/generation``). This is the one place a protocol is
    /// chosen: REST v1 is ``connectREST``'s, kRPC is ``connectKRPC``'s.
    public func connect(to server: KnownServer, session: StoredSession? = nil) -> any ServerConnection {
        if server.generation == .krpc {
            if let connectKRPC { return connectKRPC(server, session, self) }
            logger.warning("No kRPC connection in this build; talking REST v1 to a kRPC server")
        }
        if let connectREST { return connectREST(server, session, self) }
        return OfflineServerConnection(baseURL: server.url, session: session, sessions: sessions)
    }

    /// Services for previews: in memory, seeded with `settings`; no network
    /// (every request fails as unreachable), no LAN servers.
    public static func preview(settings: AppSettings = AppSettings(), logger: Logger) -> Dependencies {
        var dependencies = Dependencies(
            settings: .inMemory(settings),
            directories: XDGDirectories(environment: ["HOME": NSTemporaryDirectory()]),
            logger: logger,
            transport: .offline,
            sessions: .inMemory(),
            discovery: .fixed([]),
            deviceInfo: ClientDevice(deviceType: "desktop", platform: "Linux", clientName: "ListenUp for Linux", clientVersion: ClientDevice.appVersion)
        )
        // Preferences in a preview lists the pairing screen's preview devices.
        let devices = LockedValue(PairingModel.previewDevices)
        dependencies.pairing = PairingClient(events: { AsyncStream { _ in } }, start: {}, open: {}, close: {}, answer: { _, _ in },
                                             devices: { devices.value }, revoke: { id in devices.value.removeAll { $0.id == id } })
        return dependencies
    }

    /// Services for tests: in memory, silent logger unless one is given.
    public static func test(settings: AppSettings = AppSettings(), transport: HTTPTransport = .offline,
                            sessions: SessionStore = .inMemory(), discovery: ServerDiscoveryClient = .fixed([]),
                            logger: Logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })) -> Dependencies {
        var dependencies = preview(settings: settings, logger: logger)
        dependencies.pairing = .inert
        dependencies.transport = transport
        dependencies.sessions = sessions
        dependencies.discovery = discovery
        return dependencies
    }
}

extension HTTPTransport {
    /// No network: every request fails as unreachable (previews, unit tests).
    public static let offline = HTTPTransport { _, _, _ in throw TransportError.unreachable("offline") }
}
