import Dispatch
import Foundation
@testable import ListenUpCore

/// The in-memory cache, counting whole reads (`listedBooks()`) and reads of
/// one book (`book(id:)`), and, when given a gate, holding every whole read
/// until the test opens it.
final class InstrumentedLibraryStore: ForwardingLibraryStore {
    let memory = InMemoryLibraryStore()
    var base: any LibraryStore { memory }
    let wholeReads = LockedValue(0)
    let bookReads = LockedValue(0)
    /// Whole reads wait for a signal (for at most 30 s: a test that fails
    /// first does not hold its thread for ever).
    let wholeReadGate: DispatchSemaphore?

    init(holdingWholeReads: Bool = false) {
        wholeReadGate = holdingWholeReads ? DispatchSemaphore(value: 0) : nil
    }

    /// Lets held whole reads go on, and every later one.
    func openWholeReads() {
        for _ in 0..<100 { wholeReadGate?.signal() }
    }

    func listedBooks() throws -> [CachedBook] {
        wholeReads.withLock { $0 += 1 }
        _ = wholeReadGate?.wait(timeout: .now() + 30)
        return try base.listedBooks()
    }
    func book(id: String) throws -> CachedBook? {
        bookReads.withLock { $0 += 1 }
        return try base.book(id: id)
    }
}
