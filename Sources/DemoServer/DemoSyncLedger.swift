import Foundation
import ListenUpAPI
import ListenUpKRPC

/// A sync domain the demo server keeps revisions for (the kRPC mode serves
/// them through `SyncStreamService`; the REST mode keeps them too, unused:
/// it serves the state's rows by `updated_at`).
enum DemoSyncDomain: String, Sendable, CaseIterable {
    /// `books`: one row per book.
    case books
    /// `contributors`: one row per person credited on a book.
    case contributors
    /// `series`: one row per series a book is in.
    case series
    /// `playback_positions`: one row per user and book.
    case playbackPositions = "playback_positions"
    /// `listening_events`: one row per accepted listening event.
    case listeningEvents = "listening_events"
    /// `user_stats`: one row per user who listened (user-scoped, never deleted).
    case userStats = "user_stats"
    /// The facets (DemoFacets.swift): the genre tree, tags, moods,
    /// collections, and the junction rows by their own id.
    case genres, tags, moods, collections
    case bookTags = "book_tags"
    case bookMoods = "book_moods"
    case collectionBooks = "collection_books"
    /// `shelves`: one row per shelf (user-scoped: its owner's).
    case shelves
    /// `shelf_books`: one row per book put on a shelf (user-scoped).
    case shelfBooks = "shelf_books"
    /// `public_profiles`: one row per user, everyone's (DemoSocial.swift).
    case publicProfiles = "public_profiles"
    /// `activities`: the append-only feed, everyone's.
    case activities
}

/// A row as it was at one revision: what a sync page or event carries.
enum DemoSyncRow: Sendable {
    /// A book (for a tombstone: as it was when deleted).
    case book(SyncBook)
    /// A contributor (for a tombstone: as it was when deleted).
    case contributor(DemoContributor)
    /// A series (for a tombstone: as it was when deleted).
    case series(DemoSeries)
    /// A user's position in a book.
    case position(bookID: String, ListeningState.Progress)
    /// An accepted listening event with what the kRPC request added.
    case listeningEvent(ListeningEventDTO, ListeningState.EventDetails)
    /// A user's stats row (its `revision` is the change's).
    case userStats(UserStatsSyncPayload)
    /// A genre of the tree.
    case genre(DemoGenre)
    /// A tag or a mood.
    case label(DemoLabel)
    /// A collection.
    case collection(DemoCollection)
    /// A book in a tag, mood or collection.
    case membership(DemoMembership, DemoMembership.Kind)
    /// A shelf (for a tombstone: as it was when deleted).
    case shelf(DemoShelf)
    /// A book on a shelf (for a tombstone: as it was when taken off).
    case shelfBook(DemoShelfBook)
    /// A user's public profile (for a tombstone: as it was when the user went).
    case publicProfile(PublicProfileSyncPayload)
    /// One activity of the feed.
    case activity(ActivitySyncPayload)
}

/// One write to a row, at a global revision.
struct DemoSyncChange: Sendable {
    /// What the write did.
    enum Kind: Sendable {
        case created, updated, deleted
    }

    var domain: DemoSyncDomain
    var id: String
    var revision: Int64
    var occurredAt: Date
    var kind: Kind
    /// The user a user-scoped row belongs to; nil for rows everyone sees.
    var ownerID: String?
    var row: DemoSyncRow

    /// Whether `userID` may see this row.
    func isVisible(to userID: String) -> Bool {
        ownerID == nil || ownerID == userID
    }
}

