import Foundation
import ListenUpCore
import Logging
import ListenUpAPI
import Pairing

extension PairingClient {
    /// The app's pairing: one ``DiscoveryServer`` with its files in `dataDirectory`
    /// (`$XDG_DATA_HOME/listenup`), bound as `LISTENUP_PAIRING_BIND` says (the
    /// LAN by default), reporting `status` to paired devices.
    ///
    /// The server is built on first use (the pairing screen opening), once, so a
    /// start-up that never pairs creates no TLS identity and touches no files.
    /// If building fails, opening reports it and the next opening tries again.
    public static func host(dataDirectory: URL, desktopName: String, status: LockedValue<DiscoveryServer.Status>,
                            logger: Logger) -> PairingClient {
        let made = LockedValue<DiscoveryServer?>(nil)
        let server: @Sendable () throws -> DiscoveryServer = {
            try made.withLock { cached in
                if let cached { return cached }
                do {
                    let server = try DiscoveryServer(
                        storage: PairingStorage(directory: dataDirectory),
                        configuration: DiscoveryServer.Configuration(desktopName: desktopName, appVersion: DeviceInfo.appVersion),
                        logger: logger,
                        status: { status.value })
                    cached = server
                    return server
                } catch {
                    logger.error("Pairing is unavailable", metadata: ["error": "\(error)"])
                    throw error
                }
            }
        }
        return .live(building: server, built: { made.value })
    }

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
