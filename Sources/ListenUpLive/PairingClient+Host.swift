import Foundation
import ListenUpCore
import Logging
import ListenUpAPI
import Pairing

extension PairingClient {
    /// Drives `server` (built once in the composition root; stop it at quit).
    public static func live(_ server: DiscoveryServer) -> PairingClient {
        live(building: { server }, built: { server })
    }

    /// Drives a server made on first use (the app's `PairingClient.host(…)`).
    ///
    /// Closing and answering never build it: with no server there is nothing
    /// to close or answer. While it cannot be built, the events end at once,
    /// there are no devices, and starting or opening throws the reason.
    /// - Parameters:
    ///   - server: the server, built if it is not yet; throws if it cannot be.
    ///   - built: the server if it has been built, else nil.
    public static func live(building server: @escaping @Sendable () throws -> DiscoveryServer,
                            built: @escaping @Sendable () -> DiscoveryServer?) -> PairingClient {
        PairingClient(events: { (try? server())?.events() ?? AsyncStream { $0.finish() } },
                      start: { try await server().start() }, open: { try server().openPairing() },
                      close: { built()?.closePairing() }, answer: { built()?.answer($0, accept: $1) },
                      devices: { (try? server())?.devices ?? [] }, revoke: { try server().revoke(deviceID: $0) })
    }

    /// The app's pairing: one ``DiscoveryServer`` with its files in `dataDirectory`
    /// (`$XDG_DATA_HOME/listenup`), bound as `LISTENUP_PAIRING_BIND` says (the
    /// LAN by default), reporting `status` to paired devices and letting them
    /// see and drive `remotePlayer`.
    ///
    /// The server is built on first use (the pairing screen opening, or
    /// ``PairingClient/resume`` after launch when devices are paired), once,
    /// so a start-up that never pairs creates no TLS identity and touches no
    /// files. It listens on the port of the last run when that is free, so
    /// paired devices find the desktop where they left it.
    /// If building fails, opening reports it and the next opening tries again.
    public static func host(dataDirectory: URL, desktopName: String, status: LockedValue<DiscoveryServer.Status>,
                            remotePlayer: (any RemotePlayer)? = nil, logger: Logger) -> PairingClient {
        let made = LockedValue<DiscoveryServer?>(nil)
        let storage = PairingStorage(directory: dataDirectory)
        let server: @Sendable () throws -> DiscoveryServer = {
            try made.withLock { cached in
                if let cached { return cached }
                do {
                    var configuration = DiscoveryServer.Configuration(desktopName: desktopName, appVersion: ClientDevice.appVersion)
                    // Where paired devices last found this desktop.
                    configuration.preferredPort = (try? storage.read(portFile)).flatMap { Int(String(decoding: $0, as: UTF8.self)) }
                    let server = try DiscoveryServer(
                        storage: storage,
                        configuration: configuration,
                        logger: logger,
                        remotePlayer: remotePlayer,
                        status: { status.value })
                    cached = server
                    return server
                } catch {
                    logger.error("Pairing is unavailable", metadata: ["error": "\(error)"])
                    throw error
                }
            }
        }
        var client = PairingClient.live(building: server, built: { made.value })
        client.start = {
            let port = try await server().start()
            try? storage.write(Data(String(port).utf8), to: portFile)
        }
        client.resume = { [start = client.start] in
            guard PairedDeviceStore.hasLiveDevices(in: storage) else { return }
            do {
                try await start()
            } catch {
                logger.warning("Paired devices cannot reach this desktop", metadata: ["reason": "\(error)"])
            }
        }
        return client
    }

    /// The port of the last run (`$XDG_DATA_HOME/listenup/pairing-port`).
    private static let portFile = "pairing-port"

    /// What companions see as this desktop's name: the machine's host name,
    /// else the user's real name (GECOS), else "ListenUp Desktop".
    public static func desktopName(hostName: String = ProcessInfo.processInfo.hostName) -> String {
        let host = hostName.split(separator: ".").first.map(String.init) ?? ""
        if !host.isEmpty, host != "localhost" { return PairingURI.displayName(host) }
        if let entry = getpwuid(getuid()), let gecos = entry.pointee.pw_gecos {
            let real = String(cString: gecos).split(separator: ",", omittingEmptySubsequences: false).first.map(String.init) ?? ""
            if !real.isEmpty { return PairingURI.displayName(real) }
        }
        return "ListenUp Desktop"
    }
}
