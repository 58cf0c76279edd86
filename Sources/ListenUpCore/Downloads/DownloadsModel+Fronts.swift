import Foundation

/// What the fronts show of the downloads: one book's, all of them with
/// their bytes so far, the downloaded set, the files a downloaded book
/// plays from and its cover.
extension DownloadsModel {
    /// One book's download with its bytes so far (its ``progress`` while
    /// it runs): what a front that shows one book follows.
    public func item(_ bookID: String) -> Item? {
        items[bookID].map(withProgress)
    }

    /// Every download with its bytes so far, by book id: ``items`` with the
    /// running books' ``progress`` (a front that reads this is woken by
    /// every progress tick; one that reads ``items`` only by status changes).
    public var currentItems: [String: Item] {
        guard !progress.isEmpty else { return items }
        return items.mapValues(withProgress)
    }

    /// Every download with its bytes so far, oldest request first.
    public var ordered: [Item] {
        currentItems.values.sorted { ($0.download.requestedAt, $0.bookID) < ($1.download.requestedAt, $1.bookID) }
    }

    private func withProgress(_ item: Item) -> Item {
        guard let bytes = progress[item.bookID] else { return item }
        var item = item
        item.bytes = bytes
        return item
    }

    /// The ids of the books downloaded in full.
    public var downloadedBookIDs: Set<String> {
        Set(items.values.filter { $0.status == .done }.map(\.bookID))
    }

    /// Bytes and total of the downloads queued or running (nil when none is).
    public var activeProgress: (bytes: Int64, total: Int64)? {
        let active = currentItems.values.filter(\.download.isActive)
        guard !active.isEmpty else { return nil }
        return (active.reduce(0) { $0 + $1.bytes }, active.reduce(0) { $0 + $1.totalBytes })
    }

    /// The book's timeline over its downloaded files, when every file is
    /// on disk at its size; nil otherwise. A done book whose files changed
    /// on disk (truncated, grown, deleted) is queued again and nil is
    /// returned: the player streams it meanwhile.
    public func localTimeline(bookID: String) -> PlaybackTimeline? {
        guard let item = items[bookID], item.status == .done else { return nil }
        guard isWhole(item.download) else {
            dependencies.logger.warning("A downloaded book's files changed on disk; downloading it again", metadata: ["book": "\(bookID)"])
            requeue(bookID)
            return nil
        }
        return item.download.timeline(in: store.folder(bookID: bookID))
    }

    /// The book's cover in its download folder, if it was fetched.
    public func coverFile(bookID: String) -> URL? {
        guard let item = items[bookID], item.download.hasCover else { return nil }
        return store.coverFile(bookID: bookID)
    }

    /// The bytes of the book's cover in its download folder, read off the
    /// main actor; nil when it was not fetched.
    public func cover(bookID: String) async -> Data? {
        guard let item = items[bookID], item.download.hasCover else { return nil }
        let store = store
        return await Task.detached(priority: .utility) { store.cover(bookID: bookID) }.value
    }
}
