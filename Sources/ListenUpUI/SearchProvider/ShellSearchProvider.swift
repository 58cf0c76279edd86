import CAdwaita
import Foundation
import GObjectOwnership
import ListenUpCore
import Logging

/// GNOME Shell's search provider (`org.gnome.Shell.SearchProvider2`) at
/// ``objectPath``, answered by the running app itself from its library
/// cache (``DesktopSearch``): the Shell finds the app by its bus name
/// (`io.github.listenup.Desktop`, the application id), which D-Bus
/// activation starts with `--gapplication-service` when nothing runs, so a
/// second instance never starts.
///
/// The object lives on the session bus connection GApplication registers
/// the application on (GLib's shared session connection): exported before
/// `g_application_run` registers, so a call the bus queued for the name
/// while the app started finds it there as soon as the name is owned.
/// Calls arrive on the main context, one GDBus invocation each; every call
/// holds the application until it is answered (a service instance quits
/// after its inactivity timeout once nothing holds it). Signed out, still
/// loading or no cache: empty answers, never an error.
///
/// Main thread only.
@MainActor
final class ShellSearchProvider {
    static let objectPath = "/io/github/listenup/Desktop/SearchProvider"
    static let interfaceName = "org.gnome.Shell.SearchProvider2"

    /// How long a service instance lingers after its last call (or its
    /// window closed): `LISTENUP_SERVICE_TIMEOUT_MS` in tests.
    static func serviceTimeout(environment: [String: String]) -> guint {
        environment["LISTENUP_SERVICE_TIMEOUT_MS"].flatMap { guint($0) } ?? 30_000
    }

    private let search: DesktopSearch
    private let application: UnsafeMutablePointer<GApplication>
    private let logger: Logger
    private var connection: OwnedReference<OpaquePointer>?
    private var node: UnsafeMutablePointer<GDBusNodeInfo>?
    private var registration: guint = 0

    init(search: DesktopSearch, application: UnsafeMutablePointer<GApplication>, logger: Logger) {
        self.search = search
        self.application = application
        self.logger = logger
    }

