import CMalloc
import Logging

/// Gives memory that `malloc` keeps after a burst of work back to the system.
///
/// glibc's allocator keeps freed memory in its heaps for reuse and returns
/// only the free space at a heap's very top. Reading the library (10,000
/// rows decoded, an index built, the previous copy freed) leaves ~20 MiB of
/// free pages resident that nothing uses, pinned below live allocations.
/// `malloc_trim` hands those pages back (it takes each arena's lock, so it is
/// safe while other threads allocate). It is asked for after such bursts,
/// and runs once things have settled, off the main thread.
public enum FreedMemory {
    private static let pending = LockedValue<Task<Void, Never>?>(nil)

    /// Returns free memory to the system after `delay`; a request made
    /// before then replaces this one, so a run of bursts trims once.
    public static func release(after delay: Duration = .seconds(1), logger: Logger) {
        let trim = Task.detached(priority: .background) {
            do { try await Task.sleep(for: delay) } catch { return }
            let started = ContinuousClock.now
            let released = releaseNow()
            logger.debug("Freed memory returned to the system", metadata: [
                "released": "\(released)", "ms": "\(Int((ContinuousClock.now - started).milliseconds))",
            ])
        }
        pending.withLock { previous in
            previous?.cancel()
            previous = trim
        }
    }

    /// Returns free memory to the system now; whether any was returned.
    @discardableResult
    public static func releaseNow() -> Bool {
        malloc_trim(0) != 0
    }
}
