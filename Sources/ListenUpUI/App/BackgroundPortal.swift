import CAdwaita
import Foundation
import GtkBridge
import Logging

/// `org.freedesktop.portal.Background` (xdg-desktop-portal): asks the
/// desktop to let the app run with no window, and tells it what the app is
/// doing meanwhile (GNOME lists background apps in Quick Settings with
/// this status line).
///
/// Sandboxed installs (Flatpak) need the permission; elsewhere the portal
/// may be missing, or refuse a status for an app outside a sandbox. Either
/// way nothing breaks: the first call that fails is logged and the portal is
/// not asked again this run.
@MainActor
final class BackgroundPortal {
    nonisolated static let busName = "org.freedesktop.portal.Desktop"
    nonisolated static let objectPath = "/org/freedesktop/portal/desktop"
    nonisolated static let interface = "org.freedesktop.portal.Background"

    /// A `GDBusConnection`, referenced.
    private let connectionReference: GObjectRef<OpaquePointer>
    private var connection: OpaquePointer { connectionReference.pointer }
    private let logger: Logger
    /// The portal did not answer, or refused: not asked again.
    private(set) var gaveUp = false
    /// Background was asked for once this run.
    private var requested = false
    /// The last status sent (not sent again).
    private var lastStatus: String?

    /// - Parameter connection: the session bus (the application's own
    ///   connection, or a test's private bus); referenced here.
    init(connection: OpaquePointer, logger: Logger) {
        connectionReference = GObjectRef(borrowing: connection)
        self.logger = logger
    }

    /// Asks to keep running with no window (once per run; no autostart).
    /// - Parameter reason: said to the user if the desktop asks them.
    func requestBackground(reason: String) {
        guard !gaveUp, !requested else { return }
        requested = true
        let options = Variant.dictionary([("reason", g_variant_new_string(reason)), ("autostart", g_variant_new_boolean(0)),
                                       ("handle_token", g_variant_new_string("listenup_background"))])
        call("RequestBackground", Variant.tuple([g_variant_new_string(""), options]))
    }

    /// The line the desktop shows for the app while it runs in the background.
    func setStatus(_ message: String) {
        guard !gaveUp, message != lastStatus else { return }
        lastStatus = message
        call("SetStatus", Variant.tuple([Variant.dictionary([("message", g_variant_new_string(message))])]))
    }

    private func call(_ method: String, _ parameters: OpaquePointer?) {
        let reply = Unmanaged.passRetained(PortalReply { [weak self] error in
            guard let self, let error else { return }
            // Not sandboxed, no portal, an older portal without SetStatus: the
            // app still plays in the background; it just is not listed.
            self.gaveUp = true
            self.logger.debug("The Background portal did not answer", metadata: ["method": "\(method)", "error": "\(error)"])
        }).toOpaque()
        g_dbus_connection_call(connection, Self.busName, Self.objectPath, Self.interface, method, parameters, nil,
                               G_DBUS_CALL_FLAGS_NO_AUTO_START, 5_000, nil, portalReplied, reply)
    }
}

/// The reply handler of one portal call; the C side holds one reference,
/// taken back in ``portalReplied``.
///
/// `@unchecked Sendable`: made on the GTK thread and called back on it (the
/// call's main context); `handler` is set once.
private final class PortalReply: @unchecked Sendable {
    let handler: @MainActor (String?) -> Void
    init(_ handler: @escaping @MainActor (String?) -> Void) { self.handler = handler }
}

/// Runs on the main context the call was made from (the GTK thread's).
private let portalReplied: GAsyncReadyCallback = { source, result, data in
    guard let data else { return }
    let reply = Unmanaged<PortalReply>.fromOpaque(data).takeRetainedValue()
    var error: UnsafeMutablePointer<GError>?
    let value = g_dbus_connection_call_finish(OpaquePointer(source), result, &error)
    if let value { g_variant_unref(value) }
    let message = error.map { String(cString: $0.pointee.message) }
    if let error { g_error_free(error) }
    MainActor.assumeIsolated { reply.handler(message) }
}