    /// Exports a provider for `navigator`'s library on the session bus, for
    /// `application` (not yet registered); nil without a session bus.
    /// - Parameter service: started by D-Bus activation
    ///   (`--gapplication-service`): the application quits once nothing
    ///   holds it for ``serviceTimeout(environment:)``.
    static func exported(for application: UnsafeMutablePointer<GApplication>, navigator: AppNavigator, service: Bool,
                         logger: Logger) -> ShellSearchProvider? {
        if service {
            g_application_set_inactivity_timeout(application, serviceTimeout(environment: ProcessInfo.processInfo.environment))
        }
        var error: UnsafeMutablePointer<GError>?
        // GLib's shared session connection: the one GApplication registers on.
        guard let bus = OwnedReference(taking: g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error)) else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown"
            if let error { g_error_free(error) }
            logger.debug("No session bus: no search provider for the desktop", metadata: ["reason": "\(reason)"])
            return nil
        }
        let provider = ShellSearchProvider(search: DesktopSearch(navigator: navigator, logger: logger), application: application,
                                           logger: logger)
        return provider.export(on: bus) ? provider : nil
    }

    /// Registers the object on `bus`.
    /// - Returns: false when GDBus refused (logged).
    func export(on bus: OwnedReference<OpaquePointer>) -> Bool {
        var error: UnsafeMutablePointer<GError>?
        guard let node = g_dbus_node_info_new_for_xml(Self.introspection, &error), let interface = node.pointee.interfaces?[0] else {
            if let error { g_error_free(error) }
            logger.error("The search provider's interface description is invalid")
            return false
        }
        var vtable = GDBusInterfaceVTable()
        vtable.method_call = { _, _, _, _, method, parameters, invocation, context in
            guard let method, let invocation else { return }
            MainActor.assumeIsolated {
                guard let provider = CallbackContext.target(of: context, as: ShellSearchProvider.self) else {
                    g_dbus_method_invocation_return_value(invocation, nil)
                    return
                }
                provider.call(String(cString: method), parameters, invocation)
            }
        }
        // GDBus copies the vtable and releases the context when the object
        // is unregistered (or when registering fails).
        let id = g_dbus_connection_register_object(bus.pointer, Self.objectPath, interface, &vtable, CallbackContext.retained(self),
                                                   CallbackContext.destroyNotify, &error)
        guard id != 0 else {
            logger.warning("Cannot export the search provider", metadata: ["reason": "\(error.map { String(cString: $0.pointee.message) } ?? "")"])
            if let error { g_error_free(error) }
            g_dbus_node_info_unref(node)
            return false
        }
        self.node = node
        connection = bus
        registration = id
        logger.debug("Search provider exported", metadata: ["path": "\(Self.objectPath)"])
        return true
    }

    /// Takes the object off the bus.
    func unexport() {
        if let connection, registration != 0 { g_dbus_connection_unregister_object(connection.pointer, registration) }
        registration = 0
        connection = nil
        if let node { g_dbus_node_info_unref(node) }
        node = nil
    }

    // MARK: Calls

    /// Answers one call; the application is held until the answer is sent.
    private func call(_ method: String, _ parameters: OpaquePointer?, _ invocation: OpaquePointer) {
        let started = ContinuousClock.now
        let application = application
        g_application_hold(application)
        // The invocation is answered exactly once below (GDBus hands it
        // over and frees it with the answer).
        let reply = Invocation(invocation)
        let search = search
        let logger = logger
        switch method {
        case "GetInitialResultSet":
            let terms = Variant.strings(parameters, child: 0)
            Task {
                let found = await search.results(for: terms)
                reply.send(Variant.tuple([Variant.stringArray(found)]))
                Self.logTiming(logger, method, terms: terms, count: found.count, since: started)
                g_application_release(application)
            }
        case "GetSubsearchResultSet":
            let previous = Variant.strings(parameters, child: 0)
            let terms = Variant.strings(parameters, child: 1)
            Task {
                let found = await search.results(for: terms, within: previous)
                reply.send(Variant.tuple([Variant.stringArray(found)]))
                Self.logTiming(logger, method, terms: terms, count: found.count, since: started)
                g_application_release(application)
            }
        case "GetResultMetas":
            let identifiers = Variant.strings(parameters, child: 0)
            Task {
                let shown = await search.shown(identifiers)
                reply.send(Variant.tuple([ShellVariant.metas(shown)]))
                Self.logTiming(logger, method, terms: identifiers, count: shown.count, since: started)
                g_application_release(application)
            }
        case "ActivateResult":
            let identifier = Variant.string(parameters, child: 0)
            Task {
                let opened = await search.open(identifier)
                logger.debug("Desktop search opened id=\(identifier) shown=\(opened)")
                // The window, made now if there was none (a service instance).
                g_application_activate(application)
                reply.send(nil)
                g_application_release(application)
            }
        case "LaunchSearch":
            let terms = Variant.strings(parameters, child: 0)
            Task {
                let searched = await search.launchSearch(terms)
                logger.debug("Desktop search launched terms=\(terms.joined(separator: " ")) searched=\(searched)")
                g_application_activate(application)
                reply.send(nil)
                g_application_release(application)
            }
        default:
            g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.UnknownMethod", "No such method")
            g_application_release(application)
        }
    }

    private static func logTiming(_ logger: Logger, _ method: String, terms: [String], count: Int, since started: ContinuousClock.Instant) {
        let milliseconds = (ContinuousClock.now - started).milliseconds
        // One line, read by build-aux/test-search-provider for its timings.
        logger.debug("Shell search answered: method=\(method) results=\(count) ms=\(String(format: "%.2f", milliseconds))",
                     metadata: ["terms": "\(terms.joined(separator: " "))"])
    }
}

/// A method invocation waiting for its answer, answered once.
///
/// Main thread only (the provider's calls arrive and are answered there).
@MainActor
private final class Invocation {
    private var invocation: OpaquePointer?

    init(_ invocation: OpaquePointer) {
        self.invocation = invocation
    }

    /// Answers with `value` (a floating tuple, or nil for no value).
    func send(_ value: OpaquePointer?) {
        guard let invocation else { return }
        self.invocation = nil
        g_dbus_method_invocation_return_value(invocation, value)
    }
}
