import CAvahi
import Foundation
import GObjectOwnership
import Logging

/// A DNS-SD service found on the local network and resolved.
public struct DiscoveredService: Equatable, Sendable {
    /// The service instance name (the server's host name, for ListenUp).
    public var serviceName: String
    /// The host's mDNS name, e.g. `nas.local`.
    public var hostName: String
    /// The address, printed (`192.168.1.20`, `fd00::2`).
    public var address: String
    public var port: Int
    public var txt: ListenUpTXTRecord

    public init(serviceName: String, hostName: String, address: String, port: Int, txt: ListenUpTXTRecord) {
        self.serviceName = serviceName
        self.hostName = hostName
        self.address = address
        self.port = port
        self.txt = txt
    }

    /// One server seen on several interfaces or protocols has one identity:
    /// its TXT `id` when it has one, else its service name.
    public var identity: String { txt.id ?? serviceName }

    /// `http://<address>:<port>` (TLS is not advertised); IPv6 in brackets.
    public var baseURL: URL? {
        let host = address.contains(":") ? "[\(address)]" : address
        return URL(string: "http://\(host):\(port)")
    }

    var isIPv4: Bool { !address.contains(":") }
}

/// What browsing reports.
public enum DiscoveryEvent: Equatable, Sendable {
    /// A service appeared (or its best address changed).
    case found(DiscoveredService)
    /// The last instance of the service with this identity went away.
    case lost(identity: String)
    /// Browsing cannot run: no avahi-daemon, no system bus, or it failed.
    case unavailable(reason: String)
}

/// Browses DNS-SD services through Avahi (avahi-client with avahi-glib): the
/// one Swift type that calls Avahi's browsing API.
///
/// Each browse runs Avahi on its own GLib main context, on its own thread,
/// so it works the same under GTK and in `--headless` (where no GLib loop
/// runs on the main thread). Events come out through an `AsyncStream`;
/// browsing stops and frees every Avahi object when the consumer stops.
public enum ServiceBrowser {
    /// Browses `type` (e.g. `_listenup._tcp`), IPv4 and IPv6, on `interface`
    /// (every interface by default; tests pass `.named("lo")`). A named
    /// interface that does not exist makes browsing `.unavailable`: it never
    /// falls back to every interface.
    public static func browse(type: String, interface: MDNSInterface = .any, logger: Logger) -> AsyncStream<DiscoveryEvent> {
        AsyncStream { continuation in
            guard let index = interface.avahiIndex else {
                continuation.yield(.unavailable(reason: "no network interface named \(interface)"))
                continuation.finish()
                return
            }
            let session = BrowseSession(type: type, interface: index, logger: logger, continuation: continuation)
            continuation.onTermination = { _ in session.stop() }
            session.start()
        }
    }
}

/// One browse: Avahi objects and the services seen so far.
///
/// `@unchecked Sendable`: everything mutable is touched only on the session's
/// own thread (Avahi callbacks, start and teardown run there); `stop()` only
/// schedules work onto that thread through the GLib context, which is
/// thread-safe. Avahi reaches the session through one `CallbackContext`
/// (client, browser and resolvers); Avahi takes no destroy notify, so
/// `close()` releases it after `avahi_client_free`, which frees the
/// browser and every resolver: no callback can come after it.
private final class BrowseSession: @unchecked Sendable {
    let type: String
    let interface: AvahiIfIndex
    let logger: Logger
    let continuation: AsyncStream<DiscoveryEvent>.Continuation
    let context: OpaquePointer
    let loop: OpaquePointer
    /// Avahi's functions, once `open()` has loaded them.
    private var avahi: ListenUpAvahi?
    private var poll: OpaquePointer?
    private var client: OpaquePointer?
    private var browser: OpaquePointer?
    /// The user data of every Avahi callback of this session.
    private var me: UnsafeMutableRawPointer?
    /// Resolved instances by (interface, protocol, name).
    private var instances: [String: DiscoveredService] = [:]
    /// What was last reported for each identity.
    private var reported: [String: DiscoveredService] = [:]
    private var unavailableReported = false

