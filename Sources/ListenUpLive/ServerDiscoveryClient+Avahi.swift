import Foundation
import ListenUpCore
import LANDiscovery
import Logging

extension ServerDiscoveryClient {
    /// ListenUp servers (`_listenup._tcp`) found through Avahi on
    /// `interface` (every interface, unless `LISTENUP_MDNS_INTERFACE` names
    /// one: tests keep mDNS on `lo`). Services that announce an API other
    /// than `v1` are left out.
    public static func avahi(interface: MDNSInterface = .fromEnvironment(), logger: Logger) -> ServerDiscoveryClient {
        ServerDiscoveryClient {
            let events = ServiceBrowser.browse(type: "_listenup._tcp", interface: interface, logger: logger)
            return AsyncStream { continuation in
                let relay = Task {
                    for await event in events {
                        switch event {
                        case .found(let service):
                            guard service.txt.api == nil || service.txt.api == "v1", let url = service.baseURL else { continue }
                            continuation.yield(.found(LANServer(
                                id: service.identity, name: service.txt.name ?? service.serviceName,
                                hostAndPort: "\(service.hostName):\(service.port)", version: service.txt.version, url: url)))
                        case .lost(let identity):
                            continuation.yield(.lost(id: identity))
                        case .unavailable(let reason):
                            continuation.yield(.unavailable(reason: reason))
                        }
                    }
                    continuation.finish()
                }
                continuation.onTermination = { _ in relay.cancel() }
            }
        }
    }
}
