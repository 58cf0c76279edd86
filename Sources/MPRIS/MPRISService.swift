import CGio
import Foundation
import GObjectOwnership
import ListenUpCore
import Logging

/// MPRIS over GDBus, on a thread of its own with its own `GMainContext`.
///
/// `@unchecked Sendable`: the GDBus objects are made, used and freed on the
/// service's thread, except the connection's signal emission (GDBus
/// connections are thread-safe; an emitter holds its own reference to the
/// connection, so the thread's teardown cannot free it under it); the state
/// the thread answers from and the handles other threads touch
/// (`connection`, `loop`) are behind `lock`. GDBus reaches the service
/// through `CallbackContext`s, released by GDBus's destroy notifies.
final class MPRISService: @unchecked Sendable {
    struct Commands: Sendable {
        var send: @Sendable (PlayerModel.Intent) -> Void
        var raise: (@Sendable () -> Void)?
        var quit: @Sendable () -> Void
    }

    static let busName = "org.mpris.MediaPlayer2.io.github.listenup.Desktop"
    static let objectPath = "/org/mpris/MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"
    static let rootInterface = "org.mpris.MediaPlayer2"

    private let commands: Commands
    private let busAddress: String?
    private let logger: Logger
    private let lock = NSLock()
    private var state = MediaState()
    private var stateTaken = ContinuousClock.now
    private var connection: OwnedReference<OpaquePointer>?
    private var loop: OpaquePointer?
    private var owned: String?
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)

    init(commands: Commands, busAddress: String?, logger: Logger) {
        self.commands = commands
        self.busAddress = busAddress
        self.logger = logger
    }

    var ownedName: String? { lock.withLock { owned } }

    func start() {
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "listenup-mpris"
        self.thread = thread
        thread.start()
    }

    func stop() {
        guard thread != nil else { return }
        let loop = lock.withLock { self.loop }
        if let loop { g_main_loop_quit(loop) }
        // The thread ends once its loop does (or at once if it never ran one).
        _ = finished.wait(timeout: .now() + 2)
        thread = nil
    }

    // MARK: State (main actor → D-Bus thread)

    func update(_ new: MediaState) {
        let (old, connection) = lock.withLock { () -> (MediaState, OwnedReference<OpaquePointer>?) in
            defer {
                state = new
                stateTaken = ContinuousClock.now
            }
            return (state, self.connection)
        }
        guard let connection else { return }
        var changed: [(String, OpaquePointer?)] = []
        for name in ["PlaybackStatus", "Metadata", "Rate", "Volume", "CanGoNext", "CanGoPrevious", "CanPlay", "CanPause", "CanSeek"] {
            guard let value = Self.playerProperty(name, of: new), let before = Self.playerProperty(name, of: old) else { continue }
            if g_variant_equal(UnsafeRawPointer(value), UnsafeRawPointer(before)) == 0 {
                changed.append((name, value))
            } else {
                g_variant_unref(value)
            }
            g_variant_unref(before)
        }
        guard !changed.isEmpty else { return }
        let dictionary = Variant.dictionary(changed)
        let body = Variant.tuple([Variant.string(Self.playerInterface), dictionary, Variant.stringArray([])])
        g_dbus_connection_emit_signal(connection.pointer, nil, Self.objectPath, "org.freedesktop.DBus.Properties", "PropertiesChanged", body, nil)
    }

    func emitSeeked(_ position: Int64) {
        guard let connection = lock.withLock({ self.connection }) else { return }
        g_dbus_connection_emit_signal(connection.pointer, nil, Self.objectPath, Self.playerInterface, "Seeked",
                                      Variant.tuple([g_variant_new_int64(gint64(position))]), nil)
    }

    /// The state, with the position moved on by the time since it was taken.
    private func currentState() -> MediaState {
        lock.withLock {
            var now = state
            if now.status == .playing {
                let elapsed = (ContinuousClock.now - stateTaken).milliseconds
                now.position = min(now.length, now.position + Int64(elapsed * 1_000 * now.rate))
            }
            return now
        }
    }

    // MARK: The D-Bus thread

    private func run() {
        guard let context = g_main_context_new() else { return }
        g_main_context_push_thread_default(context)
        defer {
            g_main_context_pop_thread_default(context)
            g_main_context_unref(context)
        }
        var error: UnsafeMutablePointer<GError>?
        let made: OpaquePointer?
        if let busAddress {
            let flags = GDBusConnectionFlags(rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                                             | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
            made = g_dbus_connection_new_for_address_sync(busAddress, flags, nil, nil, &error)
        } else {
            made = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error)
        }
        // Both return a reference of their own: the connection's owner.
        guard let connection = OwnedReference(taking: made) else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown"
            if let error { g_error_free(error) }
            logger.info("No D-Bus session bus: the desktop's media controls are off", metadata: ["reason": "\(reason)"])
            return
        }
        let bus = connection.pointer
        // Until the very end (the last `defer` to run): `bus` is used after
        // `self.connection` lets its reference go.
        defer { withExtendedLifetime(connection) {} }
        guard let node = g_dbus_node_info_new_for_xml(Self.introspection, &error), let interfaces = node.pointee.interfaces else {
            if let error { g_error_free(error) }
            logger.error("The MPRIS interface description is invalid")
            return
        }
        defer { g_dbus_node_info_unref(node) }
        var vtable = GDBusInterfaceVTable()
        vtable.method_call = { _, _, _, interface, method, parameters, invocation, context in
            guard let interface, let method, let invocation, let service = CallbackContext.target(of: context, as: MPRISService.self) else { return }
            service.call(String(cString: interface), String(cString: method), parameters, invocation)
        }
        vtable.get_property = { _, _, _, interface, property, _, context in
            guard let interface, let property, let service = CallbackContext.target(of: context, as: MPRISService.self) else { return nil }
            return service.property(String(cString: interface), String(cString: property))
        }
        vtable.set_property = { _, _, _, interface, property, value, _, context in
            guard let interface, let property, let value, let service = CallbackContext.target(of: context, as: MPRISService.self) else { return 0 }
            return service.set(String(cString: interface), String(cString: property), value) ? 1 : 0
        }
        var registrations: [guint] = []
        var index = 0
        while let interface = interfaces[index] {
            // GDBus releases the context when the object is unregistered
            // (or when registering fails).
            let id = g_dbus_connection_register_object(bus, Self.objectPath, interface, &vtable, CallbackContext.retained(self),
                                                       CallbackContext.destroyNotify, &error)
            if id == 0 {
                logger.error("Cannot export MPRIS", metadata: ["reason": "\(error.map { String(cString: $0.pointee.message) } ?? "")"])
                if let error { g_error_free(error) }
                error = nil
            } else {
                registrations.append(id)
            }
            index += 1
        }
        defer { for id in registrations { g_dbus_connection_unregister_object(bus, id) } }
        guard let loop = g_main_loop_new(g_main_context_get_thread_default(), 0) else { return }
        lock.withLock {
            self.connection = connection
            self.loop = loop
        }
        let owner = own(MPRISService.busName, on: bus)
        g_main_loop_run(loop)
        lock.withLock {
            self.connection = nil
            self.loop = nil
            self.owned = nil
        }
        g_bus_unown_name(owner)
        g_main_loop_unref(loop)
        g_dbus_connection_flush_sync(bus, nil, nil)
    }

    /// Asks for `name`; when another instance has it, for
    /// `name.instance<pid>` (what the MPRIS spec asks of second instances).
    private func own(_ name: String, on bus: OpaquePointer) -> guint {
        let acquired: GBusNameAcquiredCallback = { _, name, context in
            guard let name, let service = CallbackContext.target(of: context, as: MPRISService.self) else { return }
            service.lock.withLock { service.owned = String(cString: name) }
        }
        let lost: GBusNameLostCallback = { connection, name, context in
            guard let connection, let name, let service = CallbackContext.target(of: context, as: MPRISService.self) else { return }
            let lostName = String(cString: name)
            guard lostName == MPRISService.busName else {
                service.logger.warning("MPRIS bus name lost", metadata: ["name": "\(lostName)"])
                return
            }
            let fallback = "\(MPRISService.busName).instance\(getpid())"
            service.logger.info("Another ListenUp has the media controls; this one is \(fallback)")
            service.fallbackOwner = service.own(fallback, on: connection)
        }
        // GDBus releases the context when the name is unowned.
        return g_bus_own_name_on_connection(bus, name, G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE, acquired, lost,
                                            CallbackContext.retained(self), CallbackContext.destroyNotify)
    }

    private var fallbackOwner: guint = 0 {
        didSet { if oldValue != 0 { g_bus_unown_name(oldValue) } }
    }

    // MARK: Calls (D-Bus thread)

    private func call(_ interface: String, _ method: String, _ parameters: OpaquePointer?, _ invocation: OpaquePointer) {
        let state = currentState()
        switch (interface, method) {
        case (Self.rootInterface, "Raise"): commands.raise?()
        case (Self.rootInterface, "Quit"): commands.quit()
        case (Self.playerInterface, "Play"): commands.send(.resume)
        case (Self.playerInterface, "Pause"): commands.send(.pause)
        case (Self.playerInterface, "PlayPause"): commands.send(.togglePlayPause)
        case (Self.playerInterface, "Stop"): commands.send(.stop)
        case (Self.playerInterface, "Next"): commands.send(.nextChapter)
        case (Self.playerInterface, "Previous"): commands.send(.previousChapter)
        case (Self.playerInterface, "Seek"):
            guard let parameters, state.hasTrack else { break }
            let offset = Variant.int64(parameters, child: 0)
            commands.send(.seek(max(0, (state.position + offset) / 1_000)))
        case (Self.playerInterface, "SetPosition"):
            guard let parameters, state.hasTrack else { break }
            let track = Variant.string(parameters, child: 0)
            let position = Variant.int64(parameters, child: 1)
            // The spec: ignored unless it names the current track and is in range.
            if track == Self.trackID(state), position >= 0, position <= state.length { commands.send(.seek(position / 1_000)) }
        case (Self.playerInterface, "OpenUri"):
            g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.NotSupported", "ListenUp plays books from its library")
            return
        default:
            g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.UnknownMethod", "No such method")
            return
        }
        g_dbus_method_invocation_return_value(invocation, nil)
    }

    private func property(_ interface: String, _ name: String) -> OpaquePointer? {
        let state = currentState()
        if interface == Self.rootInterface {
            switch name {
            case "CanQuit": return g_variant_new_boolean(1)
            case "CanRaise": return g_variant_new_boolean(commands.raise == nil ? 0 : 1)
            case "HasTrackList": return g_variant_new_boolean(0)
            case "Identity": return Variant.string("ListenUp")
            case "DesktopEntry": return Variant.string("io.github.listenup.Desktop")
            case "SupportedUriSchemes", "SupportedMimeTypes": return Variant.stringArray([])
            default: return nil
            }
        }
        if name == "Position" { return g_variant_new_int64(gint64(state.position)) }
        return Self.playerProperty(name, of: state)
    }

    private func set(_ interface: String, _ name: String, _ value: OpaquePointer) -> Bool {
        guard interface == Self.playerInterface else { return false }
        switch name {
        case "Rate": commands.send(.rate(g_variant_get_double(value)))
        case "Volume": commands.send(.volume(g_variant_get_double(value)))
        default: return false
        }
        return true
    }

    /// A `Player` property of `state` (a new, floating value); nil if unknown.
    static func playerProperty(_ name: String, of state: MediaState) -> OpaquePointer? {
        let track: gboolean = state.hasTrack ? 1 : 0
        switch name {
        case "PlaybackStatus": return Variant.string(state.status.rawValue)
        case "Rate": return g_variant_new_double(state.rate)
        case "MinimumRate": return g_variant_new_double(0.5)
        case "MaximumRate": return g_variant_new_double(3)
        case "Volume": return g_variant_new_double(state.volume)
        case "Position": return g_variant_new_int64(gint64(state.position))
        case "CanControl": return g_variant_new_boolean(1)
        case "CanPlay", "CanPause", "CanSeek": return g_variant_new_boolean(track)
        case "CanGoNext": return g_variant_new_boolean(state.hasTrack && (state.chapterIndex ?? 0) + 1 < state.chapterCount ? 1 : 0)
        case "CanGoPrevious": return g_variant_new_boolean(track)
        case "Metadata": return metadata(state)
        default: return nil
        }
    }

    static func trackID(_ state: MediaState) -> String {
        guard let bookID = state.bookID else { return "/org/mpris/MediaPlayer2/TrackList/NoTrack" }
        let safe = bookID.unicodeScalars.map { $0.isASCII && CharacterSet.alphanumerics.contains($0) ? String($0) : "_" }.joined()
        return "/io/github/listenup/Desktop/book/" + (safe.isEmpty ? "_" : safe)
    }

    private static func metadata(_ state: MediaState) -> OpaquePointer? {
        var entries: [(String, OpaquePointer?)] = []
        if let path = g_variant_new_object_path(trackID(state)) { entries.append(("mpris:trackid", path)) }
        if state.hasTrack {
            entries.append(("mpris:length", g_variant_new_int64(gint64(state.length))))
            entries.append(("xesam:title", Variant.string(state.title)))
            entries.append(("xesam:artist", Variant.stringArray(state.authors)))
            entries.append(("xesam:album", Variant.string(state.album)))
            if let art = state.artURL { entries.append(("mpris:artUrl", Variant.string(art.absoluteString))) }
        }
        return Variant.dictionary(entries)
    }
}
