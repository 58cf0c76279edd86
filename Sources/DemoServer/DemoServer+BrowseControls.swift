import Foundation
import ListenUpAPI

/// Test controls of the browse domains (contributors, series), for both
/// protocols. Each changes the row and the books that name it as the real
/// server does (the books' `updated_at` and revision move too); REST event
/// streams get `series.updated`/`contributor.updated`/`series.deleted`,
/// kRPC event streams the `series`/`contributors` and `books` domain events.
extension DemoServer {
    /// The ids of every contributor, in the order `/sync/contributors` pages them.
    public var contributorIDs: [String] {
        service.state.withLock { $0.contributors.map(\.id) }
    }

    /// The ids of every series, in the order `/sync/series` pages them.
    public var seriesIDs: [String] {
        service.state.withLock { $0.series.map(\.id) }
    }

    /// Renames series `id` (and its name in its books' `series_info`).
    /// - Returns: false for an unknown id.
    @discardableResult
    public func renameSeries(id: String, to name: String) -> Bool {
        guard let series = service.renameSeries(id: id, to: name) else { return false }
        service.events.broadcast("series.updated", ["series": series.rest])
        return true
    }

    /// Renames contributor `id` (and their name on every book that credits them).
    /// - Returns: false for an unknown id.
    @discardableResult
    public func renameContributor(id: String, to name: String) -> Bool {
        guard let contributor = service.renameContributor(id: id, to: name) else { return false }
        service.events.broadcast("contributor.updated", ["contributor": contributor.rest])
        return true
    }

    /// Deletes series `id`; its books leave it. REST delta syncs name it in
    /// `deleted_series_ids`, kRPC pulls return its tombstone.
    /// - Returns: false for an unknown id.
    @discardableResult
    public func deleteSeries(id: String) -> Bool {
        guard service.deleteSeries(id: id) else { return false }
        // The Go server defines `series.deleted` but never sends it; the
        // demo does, with the id, so a client hears of it without polling.
        service.events.broadcast("series.deleted", ["id": id])
        return true
    }
}
