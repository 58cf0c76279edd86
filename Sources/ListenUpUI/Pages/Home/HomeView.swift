import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// Home (`data/ui/home-view.ui`), the library page's first tab, under its
/// *Continue Listening*: *This Week* (the week's minutes as a chart, the
/// streak, the total and the top genres, from ``HomeModel``) and *Recently
/// Added* (the newest books; choosing one opens it, through
/// ``onOpenBook``), and *Discover* (others' activity, ``HomeDiscover``).
/// The stats are read again each time Home is shown
/// (``refresh()``).
@MainActor
final class HomeView {
    let root: ScrolledWindow
    private let rootRef: GObjectRef<UnsafeMutablePointer<GtkWidget>>
    private let home: HomeModel
    private let library: LibraryModel
    private let chart: ListeningChart
    private let week: Box
    /// The weekday names beneath the chart's bars.
    private let days: [Label]
    private let streak: Label
    private let total: Label
    private let genres: Label
    private let recent: Box
    private let recentItems: Box
    private var observation: StateObservation?
    private var shownRecent: [String] = []
    private var recentConnections: [SignalConnection] = []
    private var covers: [Task<Void, Never>] = []
    /// Opens a book (its details).
    var onOpenBook: (@MainActor (String) -> Void)?
    /// The Recently Added buttons, by book id (tests).
    private(set) var recentButtons: [String: Button] = [:]
    /// My Shelves and Shelves from Others (nil without the session's shelves: previews).
    private(set) var shelvesSection: HomeShelves?
    /// Discover (nil without the session's feed: previews without one).
    private(set) var discoverSection: HomeDiscover?

    init(home: HomeModel, library: LibraryModel) {
        self.home = home
        self.library = library
        let ui = PageTemplates.load("home-view")
        (root, rootRef) = ui.root("root")
        chart = ListeningChart(area: ui.child("chart"))
        (week, streak, total, genres) = (ui.child("week"), ui.child("streak"), ui.child("total"), ui.child("genres"))
        days = (0..<7).map { ui.child("day-\($0)") }
        (recent, recentItems) = (ui.child("recent"), ui.child("recent-items"))
        shelvesSection = library.shelves.map { HomeShelves(template: ui, shelves: $0) }
        discoverSection = home.discover.map { HomeDiscover(template: ui, discover: $0, library: library) }
        discoverSection?.onOpenBook = { [weak self] id in self?.onOpenBook?(id) }
        observation = StateObservation { [weak self] in self?.render() }
    }

    /// Reads the stats again (Home is shown).
    func refresh() {
        home.refresh()
    }

    /// What Home shows has been read once (screenshots wait for it).
    var isSettled: Bool {
        home.refreshes > 0 && !home.isRefreshing && (library.shelves?.reads ?? 1) > 0 && (discoverSection?.isSettled ?? true)
    }

    private func render() {
        renderWeek(home.summary)
        renderRecent(home.recentlyAdded)
    }

    private func renderWeek(_ summary: HomeModel.Summary?) {
        week.isVisible = summary != nil
        guard let summary else { return }
        chart.show(summary.minutesByDay, dayNames: summary.dayNames)
        for (label, name) in zip(days, summary.dayNames) { label.text = name }
        streak.text = trn("%@-day streak", "%@-day streak", count: summary.streakDays, Localization.number(summary.streakDays))
        let hours = summary.totalMinutes / 60, minutes = summary.totalMinutes % 60
        // TRANSLATORS: all the time listened: "12 h 5 min listened in all".
        total.text = tr("%@ h %@ min listened in all", Localization.number(hours), Localization.number(minutes))
        let week = summary.minutesByDay.reduce(0, +)
        let top = summary.topGenres.prefix(3).map(\.name).joined(separator: ", ")
        genres.text = top.isEmpty
            ? trn("%@ minute this week", "%@ minutes this week", count: week, Localization.number(week))
            // TRANSLATORS: "95 minutes this week · Fantasy, Mystery": the week's minutes and its top genres.
            : tr("%@ · %@", trn("%@ minute this week", "%@ minutes this week", count: week, Localization.number(week)), top)
    }

    private func renderRecent(_ books: [LibraryModel.Book]) {
        recent.isVisible = !books.isEmpty
        let ids = books.map(\.id)
        guard ids != shownRecent else { return }
        shownRecent = ids
        covers.forEach { $0.cancel() }
        covers = []
        recentConnections = []
        recentButtons = [:]
        recentItems.removeAll()
        for book in books {
            let ui = PageTemplates.load("continue-item")
            defer { withExtendedLifetime(ui) {} }
            let button: Button = ui.child("root")
            // TRANSLATORS: a button in Recently Added; %@ is the book's title.
            button.setAccessibleLabel(tr("Open %@", book.title))
            button.tooltip = book.title
            let cover = CoverView(size: 56)
            cover.showPlaceholder(for: book.title)
            ui.child("content", as: Box.self).prepend(cover.widget)
            ui.child("title", as: Label.self).text = book.title
            ui.child("author", as: Label.self).text = book.authors
            ui.child("progress", as: ProgressBar.self).isVisible = false
            let id = book.id
            recentConnections.append(button.connect(.clicked) { [weak self] in self?.onOpenBook?(id) })
            recentItems.append(button)
            recentButtons[id] = button
            let library = library
            covers.append(Task { [weak cover] in
                guard let data = await library.cover(for: book), let texture = await CoverTexture.decode(data.bytes, size: 112) else { return }
                cover?.show(texture)
            })
        }
    }

    func teardown() {
        shelvesSection?.teardown()
        discoverSection?.teardown()
        observation?.cancel()
        covers.forEach { $0.cancel() }
        recentConnections = []
    }
}
