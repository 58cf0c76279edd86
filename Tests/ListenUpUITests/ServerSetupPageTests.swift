import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore
import ListenUpLive
import ListenUpTestSupport
import XCTest
@testable import ListenUpUI

/// The real server setup page in a real window, against a real loopback
/// server: typing, Connect, the checking state, the verdict.
final class ServerSetupPageTests: XCTestCase {
    static let instance = #"{"v":1,"success":true,"data":{"id":"lib-CtCtqA_1YCrctMg6zrra6","name":"Shelf at Home","version":"","local_url":"","open_registration":false,"created_at":"2026-04-28T16:20:05.118274301Z","updated_at":"2026-05-01T08:00:12.40927716Z","setup_required":true}}"# + "\n"

    /// Starts a loopback server from synchronous test code.
    private func startServer(_ behavior: @escaping @Sendable (HostileServer.ReceivedRequest) -> HostileServer.Behavior) throws -> HostileServer {
        let result = LockedValue<Result<HostileServer, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do { result.value = .success(try await HostileServer.start(behavior: behavior)) } catch { result.value = .failure(error) }
            done.signal()
        }
        done.wait()
        return try XCTUnwrap(result.value).get()
    }

    @MainActor
    private static func makeModel(events: LockedValue<[AuthEvent]>, settings: SettingsClient = .inMemory(),
                           discovery: ServerDiscoveryClient = .fixed([])) -> ServerSetupModel {
        var dependencies = Dependencies.test(transport: .live)
        dependencies.makeVerifier = Dependencies.liveVerifier
        return ServerSetupModel(environment: .init(verifier: dependencies.verifier, discovery: discovery, settings: settings,
                                                   send: { event in events.withLock { $0.append(event) } }))
    }

    func testTypingAURLAndConnectingVerifiesTheServer() throws {
        let server = try startServer { _ in .respond(status: 200, contentType: "application/json", body: Data(Self.instance.utf8)) }
        defer { Task.detached { await server.stop() } }
        try MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let events = LockedValue<[AuthEvent]>([])
            let settings = SettingsClient.inMemory()
            let model = Self.makeModel(events: events, settings: settings)
            let page = ServerSetupPage(model: model)
            let window = TestWindow(child: page.widget, width: 700, height: 700)
            defer { page.teardown(); window.close() }

            // Empty: Connect is off, no error, no notice.
            XCTAssertEqual(gtk_widget_get_sensitive(page.connectButton.widget), 0)
            XCTAssertFalse(page.field.errorLabel.isVisible)
            XCTAssertFalse(page.noticeRow.isVisible)

            // Typing reaches the model; Enter connects.
            gtk_editable_set_text(page.field.entry.opaque, "127.0.0.1:\(server.port)")
            window.settle()
            XCTAssertEqual(model.urlText, "127.0.0.1:\(server.port)")
            XCTAssertNotEqual(gtk_widget_get_sensitive(page.connectButton.widget), 0)
            emit("activate", on: page.field.entry)

            // Checking, then verified; the app is told to move on.
            MainContext.iterate(until: { if case .verified = model.status { true } else { false } }, timeout: .seconds(10))
            let verified = try XCTUnwrap({ if case .verified(let server) = model.status { server } else { nil } }(), "\(model.status)")
            XCTAssertEqual(verified.name, "Shelf at Home")
            XCTAssertTrue(verified.setupRequired)
            window.settle()
            XCTAssertTrue(page.noticeRow.isVisible)
            XCTAssertTrue(page.noticeRow.text.contains("Shelf at Home"), page.noticeRow.text)
            XCTAssertEqual(server.requests.first?.path, "/api/v1/instance")
            XCTAssertEqual(settings.load().serverURL, "http://127.0.0.1:\(server.port)")
            XCTAssertEqual(settings.load().instanceID, "lib-CtCtqA_1YCrctMg6zrra6")
            XCTAssertEqual(events.value.last, .serverVerified(verified))
        }
    }

    func testAMalformedURLAndAnUnreachableServerShowTheirMessages() throws {
        let closed = try startServer { _ in .silent }
        let closedPort = closed.port
        let stopped = DispatchSemaphore(value: 0)
        Task.detached { await closed.stop(); stopped.signal() }
        stopped.wait()
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let events = LockedValue<[AuthEvent]>([])
            let model = Self.makeModel(events: events)
            let page = ServerSetupPage(model: model)
            let window = TestWindow(child: page.widget, width: 700, height: 700)
            defer { page.teardown(); window.close() }
            let label = { page.field.errorLabel.text }

            gtk_editable_set_text(page.field.entry.opaque, "ftp://files.example.com")
            emit("clicked", on: page.connectButton.widget)
            window.settle()
            XCTAssertEqual(label(), ServerAddressError.unsupportedScheme("ftp").userMessage)
            XCTAssertTrue(page.field.entry.hasClass(.error))
            XCTAssertEqual(gtk_widget_get_sensitive(page.connectButton.widget), 0, "the refused address cannot be re-sent")

            // Editing clears it; an unreachable server says so under the field.
            gtk_editable_set_text(page.field.entry.opaque, "127.0.0.1:\(closedPort)/")
            window.settle()
            XCTAssertFalse(page.field.entry.hasClass(.error))
            emit("clicked", on: page.connectButton.widget)
            MainContext.iterate(until: { if case .failed = model.status { true } else { false } }, timeout: .seconds(10))
            window.settle()
            XCTAssertTrue(label().contains("Couldn't reach http://127.0.0.1:\(closedPort)"), label())
            XCTAssertEqual(page.field.text, "127.0.0.1:\(closedPort)/", "the typed text stays as typed")
            XCTAssertEqual(events.value.last, .serverCheckFailed)
        }
    }

    func testLANServersAreListedAndPickingOneChecksIt() throws {
        let server = try startServer { _ in .respond(status: 200, contentType: "application/json", body: Data(Self.instance.utf8)) }
        defer { Task.detached { await server.stop() } }
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let lan = LANServer(id: "lib-CtCtqA_1YCrctMg6zrra6", name: "Shelf at Home", hostAndPort: "127.0.0.1:\(server.port)",
                                version: "1.0.0", url: server.baseURL)
            let events = LockedValue<[AuthEvent]>([])
            let model = Self.makeModel(events: events, discovery: .fixed([.found(lan)]))
            let page = ServerSetupPage(model: model)
            let window = TestWindow(child: page.widget, width: 700, height: 700)
            defer { page.teardown(); window.close() }
            MainContext.iterate(until: { !model.discovered.isEmpty }, timeout: .seconds(2))
            window.settle()
            XCTAssertEqual(page.lanRowTitles, ["Shelf at Home"])
            page.pickLANRow(at: 0)
            MainContext.iterate(until: { if case .verified = model.status { true } else { false } }, timeout: .seconds(10))
            guard case .verified = model.status else { return XCTFail("\(model.status)") }
            XCTAssertEqual(model.urlText, server.baseURL.absoluteString)
        }
    }

    func testDiscoveryUnavailableIsSaidPlainly() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let model = Self.makeModel(events: LockedValue([]), discovery: .fixed([.unavailable(reason: "avahi-daemon is not running")]))
            let page = ServerSetupPage(model: model)
            let window = TestWindow(child: page.widget, width: 700, height: 700)
            defer { page.teardown(); window.close() }
            MainContext.iterate(until: { model.discoveryStatus != .searching }, timeout: .seconds(2))
            window.settle()
            let text = page.lanStatus.text
            XCTAssertTrue(text.contains("avahi-daemon is not running"), text)
        }
    }

    func testTheSearchingSpinnerStopsWhileBrowsingGoesOn() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let model = Self.makeModel(events: LockedValue([]), discovery: ServerDiscoveryClient { AsyncStream { _ in } })
            let page = ServerSetupPage(model: model, lanSpinnerDuration: .milliseconds(300))
            // Checked before the window is shown: on a loaded machine, showing
            // it can take longer than the spinner's time.
            XCTAssertTrue(page.isLANSpinnerSpinning)
            let window = TestWindow(child: page.widget, width: 700, height: 700)
            defer { page.teardown(); window.close() }
            MainContext.iterate(until: { !page.isLANSpinnerSpinning }, timeout: .seconds(2))
            XCTAssertFalse(page.isLANSpinnerSpinning, "an endless spinner keeps the window redrawing")
            XCTAssertEqual(model.discoveryStatus, .searching)
            XCTAssertTrue(page.lanStatus.text.contains("No ListenUp servers found"))
        }
    }
}
