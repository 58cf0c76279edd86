import CAdwaita
import GtkBridge
import XCTest

final class MainContextTests: XCTestCase {
    /// `Task { @MainActor }` and `await` inside a task must run while
    /// `g_application_run` owns the main thread.
    func testMainActorTaskRunsInsideApplicationRun() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            MainContext.installDispatchBridge()
            let app = newObject(adw_application_new("io.github.listenup.Desktop.TaskTest", G_APPLICATION_NON_UNIQUE))
            var steps: [String] = []
            var timedOut = false
            let activation = app.connect(.activate) {
                g_application_hold(app.cast(to: GApplication.self))
                Task { @MainActor in
                    steps.append("task")
                    try? await Task.sleep(for: .milliseconds(30))
                    steps.append("after await")
                    await MainActor.run { steps.append("MainActor.run") }
                    g_application_quit(app.cast(to: GApplication.self))
                }
            }
            let watchdog = MainContext.timeout(after: .seconds(5)) {
                timedOut = true
                g_application_quit(app.cast(to: GApplication.self))
            }
            var argv: [UnsafeMutablePointer<CChar>?] = [strdup("test"), nil]
            let status = g_application_run(app.cast(to: GApplication.self), 1, &argv)
            activation.disconnect() // the handler stays connected until here
            free(argv[0])
            watchdog.cancel()
            g_object_unref(app)
            XCTAssertEqual(status, 0)
            XCTAssertFalse(timedOut, "the task never ran: the main queue is not drained")
            XCTAssertEqual(steps, ["task", "after await", "MainActor.run"])
        }
    }

    /// With nothing to do, the loop sleeps: no busy spin.
    func testIdleLoopDoesNotSpin() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            MainContext.installDispatchBridge()
            let app = newObject(adw_application_new("io.github.listenup.Desktop.IdleTest", G_APPLICATION_NON_UNIQUE))
            var cpu = 0.0
            let activation = app.connect(.activate) {
                g_application_hold(app.cast(to: GApplication.self))
                Task { @MainActor in } // wake the bridge once
                let start = processCPUSeconds()
                MainContext.timeout(after: .seconds(1)) {
                    cpu = processCPUSeconds() - start
                    g_application_quit(app.cast(to: GApplication.self))
                }
            }
            var argv: [UnsafeMutablePointer<CChar>?] = [strdup("test"), nil]
            _ = g_application_run(app.cast(to: GApplication.self), 1, &argv)
            activation.disconnect() // the handler stays connected until here
            free(argv[0])
            g_object_unref(app)
            XCTAssertLessThan(cpu, 0.3, "an idle second cost \(cpu) s of CPU: the loop is spinning")
        }
    }

    func testIdleAndTimeoutRunAndCanBeCancelled() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            var order: [String] = []
            MainContext.idle { order.append("idle") }
            let cancelled = MainContext.idle { order.append("cancelled") }
            cancelled.cancel()
            var ticks = 0
            let repeating = MainContext.every(.milliseconds(5)) { ticks += 1; return ticks < 3 }
            XCTAssertTrue(repeating.isActive)
            XCTAssertTrue(MainContext.iterate(until: { ticks == 3 && order.count == 1 }, timeout: .seconds(5)))
            XCTAssertEqual(order, ["idle"])
            MainContext.drainPending()
            XCTAssertFalse(repeating.isActive)
            repeating.cancel()
        }
    }

    func testInvokeFromAnotherThreadRunsOnTheMainThread() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            final class Result: @unchecked Sendable { // written on the main thread only
                var ranOnMain = false
                var done = false
            }
            let result = Result()
            Thread.detachNewThread {
                MainContext.invoke {
                    result.ranOnMain = Thread.isMainThread
                    result.done = true
                }
            }
            XCTAssertTrue(MainContext.iterate(until: { result.done }, timeout: .seconds(5)))
            XCTAssertTrue(result.ranOnMain)
        }
    }
}
