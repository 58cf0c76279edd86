import Foundation
import Logging
import ListenUpAPI
import Pairing

extension PairingClient {
    /// A client for a host that could not be built: opening reports `message`.
    public static func unavailable(_ message: String) -> PairingClient {
        PairingClient(events: { AsyncStream { $0.finish() } }, start: { throw PairingError.storage(message) }, open: {},
                      close: {}, answer: { _, _ in }, devices: { [] }, revoke: { _ in })
    }

    /// No network, nothing happens (previews put the model in a state themselves).
    public static let inert = PairingClient(events: { AsyncStream { _ in } }, start: {}, open: {}, close: {},
                                            answer: { _, _ in }, devices: { [] }, revoke: { _ in })

    /// The app's pairing: one ``PairingHost`` with its files in `dataDirectory`
    /// (`$XDG_DATA_HOME/listenup`), bound as `LISTENUP_PAIRING_BIND` says (the
    /// LAN by default), reporting `status` to paired devices.
    /// - Returns: the host (nil if it could not be built) and a client driving it.
    public static func host(dataDirectory: URL, desktopName: String, status: LockedValue<DiscoveryServer.Status>,
                            serverURL: @escaping @Sendable () -> String?, logger: Logger) -> (PairingHost?, PairingClient) {
        do {
            let host = try PairingHost(
                storage: PairingStorage(directory: dataDirectory),
                configuration: DiscoveryServer.Configuration(desktopName: desktopName, appVersion: DeviceInfo.appVersion),
                logger: logger,
                status: {
                    var current = status.value
                    if current.serverURL == nil { current.serverURL = serverURL() }
                    return current
                })
            return (host, .live(host))
        } catch {
            logger.error("Pairing is unavailable", metadata: ["error": "\(error)"])
            return (nil, .unavailable(String(describing: error)))
        }
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
