import Foundation
import ListenUpAPI
import Logging

extension Dependencies {
    /// The real services: settings and sessions under the XDG directories of
    /// `environment`, the network, LAN discovery.
    public static func live(environment: [String: String], locations: ResourceLocations = ResourceLocations(),
                            logger: Logger) -> Dependencies {
        let directories = XDGDirectories(environment: environment)
        var dependencies = Dependencies(
            settings: .live(locations: locations, legacyDirectory: XDGDirectories.app(directories.configHome), logger: logger),
            directories: directories,
            logger: logger,
            transport: .live,
            sessions: .keyring(fallback: .file(in: XDGDirectories.app(directories.stateHome), logger: logger), logger: logger),
            discovery: .avahi(logger: logger),
            deviceInfo: .desktop()
        )
        let cache = XDGDirectories.app(directories.cacheHome)
        dependencies.openLibrary = { server, userID in
            LibraryStore.open(at: LibraryStore.url(in: cache, server: server, userID: userID), logger: logger)
        }
        dependencies.coverDirectory = { server, userID in
            CoverLoader.directory(in: cache, server: server, userID: userID)
        }
        dependencies.pairing = PairingClient.host(
            dataDirectory: XDGDirectories.app(directories.dataHome), desktopName: PairingClient.desktopName(),
            status: dependencies.pairingStatus, logger: logger)
        return dependencies
    }
}
