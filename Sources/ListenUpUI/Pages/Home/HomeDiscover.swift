import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// Home's *Discover* (`home-view.ui`'s `discover`): who else listens now
/// (live first: "Mara Lindqvist is listening to *Persuasion*", "Listening
/// now"), then what the other readers of the server listen to and finish,
/// newest first (``DiscoverModel``), a row each (a ``TextRow``: the
/// book's cover, "Grace Hopper finished *Middlemarch*", how long ago). A
/// row with a book opens it (``onOpenBook``).
/// With nothing yet it says so; on a server without a feed (REST v1) the
/// section stays hidden. Rows are made again when the feed changes (fifty at most).
@MainActor
final class HomeDiscover {
    private let discover: DiscoverModel
    private let library: LibraryModel
    private let box: Box
    private let empty: Label
    private let list: ListBox
    private var observation: StateObservation?
    private var connections: [SignalConnection] = []
    private var covers: [Task<Void, Never>] = []
    private var shown: (listening: [ListeningNow], entries: [ActivityFeedEntry])?
    /// The rows' book ids, by the row's address.
    private var rowBooks: [Int: String] = [:]
    /// The rows, by activity id, and by `listening-<user id>` for who listens now (tests).
    private(set) var rows: [String: TextRow] = [:]
    /// Opens a book (its details).
    var onOpenBook: (String) -> Void = { _ in }
    /// The time the rows' "how long ago" is counted from (previews fix it).
    var now: () -> Date = Date.init

    init(template ui: Template, discover: DiscoverModel, library: LibraryModel) {
        self.discover = discover
        self.library = library
        (box, empty, list) = (ui.child("discover"), ui.child("discover-empty"), ui.child("discover-list"))
        connections.append(list.connect(.rowActivated) { [weak self] row in
            guard let self, let id = self.rowBooks[Int(bitPattern: row)] else { return }
            self.onOpenBook(id)
        })
        observation = StateObservation { [weak self] in self?.render() }
    }

    /// The feed has been read once (screenshots wait for it).
    var isSettled: Bool { discover.reads > 0 }

    /// Whether the section shows its "Nothing yet" (tests).
    var showsEmptyState: Bool { box.isVisible && empty.isVisible }

    private func render() {
        let (entries, listening, reads, available) = (discover.entries, discover.listeningNow, discover.reads, discover.isAvailable)
        box.isVisible = reads > 0 && available
        empty.isVisible = entries.isEmpty && listening.isEmpty
        list.isVisible = !empty.isVisible
        if let shown, shown.listening == listening, shown.entries == entries { return }
        shown = (listening, entries)
        covers.forEach { $0.cancel() }
        covers = []
        rowBooks = [:]
        rows = [:]
        while let row = list.row(at: 0) { list.remove(row) }
        let books = library.books(ids: Set(entries.compactMap(\.activity.bookID) + listening.map(\.bookID)))
        for row in listening {
            let title = books[row.bookID]?.title ?? ""
            add(id: "listening-\(row.userID)", sentence: Self.sentence(row, title: title),
                subtitle: row.isLive ? tr("Listening now") : row.lastActiveAt.map { Self.ago($0, now: now()) },
                placeholder: title.isEmpty ? row.displayName : title, bookID: row.bookID, book: books[row.bookID])
        }
        for entry in entries {
            add(id: entry.id, sentence: Self.sentence(entry), subtitle: Self.ago(entry.activity.occurredAt, now: now()),
                placeholder: entry.bookTitle ?? entry.userName ?? "", bookID: entry.activity.bookID,
                book: entry.activity.bookID.flatMap { books[$0] })
        }
    }