/// The revision bookkeeping of the demo library, protocol-neutral: one
/// global revision counter across domains, each row's latest write
/// (tombstones included), and a bounded tail of recent writes (the real
/// server's in-memory change bus, `replay = 256`, oldest dropped first).
///
/// Lives inside ``DemoService/State``, so every access is under its lock.
/// Observers are called synchronously, under that lock, in revision order;
/// they must only hand the change on (e.g. `EventLoop.execute`), never
/// touch the service state.
struct DemoSyncLedger {
    /// The last revision handed out.
    private(set) var revision: Int64 = 0
    /// Each row's latest write, by domain and row id.
    private(set) var latest: [DemoSyncDomain: [String: DemoSyncChange]] = [:]
    /// Every write's revision and row id, by domain, in revision order (a
    /// row written again leaves its older entry behind, skipped on read):
    /// a `pullDomain` page starts where a binary search finds its cursor
    /// instead of sorting the whole domain for every page, which made a
    /// 50,000-book first sync's pages cost the server more the further
    /// they got (bench/sync, docs/performance.md).
    private var order: [DemoSyncDomain: [(revision: Int64, id: String)]] = [:]
    /// The retained tail of writes, oldest first.
    private(set) var retained: [DemoSyncChange] = []
    /// How many writes ``retained`` keeps.
    let retention: Int
    private var observers: [UUID: @Sendable (DemoSyncChange) -> Void] = [:]

    init(retention: Int) {
        self.retention = max(1, retention)
    }

    /// The oldest retained revision, nil while nothing was written since start.
    var oldestRetained: Int64? { retained.first?.revision }

    /// Open observers (one per live `observeEvents` stream).
    var observerCount: Int { observers.count }

    /// Gives a row that exists at start its revision, without retaining a
    /// write: a freshly started server replays nothing.
    mutating func seed(_ domain: DemoSyncDomain, id: String, ownerID: String? = nil, row: DemoSyncRow, at date: Date) {
        revision += 1
        latest[domain, default: [:]][id] = DemoSyncChange(domain: domain, id: id, revision: revision, occurredAt: date,
                                                          kind: .created, ownerID: ownerID, row: row)
        order[domain, default: []].append((revision, id))
    }

    /// Records a write at the next revision, retains it and tells the observers.
    @discardableResult
    mutating func record(_ domain: DemoSyncDomain, id: String, ownerID: String? = nil, row: DemoSyncRow, deleted: Bool = false,
                         at date: Date) -> DemoSyncChange {
        revision += 1
        let existing = latest[domain]?[id]
        let kind: DemoSyncChange.Kind = deleted ? .deleted : (existing == nil || existing?.kind == .deleted ? .created : .updated)
        let change = DemoSyncChange(domain: domain, id: id, revision: revision, occurredAt: date, kind: kind, ownerID: ownerID, row: row)
        latest[domain, default: [:]][id] = change
        order[domain, default: []].append((revision, id))
        retained.append(change)
        if retained.count > retention { retained.removeFirst(retained.count - retention) }
        for observer in observers.values { observer(change) }
        return change
    }

    /// The latest write of every row of `domain` that `userID` may see,
    /// tombstones included, in revision order.
    func rows(_ domain: DemoSyncDomain, visibleTo userID: String) -> [DemoSyncChange] {
        (latest[domain] ?? [:]).values.filter { $0.isVisible(to: userID) }.sorted { $0.revision < $1.revision }
    }

    /// The latest revision of one row, if it was ever written.
    func revision(of domain: DemoSyncDomain, id: String) -> Int64? {
        latest[domain]?[id]?.revision
    }

    /// The first `limit` rows of `domain` that `userID` may see with a
    /// revision above `after`, tombstones included, in revision order: a
    /// `pullDomain` page, read from ``order`` from the first revision above
    /// `after` on, each entry kept only if it is its row's latest write.
    func rows(_ domain: DemoSyncDomain, visibleTo userID: String, after: Int64, limit: Int) -> [DemoSyncChange] {
        guard let rows = latest[domain], let entries = order[domain], limit > 0 else { return [] }
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].revision <= after { low = middle + 1 } else { high = middle }
        }
        var page: [DemoSyncChange] = []
        for entry in entries[low...] {
            guard page.count < limit else { break }
            guard let change = rows[entry.id], change.revision == entry.revision, change.isVisible(to: userID) else { continue }
            page.append(change)
        }
        return page
    }

    /// Starts calling `observer` with every later write.
    mutating func addObserver(_ token: UUID, _ observer: @escaping @Sendable (DemoSyncChange) -> Void) {
        observers[token] = observer
    }

    /// Stops calling the observer registered as `token`.
    mutating func removeObserver(_ token: UUID) {
        observers.removeValue(forKey: token)
    }
}
