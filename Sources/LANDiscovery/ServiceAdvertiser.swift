import CAvahi
import Foundation
import GObjectOwnership
import Logging

/// Announces one DNS-SD service through Avahi (an entry group), renaming it
/// on a name collision. Used by the demo server. Runs on its own GLib
/// context and thread, like ``ServiceBrowser``.
///
/// `@unchecked Sendable`: the Avahi objects and `name` are touched only on the
/// advertiser's thread; `stop()` only schedules work onto it through the
/// (thread-safe) GLib context. Avahi reaches the advertiser through a
/// `CallbackContext`; Avahi takes no destroy notify, so the thread releases
/// it after `avahi_client_free`, past which no callback of the client or
/// its entry group can come.
public final class ServiceAdvertiser: @unchecked Sendable {
    private var name: String
    private let type: String
    private let port: UInt16
    private let txt: [String]
    private let interfaceIndex: Int32?
    private let logger: Logger
    private let context: OpaquePointer
    private let loop: OpaquePointer
    /// Avahi's functions, once the thread has loaded them.
    private var avahi: ListenUpAvahi?
    private var poll: OpaquePointer?
    private var client: OpaquePointer?
    private var group: OpaquePointer?
    /// The user data of Avahi's callbacks (the client's, the group's).
    private var callbackContext: UnsafeMutableRawPointer?

    /// - Parameters:
    ///   - name: the service instance name.
    ///   - type: e.g. `_listenup._tcp`.
    ///   - txt: `key=value` entries, in order.
    ///   - interfaceIndex: announce on this interface only (e.g. `if_nametoindex("lo")`
    ///     for a server bound to loopback); nil for every interface Avahi serves.
    public init(name: String, type: String, port: Int, txt: [String], interfaceIndex: Int32? = nil, logger: Logger) {
        self.name = name
        self.type = type
        self.port = UInt16(clamping: port)
        self.txt = txt
        self.interfaceIndex = interfaceIndex
        self.logger = logger
        context = g_main_context_new()
        loop = g_main_loop_new(context, 0)
    }

    /// Announces on `interface` only (tests: `.named("lo")`). When a named
    /// interface does not exist, ``start()`` announces nothing rather than
    /// announcing on every interface.
    public convenience init(name: String, type: String, port: Int, txt: [String], interface: MDNSInterface, logger: Logger) {
        self.init(name: name, type: type, port: port, txt: txt, interfaceIndex: interface.index, logger: logger)
        missingInterface = interface.avahiIndex == nil ? interface : nil
    }

    /// Set when the interface asked for does not exist: nothing is announced.
    private var missingInterface: MDNSInterface?

    deinit {
        g_main_loop_unref(loop)
        g_main_context_unref(context)
    }

    /// Starts announcing (waits for avahi-daemon if it is not there yet).
    public func start() {
        if let missingInterface {
            logger.warning("Not advertising: no such network interface", metadata: ["interface": "\(missingInterface)"])
            return
        }
        let thread = Thread { [self] in
            g_main_context_push_thread_default(context)
            defer { g_main_context_pop_thread_default(context) }
            let avahi: ListenUpAvahi
            switch AvahiLibrary.functions() {
            case .success(let functions): avahi = functions
            case .failure(let missing):
                logger.warning("Cannot advertise on the LAN", metadata: ["reason": "\(missing.reason)"])
                return
            }
            self.avahi = avahi
            poll = avahi.glib_poll_new(context, G_PRIORITY_DEFAULT)
            var error: Int32 = 0
            let callbackContext = CallbackContext.retained(self)
            self.callbackContext = callbackContext
            client = avahi.client_new(avahi.glib_poll_get(poll), AVAHI_CLIENT_NO_FAIL, { client, state, data in
                CallbackContext.target(of: data, as: ServiceAdvertiser.self)?.clientChanged(client, state)
            }, callbackContext, &error)
            if client == nil { logger.warning("Cannot advertise on the LAN", metadata: ["reason": "\(avahi.message(error))"]) }
            g_main_loop_run(loop)
            if let group { _ = avahi.entry_group_free(group) }
            group = nil
            if let client { avahi.client_free(client) }
            client = nil
            // No callback can come now: the context is Avahi's no longer.
            CallbackContext.release(callbackContext)
            self.callbackContext = nil
            if let poll { avahi.glib_poll_free(poll) }
            poll = nil
        }
        thread.name = "listenup-avahi-publish"
        thread.start()
    }

    /// Withdraws the service and stops.
    public func stop() {
        // Keeps the context (not the advertiser) until GLib has run or
        // dropped the call; a loop already gone has nothing to quit.
        g_main_context_invoke_full(context, G_PRIORITY_DEFAULT, { data in
            if let advertiser = CallbackContext.target(of: data, as: ServiceAdvertiser.self) { g_main_loop_quit(advertiser.loop) }
            return 0
        }, CallbackContext.retained(self), CallbackContext.destroyNotify)
    }

    private func clientChanged(_ client: OpaquePointer?, _ state: AvahiClientState) {
        switch state {
        case AVAHI_CLIENT_S_RUNNING:
            register(client)
        case AVAHI_CLIENT_S_COLLISION, AVAHI_CLIENT_S_REGISTERING:
            if let group { _ = avahi?.entry_group_reset(group) }
        case AVAHI_CLIENT_FAILURE:
            logger.warning("Avahi failed; the service is no longer advertised")
        default:
            break
        }
    }

    private func register(_ client: OpaquePointer?) {
        guard let client, let avahi else { return }
        if group == nil {
            group = avahi.entry_group_new(client, { _, state, data in
                guard state == AVAHI_ENTRY_GROUP_COLLISION else { return }
                CallbackContext.target(of: data, as: ServiceAdvertiser.self)?.collided()
            }, callbackContext)
        }
        guard let group, avahi.entry_group_is_empty(group) != 0 else { return }
        var list: UnsafeMutablePointer<AvahiStringList>?
        for entry in txt.reversed() { list = avahi.string_list_add(list, entry) }
        defer { avahi.string_list_free(list) }
        let interface = interfaceIndex.map { AvahiIfIndex($0) } ?? AvahiIfIndex(AVAHI_IF_UNSPEC)
        let added = avahi.entry_group_add_service_strlst(group, interface, AvahiProtocol(AVAHI_PROTO_UNSPEC),
                                                         AvahiPublishFlags(0), name, type, nil, nil, port, list)
        if added == Int32(AVAHI_ERR_COLLISION) {
            collided()
            return
        }
        if added < 0 || avahi.entry_group_commit(group) < 0 {
            logger.warning("Cannot advertise on the LAN", metadata: ["reason": "\(avahi.message(added))"])
        }
    }

    private func collided() {
        guard let avahi else { return }
        if let alternative = avahi.alternative_service_name(name) {
            name = String(cString: alternative)
            avahi.free(alternative)
        }
        logger.info("Service name taken on the LAN; renamed", metadata: ["name": "\(name)"])
        if let group { _ = avahi.entry_group_reset(group) }
        register(client)
    }
}
