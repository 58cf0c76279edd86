import Foundation

/// A ``ListeningStore`` in memory: previews and tests.
public final class InMemoryListeningStore: ListeningStore {
    private struct Contents {
        var spans: [ListeningSpan] = []
        var positions: [String: ListeningPosition] = [:]
        var continueListening: [ContinueListeningItem] = []
    }

    private let contents = LockedValue(Contents())

    public init() {}

    public func enqueue(_ span: ListeningSpan) throws {
        contents.withLock { $0.spans.append(span) }
    }

    public func pendingSpans(limit: Int) throws -> [ListeningSpan] {
        contents.withLock { Array($0.spans.prefix(limit)) }
    }

    public func removeSpans(_ ids: [String]) throws {
        let ids = Set(ids)
        contents.withLock { $0.spans.removeAll { ids.contains($0.id) } }
    }

    public func savePosition(_ position: ListeningPosition) throws {
        contents.withLock { $0.positions[position.bookID] = position }
    }

    public func position(bookID: String) throws -> ListeningPosition? {
        contents.withLock { $0.positions[bookID] }
    }

    public func continueListening() throws -> [ContinueListeningItem] {
        contents.withLock { $0.continueListening }
    }

    public func saveContinueListening(_ items: [ContinueListeningItem]) throws {
        contents.withLock { $0.continueListening = items }
    }
}
