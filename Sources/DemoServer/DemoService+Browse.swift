import Foundation
import ListenUpAPI

/// The browse domains (contributors, series): REST v1's
/// `/api/v1/sync/contributors` and `/api/v1/sync/series`, and the changes
/// the test controls make. Every change updates the row and the books that
/// name it, as the real server does, and records both in the sync ledger
/// (kRPC pages and streams them).
extension DemoService {
    // MARK: REST v1

    /// `/api/v1/sync/contributors`, paged as `/sync/books`.
    func syncContributors(_ request: DemoRequest) -> DemoResponse {
        let (rows, deleted) = state.withLock { ($0.contributors, $0.deletedContributorIDs) }
        return browsePage(request, rows: rows, deleted: deleted, updatedAt: \.updatedAt) { page, deletedIDs, next, more in
            .envelope(SyncContributorsResponse(nextCursor: next, contributors: page.map(\.rest), deletedContributorIDs: deletedIDs,
                                               hasMore: more))
        }
    }

    /// `/api/v1/sync/series`, paged as `/sync/books`.
    func syncSeries(_ request: DemoRequest) -> DemoResponse {
        let (rows, deleted) = state.withLock { ($0.series, $0.deletedSeriesIDs) }
        return browsePage(request, rows: rows, deleted: deleted, updatedAt: \.updatedAt) { page, deletedIDs, next, more in
            .envelope(SyncSeriesResponse(nextCursor: next, series: page.map(\.rest), deletedSeriesIDs: deletedIDs, hasMore: more))
        }
    }

    /// The Go server's paging of a sync domain (`internal/service/sync.go`):
    /// `limit` 1…500; the index cursor; with `updated_after`, the rows
    /// changed since in `updated_at` order and, on the first page only,
    /// the ids deleted since.
    private func browsePage<Row>(_ request: DemoRequest, rows: [Row], deleted: [(id: String, at: Date)], updatedAt: (Row) -> Date,
                                 respond: ([Row], [String]?, String?, Bool) -> DemoResponse) -> DemoResponse {
        let limit = Int(request.query["limit"] ?? "50") ?? -1
        guard (1...500).contains(limit) else { return .failure(422, "expected number <= 500 (query.limit: \(request.query["limit"] ?? ""))") }
        guard let start = Self.cursorIndex(request.query["cursor"]) else { return .failure(500, APIMessage.unexpected) }
        var source = rows
        var deletedIDs: [String]?
        if let after = request.query["updated_after"] {
            guard let date = RFC3339.date(from: after) else { return .failure(400, "invalid updated_after format, expected RFC3339") }
            source = source.filter { updatedAt($0) > date }.sorted { updatedAt($0) < updatedAt($1) }
            if start == 0 { deletedIDs = deleted.filter { $0.at > date }.map(\.id) }
        }
        let page = Array(source.dropFirst(start).prefix(limit))
        let end = start + page.count
        let more = end < source.count
        return respond(page, deletedIDs.flatMap { $0.isEmpty ? nil : $0 }, more ? Self.cursor(end) : nil, more)
    }

    // MARK: Changes

    /// Renames a series: its row, and the `series_info`/`series_name` of
    /// every book in it, move to now. Returns the row, nil for an unknown id.
    func renameSeries(id: String, to name: String) -> DemoSeries? {
        state.withLock { state in
            guard let index = state.series.firstIndex(where: { $0.id == id }) else { return nil }
            let now = Date()
            state.series[index].name = name
            state.series[index].sortName = DemoSeries.sortName(name)
            state.series[index].updatedAt = now
            state.ledger.record(.series, id: id, row: .series(state.series[index]), at: now)
            state.changeBooks(at: now) { book in
                guard book.seriesInfo?.contains(where: { $0.seriesID == id }) == true else { return false }
                book.seriesInfo = book.seriesInfo?.map { $0.seriesID == id ? SeriesInfo(seriesID: id, name: name, sequence: $0.sequence) : $0 }
                book.seriesName = book.seriesInfo?.first?.name
                return true
            }
            return state.series[index]
        }
    }

    /// Renames a contributor: its row, and their name on every book that
    /// credits them (`contributors`, `author`, `narrator`), move to now.
    /// Returns the row, nil for an unknown id.
    func renameContributor(id: String, to name: String) -> DemoContributor? {
        state.withLock { state in
            guard let index = state.contributors.firstIndex(where: { $0.id == id }) else { return nil }
            let now = Date()
            state.contributors[index].name = name
            state.contributors[index].sortName = DemoContributor.sortName(name)
            state.contributors[index].updatedAt = now
            state.ledger.record(.contributors, id: id, row: .contributor(state.contributors[index]), at: now)
            state.changeBooks(at: now) { book in
                guard book.contributors.contains(where: { $0.contributorID == id }) else { return false }
                for credit in book.contributors.indices where book.contributors[credit].contributorID == id {
                    book.contributors[credit].name = name
                }
                if book.author != nil { book.author = book.names(withRole: "author").joined(separator: ", ") }
                if book.narrator != nil { book.narrator = book.names(withRole: "narrator").joined(separator: ", ") }
                return true
            }
            return state.contributors[index]
        }
    }

    /// Deletes a series: REST deltas name it in `deleted_series_ids`, kRPC
    /// pulls return its tombstone; its books leave it (and move to now).
    /// Returns false for an unknown id.
    func deleteSeries(id: String) -> Bool {
        state.withLock { state in
            guard let index = state.series.firstIndex(where: { $0.id == id }) else { return false }
            let now = Date()
            let series = state.series.remove(at: index)
            state.deletedSeriesIDs.append((id, now))
            state.ledger.record(.series, id: id, row: .series(series), deleted: true, at: now)
            state.changeBooks(at: now) { book in
                guard book.series?.contains(where: { $0.seriesID == id }) == true
                    || book.seriesInfo?.contains(where: { $0.seriesID == id }) == true else { return false }
                book.series = book.series?.filter { $0.seriesID != id }
                book.seriesInfo = book.seriesInfo?.filter { $0.seriesID != id }
                if book.series?.isEmpty == true { book.series = nil }
                if book.seriesInfo?.isEmpty == true { book.seriesInfo = nil }
                book.seriesName = book.seriesInfo?.first?.name
                return true
            }
            return true
        }
    }
}

extension DemoService.State {
    /// Applies `change` to every book; each it changed (it returns true)
    /// moves to `date` and gets a new revision.
    mutating func changeBooks(at date: Date, _ change: (inout SyncBook) -> Bool) {
        for index in books.indices where change(&books[index]) {
            books[index].updatedAt = date
            ledger.record(.books, id: books[index].id, row: .book(books[index]), at: date)
        }
    }

    /// Adds a contributor row for someone a new book credits, unless there is one.
    mutating func addContributor(_ credit: BookContributor, at date: Date) {
        guard !contributors.contains(where: { $0.id == credit.contributorID }) else { return }
        let person = DemoLibrary.contributor(id: credit.contributorID, name: credit.name,
                                             roles: Dictionary(credit.roles.map { ($0, 1) }, uniquingKeysWith: +), at: date)
        contributors.append(person)
        ledger.record(.contributors, id: person.id, row: .contributor(person), at: date)
    }
}
