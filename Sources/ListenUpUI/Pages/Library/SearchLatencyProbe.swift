import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore
import Logging

/// Debug log of the search's latency: the time from a key press in the
/// search field to the first painted frame showing its results, with the
/// cells alive then and those still waiting for their book
/// (`bench/library` reads these lines). Installs nothing unless the
/// logger's level is `debug` or finer.
///
/// The latency counts from the key press itself (its event time), so a key
/// that waited behind other work is not measured as fast.
@MainActor
final class SearchLatencyProbe {
    private let logger: Logger
    /// When the search field last changed, while the result is not yet on screen.
    private var typedAt: ContinuousClock.Instant?
    /// When the key being handled was pressed.
    private var keyPressedAt: ContinuousClock.Instant?
    private var connections: [SignalConnection] = []

    /// - Parameters:
    ///   - page: the widget whose key presses are watched (capture phase).
    ///   - searchEntry: the search field.
    ///   - isEditByUser: whether the field's current change comes from the
    ///     user (not from the page writing the model's query back).
    init(page: UnsafeMutablePointer<GtkWidget>, searchEntry: UnsafeMutablePointer<GtkWidget>, logger: Logger,
         isEditByUser: @escaping @MainActor () -> Bool) {
        self.logger = logger
        guard logger.logLevel <= .debug else { return }
        let keys: OpaquePointer = newObject(gtk_event_controller_key_new())
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        gtk_widget_add_controller(page, keys)
        connections.append(keys.connect(.keyPressed) { [weak self] press in
            self?.keyPressedAt = KeyPressTime.instant(ofEventTime: gtk_event_controller_get_current_event_time(press.controller))
            return false // observed only: the key goes on to its widget
        })
        connections.append(searchEntry.connect(.changed) { [weak self] in
            guard let self, isEditByUser() else { return }
            self.typedAt = self.keyPressedAt ?? .now
            self.keyPressedAt = nil
        })
    }

    /// Logs, after the next painted frame of `widget`, how long the search
    /// typed last took to show, if the field still shows `query`.
    /// - Parameters:
    ///   - fieldText: the search field's text now.
    ///   - results: the books found.
    ///   - waiting: cells still waiting for their book.
    ///   - changed: whether the books shown changed.
    ///   - liveCells: reads the cells alive when the frame is painted.
    func searchShown(_ query: String, fieldText: String, results: Int, waiting: Int, changed: Bool,
                     in widget: UnsafeMutablePointer<GtkWidget>, liveCells: @escaping @MainActor () -> Int) {
        guard let typed = typedAt, fieldText == query else { return }
        typedAt = nil
        FramePaint.afterNext(of: widget) { [logger] in
            let ms = (ContinuousClock.now - typed).milliseconds
            logger.debug("Search shown", metadata: [
                "ms": "\((ms * 10).rounded() / 10)", "results": "\(results)", "cells": "\(liveCells())",
                "waiting": "\(waiting)", "changed": "\(changed)",
            ])
        }
    }
}

/// Key event times are the display server's milliseconds; on X11 (Xorg,
/// Xvfb) and the usual Wayland compositors that is CLOCK_MONOTONIC.
enum KeyPressTime {
    /// The instant of a key press stamped `eventTime`, or `nil` when the
    /// stamp is not on this clock (more than 10 s away from now).
    static func instant(ofEventTime eventTime: UInt32, now: ContinuousClock.Instant = .now) -> ContinuousClock.Instant? {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        let nowMS = UInt32(truncatingIfNeeded: Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000)
        let age = Int32(bitPattern: nowMS &- eventTime)
        guard (0..<10_000).contains(age) else { return nil }
        return now - .milliseconds(Int(age))
    }
}
