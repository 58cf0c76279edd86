import CAdwaita
import GtkBridge
import XCTest

private final class Tracker {}

/// GTK tests run as plain XCTest methods on the main thread (an `@MainActor`
/// XCTest method crashes on Linux), entering the main actor with
/// `assumeIsolated`.
final class SignalConnectionTests: XCTestCase {
    func testHandlerRunsWhenTheSignalIsEmitted() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let button = GObjectRef(taking: newObject(gtk_button_new()))
            var clicks = 0
            let connection = button.pointer.connect(.clicked) { clicks += 1 }
            emit("clicked", on: button.pointer)
            emit("clicked", on: button.pointer)
            XCTAssertEqual(clicks, 2)
            XCTAssertTrue(connection.isConnected)
        }
    }

    func testClosureIsReleasedWhenTheWidgetIsDestroyed() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            weak var weakTracker: Tracker?
            let window = newObject(gtk_window_new())
            var connection: SignalConnection?
            do {
                let tracker = Tracker()
                weakTracker = tracker
                let button = newObject(gtk_button_new())
                gtk_window_set_child(window.cast(to: GtkWindow.self), button)
                connection = button.connect(.clicked) { _ = tracker }
            }
            XCTAssertNotNil(weakTracker, "the handler keeps its closure alive while the widget lives")
            XCTAssertEqual(connection?.isConnected, true)
            gtk_window_destroy(window.cast(to: GtkWindow.self))
            MainContext.drainPending()
            XCTAssertNil(weakTracker, "destroying the widget must release the closure box")
            XCTAssertEqual(connection?.isConnected, false)
            connection?.disconnect() // harmless on a dead object
        }
    }

    func testDisconnectReleasesTheClosureAtOnce() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let button = GObjectRef(taking: newObject(gtk_button_new()))
            weak var weakTracker: Tracker?
            var connection: SignalConnection?
            do {
                let tracker = Tracker()
                weakTracker = tracker
                connection = button.pointer.connect(.clicked) { _ = tracker }
            }
            XCTAssertNotNil(weakTracker)
            connection?.disconnect()
            XCTAssertNil(weakTracker)
            XCTAssertEqual(connection?.isConnected, false)
            connection?.disconnect()
        }
    }

    func testNotifyHandlerSeesPropertyChanges() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let label = GObjectRef(taking: newObject(gtk_label_new("a")))
            var notified = 0
            let connection = label.pointer.connectNotify("label") { notified += 1 }
            gtk_label_set_label(label.pointer.opaque, "b")
            XCTAssertEqual(notified, 1)
            connection.disconnect()
            gtk_label_set_label(label.pointer.opaque, "c")
            XCTAssertEqual(notified, 1)
        }
    }

    func testBoolSignalReturnsTheHandlersAnswer() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let window = newObject(gtk_window_new())
            var asked = 0
            window.connectReturningBool(.closeRequest) { asked += 1; return true }
            gtk_window_present(window.cast(to: GtkWindow.self))
            MainContext.iterate(until: { gtk_widget_get_mapped(window) != 0 })
            gtk_window_close(window.cast(to: GtkWindow.self))
            MainContext.drainPending()
            XCTAssertEqual(asked, 1)
            XCTAssertNotEqual(gtk_widget_get_visible(window), 0, "a true answer keeps the window open")
            gtk_window_destroy(window.cast(to: GtkWindow.self))
        }
    }

    func testObjectRefSinksFloatingAndWeakRefSeesFinalisation() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            var ref: GObjectRef<UnsafeMutablePointer<GtkWidget>>? = GObjectRef(taking: newObject(gtk_button_new()))
            let weak = GWeakObject(ref!.pointer)
            XCTAssertEqual(g_object_is_floating(ref!.pointer.rawPointer), 0)
            XCTAssertTrue(weak.isAlive)
            ref = nil
            XCTAssertFalse(weak.isAlive)
        }
    }
}
