import Foundation

/// A value behind a lock, for small shared state in test and preview doubles.
///
/// `@unchecked Sendable`: every access to `storage` goes through `lock`.
public final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: Value

    public init(_ value: Value) { storage = value }

    /// The current value; reads and writes are each atomic.
    public var value: Value {
        get { lock.withLock { storage } }
        set { lock.withLock { storage = newValue } }
    }

    /// Reads and changes the value in one atomic step.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&storage) }
    }
}
