import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore
import ListenUpTestSupport
import Logging
import XCTest
@testable import ListenUpUI

/// What a stand-in Background portal heard (a double inside this unit test:
/// xdg-desktop-portal itself needs a desktop session).
private let heard = LockedValue<[String]>([])

/// The Background portal's client on a private bus: with a portal there, it
/// asks once and says the book and chapter; with none, it gives up quietly.
final class BackgroundPortalTests: XCTestCase {
    private static let quiet = Logger(label: "portal-test", factory: { _ in SwiftLogNoOpLogHandler() })

    private static func connect(_ bus: PrivateBus) throws -> OpaquePointer {
        let flags = GDBusConnectionFlags(rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                                         | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_dbus_connection_new_for_address_sync(bus.address, flags, nil, nil, &error) else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown"
            if let error { g_error_free(error) }
            throw XCTSkip("no connection to the private bus: \(message)")
        }
        return connection
    }

    /// Serves `org.freedesktop.portal.Background` on `connection` under the
    /// portal's name; every call lands in ``heard``.
    @MainActor
    private static func servePortal(on connection: OpaquePointer) throws {
        let xml = """
        <node><interface name="org.freedesktop.portal.Background">
          <method name="RequestBackground"><arg type="s" direction="in"/><arg type="a{sv}" direction="in"/><arg type="o" direction="out"/></method>
          <method name="SetStatus"><arg type="a{sv}" direction="in"/></method>
        </interface></node>
        """
        var error: UnsafeMutablePointer<GError>?
        let node = try XCTUnwrap(g_dbus_node_info_new_for_xml(xml, &error))
        defer { g_dbus_node_info_unref(node) }
        var vtable = GDBusInterfaceVTable()
        vtable.method_call = { _, _, _, _, method, parameters, invocation, _ in
            guard let method, let parameters, let invocation else { return }
            let text = g_variant_print(parameters, 0).map { String(cString: $0) } ?? ""
            heard.withLock { $0.append("\(String(cString: method)) \(text)") }
            if String(cString: method) == "RequestBackground" {
                var reply: [OpaquePointer?] = [g_variant_new_object_path("/org/freedesktop/portal/desktop/request/1_1/listenup_background")]
                g_dbus_method_invocation_return_value(invocation, reply.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 1) })
            } else {
                g_dbus_method_invocation_return_value(invocation, nil)
            }
        }
        let interface = try XCTUnwrap(node.pointee.interfaces?[0])
        XCTAssertNotEqual(g_dbus_connection_register_object(connection, BackgroundPortal.objectPath, interface, &vtable, nil, nil, &error), 0)
        g_bus_own_name_on_connection(connection, BackgroundPortal.busName, G_BUS_NAME_OWNER_FLAGS_NONE, nil, nil, nil, nil)
        XCTAssertTrue(MainContext.iterate(until: { owner(of: BackgroundPortal.busName, on: connection) }, timeout: .seconds(5)))
    }

    private static func owner(of name: String, on connection: OpaquePointer) -> Bool {
        var parameters: [OpaquePointer?] = [g_variant_new_string(name)]
        let tuple = parameters.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 1) }
        guard let reply = g_dbus_connection_call_sync(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                      "NameHasOwner", tuple, nil, G_DBUS_CALL_FLAGS_NONE, 1_000, nil, nil) else { return false }
        defer { g_variant_unref(reply) }
        guard let value = g_variant_get_child_value(reply, 0) else { return false }
        defer { g_variant_unref(value) }
        return g_variant_get_boolean(value) != 0
    }

    func testAPortalIsAskedOnceAndToldTheBookAndChapter() throws {
        try MainActor.assumeIsolated {
            let bus = try PrivateBus(serviceDirectories: [])
            let portalSide = try Self.connect(bus)
            defer { g_object_unref(gpointer(portalSide)) }
            try Self.servePortal(on: portalSide)
            heard.value = []
            let appSide = try Self.connect(bus)
            defer { g_object_unref(gpointer(appSide)) }
            let portal = BackgroundPortal(connection: appSide, logger: Self.quiet)

            portal.requestBackground(reason: "Keeps playing")
            portal.requestBackground(reason: "Keeps playing")
            XCTAssertTrue(MainContext.iterate(until: { heard.value.count == 1 }, timeout: .seconds(5)), "\(heard.value)")
            let request = try XCTUnwrap(heard.value.first)
            XCTAssertTrue(request.hasPrefix("RequestBackground ('', {"), request)
            XCTAssertTrue(request.contains("'reason': <'Keeps playing'>") && request.contains("'autostart': <false>"), request)

            portal.setStatus(BackgroundPolicy.statusLine(title: "Piranesi", chapter: "Part 2"))
            portal.setStatus(BackgroundPolicy.statusLine(title: "Piranesi", chapter: "Part 2"))
            portal.setStatus(BackgroundPolicy.statusLine(title: "Piranesi", chapter: "Part 3"))
            XCTAssertTrue(MainContext.iterate(until: { heard.value.count == 3 }, timeout: .seconds(5)), "\(heard.value)")
            MainContext.iterate(until: { false }, timeout: .milliseconds(200))
            XCTAssertEqual(heard.value.dropFirst(), ["SetStatus ({'message': <'Piranesi — Part 2'>},)", "SetStatus ({'message': <'Piranesi — Part 3'>},)"],
                           "the same status is not sent twice")
            XCTAssertFalse(portal.gaveUp)
        }
    }

    func testWithNoPortalNothingBreaksAndItIsNotAskedAgain() throws {
        try MainActor.assumeIsolated {
            let bus = try PrivateBus(serviceDirectories: [])
            let appSide = try Self.connect(bus)
            defer { g_object_unref(gpointer(appSide)) }
            let portal = BackgroundPortal(connection: appSide, logger: Self.quiet)
            portal.requestBackground(reason: "Keeps playing")
            XCTAssertTrue(MainContext.iterate(until: { portal.gaveUp }, timeout: .seconds(5)), "the missing portal's error arrives")
            portal.setStatus("Piranesi")
            XCTAssertTrue(portal.gaveUp)
        }
    }
}
