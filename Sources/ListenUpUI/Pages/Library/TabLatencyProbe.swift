import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore
import Logging

/// Debug log of a tab switch's latency: from the key press or click that
/// switched the library's tab (its event time; the switch itself when it
/// had none) to the first painted frame showing the new tab's content
/// (a list read and shown; Home and the books show what is cached at
/// once), for `bench/library`.
/// Installs nothing unless the logger's level is `debug` or finer.
@MainActor
final class TabLatencyProbe {
    private let logger: Logger
    private let tabs: Widget
    /// Whether the tab shown now shows its content.
    private let isReady: @MainActor () -> Bool
    /// When the tab last switched, while its content is not yet on screen.
    private var switchedAt: ContinuousClock.Instant?
    /// When the input being handled happened.
    private var inputAt: ContinuousClock.Instant?
    private var connections: [SignalConnection] = []

    init(page: UnsafeMutablePointer<GtkWidget>, tabs: Widget, logger: Logger, isReady: @escaping @MainActor () -> Bool) {
        self.logger = logger
        self.tabs = tabs
        self.isReady = isReady
        guard logger.logLevel <= .debug else { return }
        let keys: OpaquePointer = newObject(gtk_event_controller_key_new())
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        gtk_widget_add_controller(page, keys)
        connections.append(keys.connect(.keyPressed) { [weak self] press in
            self?.inputAt = KeyPressTime.instant(ofEventTime: gtk_event_controller_get_current_event_time(press.controller))
            return false // observed only
        })
        connections.append(tabs.connect(.notify("visible-child-name")) { [weak self] in
            guard let self else { return }
            self.switchedAt = self.inputAt ?? .now
            self.inputAt = nil
            self.check()
        })
    }

    /// Logs, after the next painted frame, how long the last switch took to
    /// show, once the tab shows its content; call after each render.
    func check() {
        guard let switched = switchedAt, isReady() else { return }
        switchedAt = nil
        let name = adw_view_stack_get_visible_child_name(tabs.opaque).map { String(cString: $0) } ?? ""
        FramePaint.afterNext(of: tabs.pointer) { [logger] in
            let ms = (ContinuousClock.now - switched).milliseconds
            logger.debug("Tab shown", metadata: ["ms": "\((ms * 10).rounded() / 10)", "tab": "\(name)"])
        }
    }
}