    private func add(id: String, sentence: String, subtitle: String?, placeholder: String, bookID: String?, book: LibraryModel.Book?) {
        let row = TextRow(titleLines: 2)
        row.title = sentence
        row.subtitle = subtitle ?? ""
        row.setAccessibleLabel(sentence)
        let cover = CoverView(size: 40)
        cover.showPlaceholder(for: placeholder)
        row.addPrefix(cover.widget)
        row.isActivatable = bookID != nil
        row.showsArrow = bookID != nil
        if let bookID { rowBooks[Int(bitPattern: row.pointer)] = bookID }
        rows[id] = row
        list.append(row)
        if let book {
            let library = library
            covers.append(Task { [weak cover] in
                guard let data = await library.cover(for: book), let texture = await CoverTexture.decode(data.bytes, size: 80)
                else { return }
                cover?.show(texture)
            })
        }
    }

    /// Who listens to what, in words: "Mara Lindqvist is listening to Persuasion".
    static func sentence(_ row: ListeningNow, title: String) -> String {
        row.isLive
            // TRANSLATORS: Discover on Home: a person, then a book's title.
            ? tr("%@ is listening to %@", row.displayName, title)
            // TRANSLATORS: Discover on Home: a person, then the book they last played and did not finish.
            : tr("%@ was listening to %@", row.displayName, title)
    }

    /// Who did what, in words: "Grace Hopper finished Middlemarch".
    static func sentence(_ entry: ActivityFeedEntry) -> String {
        // TRANSLATORS: Discover on Home: someone whose profile is not known yet.
        let name = entry.userName ?? tr("Someone")
        let title = entry.bookTitle ?? ""
        let activity = entry.activity
        switch entry.kind {
        case .startedBook:
            // TRANSLATORS: Discover on Home: a person, then a book's title.
            return tr("%@ started %@", name, title)
        case .finishedBook:
            return activity.isReread
                // TRANSLATORS: Discover on Home: a person, then a book's title.
                ? tr("%@ finished %@ again", name, title)
                // TRANSLATORS: Discover on Home: a person, then a book's title.
                : tr("%@ finished %@", name, title)
        case .listeningSession:
            let minutes = Int(activity.durationMs / 60_000)
            // TRANSLATORS: Discover on Home: a person, how many minutes, then a book's title.
            return trn("%@ listened to %@ minute of %@", "%@ listened to %@ minutes of %@", count: minutes, name,
                       Localization.number(minutes), title)
        case .streakMilestone:
            // TRANSLATORS: Discover on Home: a person, then a number of days in a row.
            return trn("%@ listened %@ day in a row", "%@ listened %@ days in a row", count: activity.milestoneValue, name,
                       Localization.number(activity.milestoneValue))
        case .listeningMilestone:
            // TRANSLATORS: Discover on Home: a person, then a number of hours in all.
            return trn("%@ reached %@ hour of listening", "%@ reached %@ hours of listening", count: activity.milestoneValue, name,
                       Localization.number(activity.milestoneValue))
        case .shelfCreated:
            // TRANSLATORS: Discover on Home: a person, then a shelf's name.
            return tr("%@ made the shelf %@", name, activity.shelfName ?? "")
        case .userJoined, nil:
            // TRANSLATORS: Discover on Home: a person who just made their account.
            return tr("%@ joined", name)
        }
    }

    /// How long ago, in words: "just now", "5 minutes ago", "3 hours ago", "2 days ago", else the date.
    static func ago(_ date: Date, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        switch seconds {
        case ..<60:
            // TRANSLATORS: Discover on Home: when something happened.
            return tr("Just now")
        case ..<3600:
            let minutes = seconds / 60
            return trn("%@ minute ago", "%@ minutes ago", count: minutes, Localization.number(minutes))
        case ..<86_400:
            let hours = seconds / 3600
            return trn("%@ hour ago", "%@ hours ago", count: hours, Localization.number(hours))
        case ..<(7 * 86_400):
            let days = seconds / 86_400
            return trn("%@ day ago", "%@ days ago", count: days, Localization.number(days))
        default:
            return Localization.dateAndTime(date)
        }
    }

    func teardown() {
        observation?.cancel()
        observation = nil
        covers.forEach { $0.cancel() }
        connections.forEach { $0.disconnect() }
        connections = []
    }
}