    init(type: String, interface: AvahiIfIndex, logger: Logger, continuation: AsyncStream<DiscoveryEvent>.Continuation) {
        self.type = type
        self.interface = interface
        self.logger = logger
        self.continuation = continuation
        context = g_main_context_new()
        loop = g_main_loop_new(context, 0)
    }

    deinit {
        g_main_loop_unref(loop)
        g_main_context_unref(context)
    }

    func start() {
        let thread = Thread { [self] in
            g_main_context_push_thread_default(context)
            open()
            g_main_loop_run(loop)
            close()
            g_main_context_pop_thread_default(context)
        }
        thread.name = "listenup-avahi"
        thread.start()
    }

    /// Ends the browse from any thread.
    func stop() {
        // Keeps the context (not the session) until GLib has run or dropped
        // the call; a session already gone has nothing to quit.
        g_main_context_invoke_full(context, G_PRIORITY_DEFAULT, { data in
            if let session = CallbackContext.target(of: data, as: BrowseSession.self) { g_main_loop_quit(session.loop) }
            return 0
        }, CallbackContext.retained(self), CallbackContext.destroyNotify)
    }

    private func open() {
        let avahi: ListenUpAvahi
        switch AvahiLibrary.functions() {
        case .success(let functions): avahi = functions
        case .failure(let missing):
            report(.unavailable(reason: missing.reason))
            return
        }
        self.avahi = avahi
        poll = avahi.glib_poll_new(context, G_PRIORITY_DEFAULT)
        var error: Int32 = 0
        let callbackContext = CallbackContext.retained(self)
        me = callbackContext
        client = avahi.client_new(avahi.glib_poll_get(poll), AVAHI_CLIENT_NO_FAIL, { client, state, data in
            CallbackContext.target(of: data, as: BrowseSession.self)?.clientChanged(client, state)
        }, callbackContext, &error)
        if client == nil {
            report(.unavailable(reason: avahi.message(error)))
        }
    }

    private func close() {
        defer { continuation.finish() }
        guard let avahi else { return }
        if let browser { _ = avahi.service_browser_free(browser) }
        browser = nil
        // Freeing the client frees its resolvers too.
        if let client { avahi.client_free(client) }
        client = nil
        // No callback can come now: the context is Avahi's no longer.
        CallbackContext.release(me)
        me = nil
        if let poll { avahi.glib_poll_free(poll) }
        poll = nil
    }

    private func report(_ event: DiscoveryEvent) {
        if case .unavailable = event {
            guard !unavailableReported else { return }
            unavailableReported = true
        } else {
            unavailableReported = false
        }
        continuation.yield(event)
    }

    // MARK: Avahi callbacks (session thread)

    fileprivate func clientChanged(_ client: OpaquePointer?, _ state: AvahiClientState) {
        switch state {
        case AVAHI_CLIENT_S_RUNNING:
            guard browser == nil, let client, let avahi else { return }
            browser = avahi.service_browser_new(client, interface, AvahiProtocol(AVAHI_PROTO_UNSPEC), type, nil, AvahiLookupFlags(0), {
                _, interface, proto, event, name, type, domain, _, data in
                CallbackContext.target(of: data, as: BrowseSession.self)?.browsed(interface, proto, event, name, type, domain)
            }, me)
            if browser == nil {
                report(.unavailable(reason: avahi.message(avahi.client_errno(client))))
            }
        case AVAHI_CLIENT_CONNECTING:
            // NO_FAIL: the client waits for the daemon to appear.
            forgetAll()
            report(.unavailable(reason: "avahi-daemon is not running"))
        case AVAHI_CLIENT_FAILURE:
            forgetAll()
            let reason = errorText(client) ?? "Avahi failed"
            report(.unavailable(reason: reason))
        default:
            break
        }
    }

