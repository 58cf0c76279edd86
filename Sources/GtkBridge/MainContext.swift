import CAdwaita
import Foundation

/// The GLib main loop, named at every hop.
///
/// While `g_application_run` owns the main thread nothing drains libdispatch's
/// main queue, so `Task { @MainActor in … }` and `await MainActor.run` would
/// never run. ``installDispatchBridge()`` fixes that: it watches the main
/// queue's eventfd from the GLib loop and drains the queue when it fires, so
/// the loop sleeps until there is work (no polling, no busy spin).
///
/// Everything else that schedules work on the GLib side (idle callbacks,
/// timeouts) goes through this type rather than ad-hoc `g_idle_add` calls.
public enum MainContext {
    /// Connects libdispatch's main queue to the default GLib main context.
    /// Idempotent. Call on the main thread before the loop starts.
    @MainActor
    public static func installDispatchBridge() {
        guard !bridgeInstalled else { return }
        bridgeInstalled = true
        let fd = _dispatch_get_main_queue_handle_4CF()
        let callback: GUnixFDSourceFunc = { fd, _, _ in
            // Consume the eventfd's counter first, or the fd stays readable and
            // the loop spins at 100% CPU.
            var counter: UInt64 = 0
            _ = withUnsafeMutableBytes(of: &counter) { read(fd, $0.baseAddress, $0.count) }
            _dispatch_main_queue_callback_4CF(nil)
            return 1 // G_SOURCE_CONTINUE
        }
        g_unix_fd_add_full(G_PRIORITY_DEFAULT, fd, G_IO_IN, callback, nil, nil)
    }

    @MainActor private static var bridgeInstalled = false

    /// Runs `body` once, the next time the main loop is idle.
    /// - Returns: a token that cancels the call if it has not run yet.
    @MainActor @discardableResult
    public static func idle(_ body: @escaping @MainActor () -> Void) -> MainLoopSource {
        let box = ClosureBox<@MainActor () -> Bool>({ body(); return false })
        return MainLoopSource(id: g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, runBox, retain(box), releaseBoxNotify))
    }

    /// Runs `body` every `interval` (first after one interval) for as long as
    /// it returns `true`.
    /// - Returns: a token that stops the timer.
    @MainActor @discardableResult
    public static func every(_ interval: Duration, _ body: @escaping @MainActor () -> Bool) -> MainLoopSource {
        let box = ClosureBox<@MainActor () -> Bool>(body)
        let ms = guint(max(0, interval.components.seconds * 1000 + interval.components.attoseconds / 1_000_000_000_000_000))
        return MainLoopSource(id: g_timeout_add_full(G_PRIORITY_DEFAULT, ms, runBox, retain(box), releaseBoxNotify))
    }

    /// Runs `body` once after `interval`.
    @MainActor @discardableResult
    public static func timeout(after interval: Duration, _ body: @escaping @MainActor () -> Void) -> MainLoopSource {
        every(interval) { body(); return false }
    }

    /// Runs `body` on the GTK thread from any thread: at once if the caller is
    /// already on it, otherwise from the main loop's next iteration.
    ///
    /// (Not `g_main_context_invoke`: from another thread it runs the function
    /// on *that* thread whenever it can acquire the context, e.g. while the
    /// main thread is between iterations.)
    public static func invoke(_ body: @escaping @Sendable @MainActor () -> Void) {
        if Thread.isMainThread {
            MainActor.assumeIsolated { body() }
            return
        }
        let box = ClosureBox<@MainActor () -> Bool>({ body(); return false })
        g_idle_add_full(G_PRIORITY_DEFAULT, runBox, retain(box), releaseBoxNotify)
    }

    /// Iterates the default main context until `condition` holds or `timeout`
    /// passes, dispatching events and draining the main queue as it goes.
    /// Meant for tests and for one-shot tools (`--screenshot`), never for
    /// normal app code, which lives inside `g_application_run`.
    /// - Returns: whether `condition` became true.
    @MainActor @discardableResult
    public static func iterate(until condition: @MainActor () -> Bool, timeout: Duration = .seconds(5)) -> Bool {
        installDispatchBridge()
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while !condition() {
            if clock.now >= deadline { return false }
            if g_main_context_iteration(nil, 0) == 0 {
                // Nothing ready: block briefly so waiting costs no CPU.
                usleep(2_000)
            }
        }
        return true
    }

    /// Dispatches everything already pending on the default main context.
    @MainActor
    public static func drainPending() {
        installDispatchBridge()
        var guardCount = 0
        while g_main_context_pending(nil) != 0, guardCount < 10_000 {
            g_main_context_iteration(nil, 0)
            guardCount += 1
        }
    }

    private static func retain(_ box: ClosureBox<@MainActor () -> Bool>) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(box).toOpaque()
    }
}

/// A scheduled idle call or timeout. `cancel()` removes it if it has not
/// finished; cancelling twice, or after it ran, is harmless.
@MainActor
public final class MainLoopSource {
    private var id: guint

    init(id: guint) { self.id = id }

    /// Whether the source is still scheduled.
    public var isActive: Bool {
        id != 0 && g_main_context_find_source_by_id(nil, id) != nil
    }

    /// Removes the source from the main loop.
    public func cancel() {
        if isActive { g_source_remove(id) }
        id = 0
    }
}

private let runBox: GSourceFunc = { data in
    guard let data else { return 0 }
    let box = Unmanaged<ClosureBox<@MainActor () -> Bool>>.fromOpaque(data).takeUnretainedValue()
    return MainActor.assumeIsolated { box.body() } ? 1 : 0
}

private let releaseBoxNotify: GDestroyNotify = { data in
    guard let data else { return }
    Unmanaged<ClosureBox<@MainActor () -> Bool>>.fromOpaque(data).release()
}
