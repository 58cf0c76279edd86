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
            let connection = label.pointer.connect(.notify("label")) { notified += 1 }
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
            let connection = window.connect(.closeRequest) { asked += 1; return true }
            gtk_window_present(window.cast(to: GtkWindow.self))
            MainContext.iterate(until: { gtk_widget_get_mapped(window) != 0 })
            gtk_window_close(window.cast(to: GtkWindow.self))
            MainContext.drainPending()
            XCTAssertEqual(asked, 1)
            XCTAssertNotEqual(gtk_widget_get_visible(window), 0, "a true answer keeps the window open")
            connection.disconnect()
            gtk_window_destroy(window.cast(to: GtkWindow.self))
        }
    }

    func testDroppingTheTokenDisconnectsTheHandlerAndFreesItsClosure() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let button = GObjectRef(taking: newObject(gtk_button_new()))
            weak var weakTracker: Tracker?
            var connection: SignalConnection?
            var clicks = 0
            do {
                let tracker = Tracker()
                weakTracker = tracker
                connection = button.pointer.connect(.clicked) { _ = tracker; clicks += 1 }
            }
            let id = connection?.handlerID ?? 0
            XCTAssertNotEqual(g_signal_handler_is_connected(button.pointer.rawPointer, id), 0)
            connection = nil
            XCTAssertEqual(g_signal_handler_is_connected(button.pointer.rawPointer, id), 0, "a dropped token disconnects its handler")
            XCTAssertNil(weakTracker, "and GLib releases the closure box")
            emit("clicked", on: button.pointer)
            XCTAssertEqual(clicks, 0)
        }
    }

    func testAnOwnerGoingAwayDisconnectsEveryHandlerItHeld() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            /// Holds its connections as pages do, and nothing else.
            final class Owner {
                var connections: [SignalConnection] = []
            }
            let button = GObjectRef(taking: newObject(gtk_button_new()))
            let label = GObjectRef(taking: newObject(gtk_label_new("a")))
            weak var weakTracker: Tracker?
            var owner: Owner? = Owner()
            do {
                let tracker = Tracker()
                weakTracker = tracker
                owner?.connections.append(button.pointer.connect(.clicked) { _ = tracker })
                owner?.connections.append(button.pointer.connect(.notify("label")) { _ = tracker })
                owner?.connections.append(label.pointer.connect(.notify("label")) { _ = tracker })
            }
            let handlers = owner?.connections.map { ($0.handlerID, $0 === owner?.connections.last ? label.pointer.rawPointer : button.pointer.rawPointer) } ?? []
            XCTAssertEqual(handlers.count, 3)
            XCTAssertEqual(handlers.filter { g_signal_handler_is_connected($0.1, $0.0) != 0 }.count, 3)
            owner = nil
            XCTAssertEqual(handlers.filter { g_signal_handler_is_connected($0.1, $0.0) != 0 }.count, 0,
                           "an owner that goes away leaves no handler behind")
            XCTAssertNil(weakTracker, "and every closure box is freed")
        }
    }

    func testEveryDeclaredSignalMatchesGtksSignature() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let button = GObjectRef(taking: newObject(gtk_button_new()))
            let entry = GObjectRef(taking: newObject(gtk_entry_new()))
            let search = GObjectRef(taking: newObject(gtk_search_entry_new()))
            let toggle = GObjectRef(taking: newObject(gtk_toggle_button_new()))
            let listBox = GObjectRef(taking: newObject(gtk_list_box_new()))
            let adjustment = GObjectRef(taking: newObject(gtk_adjustment_new(0, 0, 1, 1, 1, 1)))
            let gridView = GObjectRef(taking: newObject(gtk_grid_view_new(nil, nil)))
            let listView = GObjectRef(taking: newObject(gtk_list_view_new(nil, nil)))
            let factory = GObjectRef(taking: newObject(gtk_signal_list_item_factory_new()))
            let keys = GObjectRef(taking: newObject(gtk_event_controller_key_new()))
            let action = GObjectRef(taking: newObject(g_simple_action_new("a", nil)))
            let provider = GObjectRef(taking: newObject(gtk_css_provider_new()))
            let application = GObjectRef(taking: newObject(adw_application_new(nil, G_APPLICATION_NON_UNIQUE)))
            let window = newObject(gtk_window_new())
            defer { gtk_window_destroy(window.cast(to: GtkWindow.self)) }
            let dialog = newObject(adw_message_dialog_new(nil, "t", "b"))
            defer { gtk_window_destroy(dialog.cast(to: GtkWindow.self)) }

            let plain: [(Signal<@MainActor () -> Void>, any GPointer)] = [
                (.clicked, button.pointer), (.changed, entry.pointer), (.changed, adjustment.pointer),
                (.activate, entry.pointer), (.activate, application.pointer), (.destroy, button.pointer),
                (.map, button.pointer), (.realize, button.pointer), (.toggled, toggle.pointer),
                (.valueChanged, adjustment.pointer), (.searchChanged, search.pointer), (.stopSearch, search.pointer),
                (.shutdown, application.pointer), (.notify("label"), button.pointer), (.actionActivate, action.pointer),
            ]
            for (signal, instance) in plain { XCTAssertTrue(signal.matches(instance), signal.name) }
            XCTAssertTrue(Signal.closeRequest.matches(window))
            XCTAssertTrue(Signal.itemActivate.matches(gridView.pointer))
            XCTAssertTrue(Signal.itemActivate.matches(listView.pointer))
            for signal in [Signal.listItemSetup, .listItemBind, .listItemUnbind, .listItemTeardown] {
                XCTAssertTrue(signal.matches(factory.pointer), signal.name)
            }
            XCTAssertTrue(Signal.rowActivated.matches(listBox.pointer))
            XCTAssertTrue(Signal.response.matches(dialog))
            XCTAssertTrue(Signal.iconPress.matches(entry.pointer))
            XCTAssertTrue(Signal.keyPressed.matches(keys.pointer))
            XCTAssertTrue(Signal.parsingError.matches(provider.pointer))
            // The same name with another signature is refused, so a page
            // cannot pair a signal with the wrong trampoline.
            XCTAssertFalse(Signal.activate.matches(action.pointer), "GSimpleAction::activate carries a parameter")
            XCTAssertFalse(Signal.actionActivate.matches(entry.pointer))
            XCTAssertFalse(Signal.itemActivate.matches(entry.pointer))
            XCTAssertFalse(Signal.clicked.matches(entry.pointer), "no such signal")
            XCTAssertFalse(Signal.closeRequest.matches(button.pointer))
        }
    }

    func testArgumentsReachTheTypedHandler() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let dialog = newObject(adw_message_dialog_new(nil, "t", "b"))
            defer { gtk_window_destroy(dialog.cast(to: GtkWindow.self)) }
            adw_message_dialog_add_response(dialog.cast(to: AdwMessageDialog.self), "pair", "Pair")
            var responses: [String] = []
            let connection = dialog.connect(.response) { responses.append($0) }
            adw_message_dialog_response(dialog.cast(to: AdwMessageDialog.self), "pair")
            XCTAssertEqual(responses, ["pair"])
            connection.disconnect()
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