    fileprivate func browsed(_ interface: AvahiIfIndex, _ proto: AvahiProtocol, _ event: AvahiBrowserEvent,
                             _ name: UnsafePointer<CChar>?, _ type: UnsafePointer<CChar>?, _ domain: UnsafePointer<CChar>?) {
        switch event {
        case AVAHI_BROWSER_NEW:
            guard let client, let avahi, let name, let type, let domain else { return }
            let resolver = avahi.service_resolver_new(client, interface, proto, name, type, domain, AvahiProtocol(AVAHI_PROTO_UNSPEC), AvahiLookupFlags(0), {
                resolver, interface, proto, event, name, _, _, host, address, port, txt, _, data in
                // Loaded by now (the browse that made this resolver loaded it).
                guard case .success(let avahi) = AvahiLibrary.functions() else { return }
                defer { _ = avahi.service_resolver_free(resolver) }
                guard event == AVAHI_RESOLVER_FOUND, let name, let host, let address,
                      let session = CallbackContext.target(of: data, as: BrowseSession.self) else { return }
                var printed = [CChar](repeating: 0, count: Int(AVAHI_ADDRESS_STR_MAX))
                _ = avahi.address_snprint(&printed, printed.count, address)
                var entries: [[UInt8]] = []
                var item = txt
                while let current = item {
                    let size = Int(avahi.string_list_get_size(current))
                    if let text = avahi.string_list_get_text(current) {
                        entries.append(Array(UnsafeBufferPointer(start: text, count: size)))
                    }
                    item = avahi.string_list_get_next(current)
                }
                let service = DiscoveredService(serviceName: String(cString: name), hostName: String(cString: host),
                                                address: String(decoding: printed.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
                                                port: Int(port),
                                                txt: ListenUpTXTRecord(entries: entries.reversed()))
                session.resolved(key: BrowseSession.key(interface, proto, String(cString: name)), service)
            }, me)
            if resolver == nil {
                logger.debug("Could not resolve a service", metadata: ["name": "\(String(cString: name))"])
            }
        case AVAHI_BROWSER_REMOVE:
            guard let name else { return }
            removed(key: Self.key(interface, proto, String(cString: name)))
        case AVAHI_BROWSER_FAILURE:
            forgetAll()
            let reason = errorText(client) ?? "browsing failed"
            report(.unavailable(reason: reason))
        default:
            break
        }
    }

    /// Avahi's sentence for the client's last error.
    private func errorText(_ client: OpaquePointer?) -> String? {
        guard let client, let avahi else { return nil }
        return avahi.message(avahi.client_errno(client))
    }

    fileprivate static func key(_ interface: AvahiIfIndex, _ proto: AvahiProtocol, _ name: String) -> String {
        "\(interface)/\(proto)/\(name)"
    }

    fileprivate func resolved(key: String, _ service: DiscoveredService) {
        instances[key] = service
        publish(service.identity)
    }

    private func removed(key: String) {
        guard let gone = instances.removeValue(forKey: key) else { return }
        publish(gone.identity)
    }

    /// Reports the best instance of `identity` (IPv4, then loopback-free),
    /// or its loss, if that changed.
    private func publish(_ identity: String) {
        let candidates = instances.values.filter { $0.identity == identity }
        guard let best = candidates.sorted(by: { ($0.isIPv4 ? 0 : 1, $0.address) < ($1.isIPv4 ? 0 : 1, $1.address) }).first else {
            if reported.removeValue(forKey: identity) != nil { report(.lost(identity: identity)) }
            return
        }
        guard reported[identity] != best else { return }
        reported[identity] = best
        report(.found(best))
    }

    private func forgetAll() {
        for identity in reported.keys { report(.lost(identity: identity)) }
        reported.removeAll()
        instances.removeAll()
    }
}
