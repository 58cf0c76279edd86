import Foundation
import ListenUpAPI
import ListenUpCore
import Logging
import Playback
import QRCode

extension Dependencies {
    /// The real services: the composition root's choice of every adapter.
    /// Settings in GSettings, sessions in the Secret Service (or a private
    /// file), the network through AsyncHTTPClient, the library cache in
    /// SQLite, LAN discovery through Avahi and pairing through the
    /// discovery server, kRPC servers through WebSockets, downloaded books as
    /// files fetched by their own HTTP client, with files under the XDG
    /// directories of `environment`.
    public static func live(environment: [String: String], locations: ResourceLocations = ResourceLocations(),
                            logger: Logger) -> Dependencies {
        let directories = XDGDirectories(environment: environment)
        var dependencies = Dependencies(
            settings: .live(locations: locations, legacyDirectory: XDGDirectories.app(directories.configHome), logger: logger),
            directories: directories,
            logger: logger,
            transport: .live,
            sessions: .keyring(fallback: .file(in: XDGDirectories.app(directories.stateHome), logger: logger), logger: logger),
            discovery: .avahi(interface: .fromEnvironment(environment), logger: logger),
            deviceInfo: .desktop()
        )
        dependencies.devicesRefresh = AccountSessionsModel.followInterval(environment: environment)
        let cache = XDGDirectories.app(directories.cacheHome)
        // One store per file for the whole run: the library page and the
        // player share it (two SQLite connections would contend for writes).
        let libraries = LockedValue<[URL: SQLiteLibraryStore]>([:])
        dependencies.openLibrary = { server, userID in
            let url = SQLiteLibraryStore.url(in: cache, server: server, userID: userID)
            return libraries.withLock { open in
                if let store = open[url] { return store }
                let store = SQLiteLibraryStore.open(at: url, logger: logger)
                open[url] = store
                return store
            }
        }
        let state = XDGDirectories.app(directories.stateHome)
        dependencies.openListening = { server, userID in
            SQLiteListeningStore.open(at: SQLiteListeningStore.url(in: state, server: server, userID: userID), logger: logger)
        }
        let data = XDGDirectories.app(directories.dataHome)
        let deviceID = LockedValue<String?>(nil)
        dependencies.deviceID = {
            deviceID.withLock { id in
                if let id { return id }
                let made = Dependencies.installationID(in: data.appendingPathComponent("device-id"), logger: logger)
                id = made
                return made
            }
        }
        // Covers beside the library file: `covers-<key>/` for `library-<key>.sqlite`.
        dependencies.openCoverCache = { server, userID in
            let library = SQLiteLibraryStore.url(in: cache, server: server, userID: userID)
            return CoverFolder(cache.appendingPathComponent(library.deletingPathExtension().lastPathComponent
                .replacingOccurrences(of: "library-", with: "covers-")))
        }
        // Downloads: one folder per server and user under
        // `$XDG_DATA_HOME/listenup/downloads`, named with the library file's
        // key (`<key>/` for `library-<key>.sqlite`), fetched by the download client.
        let downloads = data.appendingPathComponent("downloads", isDirectory: true)
        dependencies.openDownloads = { server, userID in
            let library = SQLiteLibraryStore.url(in: downloads, server: server, userID: userID)
            let key = String(library.deletingPathExtension().lastPathComponent.dropFirst("library-".count))
            return FileDownloadStore(root: downloads.appendingPathComponent(key, isDirectory: true))
        }
        // A removed saved server: its open library cache is dropped, then its files deleted.
        dependencies.forgetAccount = { server, userID in
            let files = AccountFiles(directories: directories, server: server, userID: userID)
            libraries.withLock { _ = $0.removeValue(forKey: files.libraryCache) }
            files.delete()
            logger.info("Deleted a removed server's files", metadata: ["server": "\(server.absoluteString)"])
        }
        dependencies.audioFileFetcher = .live(logger: logger)
        dependencies.diskSpace = .live
        // Made on first play: GStreamer is initialised then, not at start-up.
        dependencies.makePlaybackEngine = { GStreamerEngine(logger: logger) }
        // Today's Kotlin servers speak kRPC over WebSocket: recognised while
        // verifying an address, talked to through their own connection.
        dependencies.krpcServerInfo = KRPCServerProbe.live(logger: logger)
        dependencies.makeVerifier = Dependencies.liveVerifier
        dependencies.connectREST = Dependencies.restV1Connection
        dependencies.connectKRPC = Dependencies.krpcConnection
        dependencies.qrEncoder = .libqrencode
        dependencies.pairing = PairingClient.host(
            dataDirectory: XDGDirectories.app(directories.dataHome), desktopName: PairingClient.desktopName(),
            status: dependencies.pairingStatus, remotePlayer: dependencies.playerRemote, logger: logger)
        return dependencies
    }

    /// `--preview`'s services: ``Dependencies/preview(settings:logger:)``
    /// (in memory, no network) with the app's QR encoder, so the pairing
    /// previews draw their code as the app does.
    public static func appPreview(logger: Logger) -> Dependencies {
        var dependencies = Dependencies.preview(logger: logger)
        dependencies.qrEncoder = .libqrencode
        return dependencies
    }

    /// The REST v1 client (``APIClient``) to a server, over the dependencies' transport and session store.
    public static let restV1Connection: ServerConnector = { server, session, dependencies in
        APIClient(baseURL: server.url, session: session, transport: dependencies.transport, sessions: dependencies.sessions,
                  deviceInfo: DeviceInfo(dependencies.deviceInfo), logger: dependencies.logger)
    }

    /// The kRPC client (``KRPCServerConnection``) to a server, over WebSockets.
    public static let krpcConnection: ServerConnector = { server, session, dependencies in
        KRPCServerConnection(baseURL: server.url, session: session, transport: dependencies.transport,
                             sessions: dependencies.sessions, deviceInfo: DeviceInfo(dependencies.deviceInfo), logger: dependencies.logger)
    }
}
