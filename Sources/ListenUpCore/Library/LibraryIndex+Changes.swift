import Foundation

/// One step of a change to the library in its order
/// (``LibraryIndex/change(removing:inserting:order:sort:)``): applied in
/// turn to a list in the old order (the model's books), the steps make the
/// list in the new one.
enum LibraryOrderStep: Equatable, Sendable {
    /// The book at this position goes.
    case remove(at: Int)
    /// This book comes in at this position.
    case insert(CachedBook, at: Int)
}

extension LibraryIndex {
    /// What a change did to the order: its steps, or nil when `order` was
    /// found out of step with the entries and was sorted anew (never
    /// expected; the caller then rebuilds its lists from the order).
    typealias OrderSteps = [LibraryOrderStep]?

    /// Takes the books of `ids` out and puts `books` in (their ids may be
    /// among `ids`: a book put in replaces its old entry), keeping `order`
    /// (positions in ``entries``, sorted by `sort`) sorted without sorting
    /// the library again: each book is found and placed by a binary search
    /// (``precedes(_:_:by:)`` is a total order), and a freed entry is
    /// filled with the last one. Afterwards the entries and `order` hold
    /// the books and order an index of the changed library would have
    /// (where an entry sits differs; orders do not depend on it).
    ///
    /// Cost: one pass comparing ids to find the books to take out, then
    /// per book O(log N) comparisons and a move of `order`'s integers.
    mutating func change(removing ids: Set<String>, inserting books: [CachedBook], order: inout [Int],
                         sort: LibrarySort) -> OrderSteps {
        var steps: [LibraryOrderStep] = []
        var inStep = true
        // Highest first: the entry moved into a freed place comes from
        // the end, past every place still to free.
        for position in positions(of: ids.union(books.map(\.id))).reversed() {
            if inStep, let place = place(of: position, in: order, sort: sort) {
                order.remove(at: place)
                steps.append(.remove(at: place))
            } else {
                inStep = false
            }
            let last = entries.count - 1
            if position != last {
                if inStep, let lastPlace = place(of: last, in: order, sort: sort) {
                    order[lastPlace] = position
                } else {
                    inStep = false
                }
                entries.swapAt(position, last)
            }
            entries.removeLast()
        }
        for entry in LibraryIndex(books).entries {
            entries.append(entry)
            guard inStep else { continue }
            let place = insertionPlace(of: entries.count - 1, in: order, sort: sort)
            order.insert(entries.count - 1, at: place)
            steps.append(.insert(entry.book, at: place))
        }
        guard inStep else {
            order = self.order(by: sort)
            return nil
        }
        return steps
    }

    /// The first `count` positions of ``order(by:)``, without sorting the
    /// rest: one pass, most entries compared with the last one kept alone.
    func first(_ count: Int, by sort: LibrarySort) -> [Int] {
        guard count > 0 else { return [] }
        var kept: [Int] = []
        kept.reserveCapacity(count + 1)
        for position in entries.indices {
            if kept.count == count, let last = kept.last, !Self.precedes(entries[position], entries[last], by: sort) {
                continue
            }
            var low = 0, high = kept.count
            while low < high {
                let middle = (low + high) / 2
                if Self.precedes(entries[kept[middle]], entries[position], by: sort) {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            kept.insert(position, at: low)
            if kept.count > count { kept.removeLast() }
        }
        return kept
    }

    /// The places in `order` (sorted by `sort`) of the books of `ids` that
    /// are in the index, lowest first; nil when one is not where `order`
    /// says.
    func places(of ids: Set<String>, in order: [Int], sort: LibrarySort) -> [Int]? {
        var places: [Int] = []
        for position in positions(of: ids) {
            guard let place = place(of: position, in: order, sort: sort) else { return nil }
            places.append(place)
        }
        return places.sorted()
    }

    /// The positions in ``entries`` of the books of `ids`, lowest first:
    /// one pass over the entries (a few ids are compared directly, more
    /// are looked up in the set).
    func positions(of ids: Set<String>) -> [Int] {
        guard !ids.isEmpty else { return [] }
        if ids.count <= 8 {
            let wanted = Array(ids)
            return entries.indices.filter { wanted.contains(entries[$0].book.id) }
        }
        return entries.indices.filter { ids.contains(entries[$0].book.id) }
    }

    /// Where the entry at `position` is in `order`, found by binary search;
    /// nil when it is not there.
    private func place(of position: Int, in order: [Int], sort: LibrarySort) -> Int? {
        let place = insertionPlace(of: position, in: order, sort: sort)
        return place < order.count && order[place] == position ? place : nil
    }

    /// The first place in `order` whose entry does not come before the
    /// entry at `position`.
    private func insertionPlace(of position: Int, in order: [Int], sort: LibrarySort) -> Int {
        let entry = entries[position]
        var low = 0, high = order.count
        while low < high {
            let middle = (low + high) / 2
            if Self.precedes(entries[order[middle]], entry, by: sort) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }
}
