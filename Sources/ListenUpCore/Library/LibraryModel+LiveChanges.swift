import Foundation

/// Live changes: a book added, changed or removed on the server (or its
/// progress) costs the books it names, not the library: they alone are
/// read from the cache, then taken out of and put into the order where a
/// binary search places them, and the lists shown are edited at those
/// places (no sort or rebuild of the whole library).
extension LibraryModel {
    /// The most changed books read one by one; more are read with the whole cache.
    static let liveChangeLimit = 200

    /// The most steps (a book taken out or put in) made in place in
    /// ``books``; each moves the books after it, so more rebuild the list
    /// from the order instead. At 50,000 books (a scratch program, release
    /// build) a step moves about 35 µs of books and a rebuild takes 8–9 ms:
    /// in place stays well under a rebuild up to here.
    static let stepsInPlace = 96

    /// What a live change read from the cache.
    private struct LiveRead: Sendable {
        /// The changed books still in the cache.
        var books: [CachedBook]
        /// Every book's progress, when it changed.
        var progress: [String: BookProgress]?
    }

    /// Shows what live events changed: the changed books alone are read
    /// (off the main actor) and put in place in the books shown. Many
    /// changes at once, or a cache not read yet, are read whole.
    func applyLiveChanges(_ changes: LibraryCacheChanges) async {
        guard let store, hasLoadedCache, changes.bookCount <= Self.liveChangeLimit else {
            await loadCache()
            return
        }
        let version = cacheVersion
        let read = await Task.detached(priority: .userInitiated) {
            try? LiveRead(books: store.listedBooks(ids: changes.upserted),
                          progress: changes.progress ? store.progress() : nil)
        }.value
        guard !Task.isCancelled else { return }
        // Unreadable, or something else was shown meanwhile: read it all.
        guard let read, version == cacheVersion else {
            await loadCache()
            return
        }
        show(changes, read)
    }

    /// Puts what was read in place: the index and order changed book by
    /// book, then ``books`` and ``visible`` edited at the same places.
    private func show(_ changes: LibraryCacheChanges, _ read: LiveRead) {
        cacheVersion &+= 1
        let changed = changes.upserted.union(changes.deleted)
        var progressOnly: Set<String> = []
        if let newProgress = read.progress {
            for (id, value) in newProgress where progress[id] != value { progressOnly.insert(id) }
            for id in progress.keys where newProgress[id] == nil { progressOnly.insert(id) }
            progressOnly.subtract(changed)
            progress = newProgress
        } else {
            // A deleted book's progress goes with it.
            for id in changes.deleted { progress[id] = nil }
        }
        let steps = index.change(removing: changed, inserting: read.books, order: &order, sort: sort)
        let progressPlaces = progressOnly.isEmpty ? [] : index.places(of: progressOnly, in: order, sort: sort)
        let everyBook = query.isEmpty && filter == .all && finishedFilter == nil
        // The one reference to the list, so it is edited where it is
        // rather than copied (observers read the lists once this returns).
        var list = books
        books = []
        if everyBook { visible = [] }
        if let steps, let progressPlaces, steps.count + progressPlaces.count <= Self.stepsInPlace {
            for step in steps {
                switch step {
                case .remove(let place): list.remove(at: place)
                case .insert(let cached, let place): list.insert(book(cached), at: place)
                }
            }
            for place in progressPlaces { list[place].progress = progress[list[place].id] }
        } else {
            list = order.map { book(at: $0) }
        }
        books = list
        if everyBook {
            visible = list
        } else {
            refilter()
        }
        if !books.isEmpty, status == .loading { status = .loaded }
        if let selected = selection?.book.id { select(selected) }
    }

    /// One book's progress changed here (the player finished or restarted
    /// it, and wrote it to the cache): that book alone is shown anew, the
    /// cache is not read again. A read under way started before the write,
    /// so it is read once more (``loadCache(_:)``'s rule).
    func progressChanged(_ bookID: String, _ newProgress: BookProgress) {
        guard progress[bookID] != newProgress else { return }
        cacheVersion &+= 1
        progress[bookID] = newProgress
        if let position = books.firstIndex(where: { $0.id == bookID }) { books[position].progress = newProgress }
        if finishedFilter != nil {
            refilter()
        } else if let position = visible.firstIndex(where: { $0.id == bookID }) {
            visible[position].progress = newProgress
        }
        if selection?.book.id == bookID { selection?.book.progress = newProgress }
    }
}
