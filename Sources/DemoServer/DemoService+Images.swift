import Foundation
import ListenUpAPI

/// The browse images: a person's photo and a series' cover. REST v1 (the
/// Go server) serves only the photo, at `GET /api/v1/contributors/{id}/image`
/// (Bearer; `image/jpeg`; `Cache-Control`, no `ETag`; 404 `image not
/// found`); kRPC (today's server, `srv/routes/MetadataImageRoutes.kt`) at
/// `GET /api/v1/contributors/{id}/photo` and `GET /api/v1/series/{id}/cover`
/// (Bearer; no caching headers). The bytes are a generated PNG, different
/// for each photo a row has had.
extension DemoService {
    /// The photo of contributor `id`, or nil when there is none.
    func contributorPhoto(id: String) -> Data? {
        let photo = state.withLock { state in state.contributors.first { $0.id == id }?.photo }
        return photo.map { DemoLibrary.cover(for: "person-\(id)@\($0)") }
    }

    /// The cover of series `id`, or nil when there is none.
    func seriesCover(id: String) -> Data? {
        let cover = state.withLock { state in state.series.first { $0.id == id }?.cover }
        return cover.map { DemoLibrary.cover(for: "series-\(id)@\($0)") }
    }

    /// REST v1's `GET /api/v1/contributors/{id}/image`.
    func contributorImage(_ request: DemoRequest) -> DemoResponse {
        guard bearer(request) != nil else { return .text(401, "authentication required") }
        let parts = request.path.split(separator: "/").map(String.init)
        guard parts.count == 5, let photo = contributorPhoto(id: parts[3]) else { return .text(404, "image not found") }
        return DemoResponse(status: 200, contentType: "image/jpeg", body: photo, headers: [("Cache-Control", "public, max-age=86400")])
    }

    /// Gives contributor `id` a new photo (a new content address on kRPC; the
    /// row moves to now on both). Returns the row, nil for an unknown id.
    func replaceContributorPhoto(id: String) -> DemoContributor? {
        state.withLock { state in
            guard let index = state.contributors.firstIndex(where: { $0.id == id }) else { return nil }
            let now = Date()
            state.contributors[index].photo = (state.contributors[index].photo ?? 0) + 1
            state.contributors[index].updatedAt = now
            state.ledger.record(.contributors, id: id, row: .contributor(state.contributors[index]), at: now)
            return state.contributors[index]
        }
    }
}

extension DemoServer {
    /// The ids of the contributors with a photo, and of the series with a cover.
    public var imagedRows: (contributors: [String], series: [String]) {
        service.state.withLock { state in
            (state.contributors.filter { $0.photo != nil }.map(\.id), state.series.filter { $0.cover != nil }.map(\.id))
        }
    }

    /// The bytes served as contributor `id`'s photo now (tests compare).
    public func contributorPhoto(id: String) -> Data? { service.contributorPhoto(id: id) }

    /// The bytes served as series `id`'s cover now.
    public func seriesCover(id: String) -> Data? { service.seriesCover(id: id) }

    /// Gives contributor `id` a new photo; REST event streams get
    /// `contributor.updated`, kRPC streams the `contributors` domain event.
    /// - Returns: false for an unknown id.
    @discardableResult
    public func replaceContributorPhoto(id: String) -> Bool {
        guard let contributor = service.replaceContributorPhoto(id: id) else { return false }
        service.events.broadcast("contributor.updated", ["contributor": contributor.rest])
        return true
    }
}
