import CAdwaita
import GtkBridge
import XCTest

/// Emits a signal with no arguments and no return value on `instance`, the
/// way GTK itself would (`clicked`, `activate`, …).
@MainActor
func emit(_ signal: String, on instance: some GPointer) {
    let type = instance.rawPointer.assumingMemoryBound(to: GTypeInstance.self).pointee.g_class.pointee.g_type
    let id = g_signal_lookup(signal, type)
    precondition(id != 0, "no signal \(signal)")
    var value = GValue()
    g_value_init(&value, type)
    g_value_set_object(&value, instance.rawPointer)
    g_signal_emitv(&value, id, 0, nil)
    g_value_unset(&value)
}

/// Initialises GTK for a test; fails the test (it does not skip) when there
/// is no display, since `make test` always provides one.
@MainActor
func requireGtk(file: StaticString = #filePath, line: UInt = #line) -> Bool {
    guard GtkRuntime.initialize() else {
        XCTFail("No display: run the GTK tests under Xvfb (make test does)", file: file, line: line)
        return false
    }
    GtkRuntime.setAnimationsEnabled(false)
    return true
}

/// Seconds of CPU this process has used.
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1_000_000
}
