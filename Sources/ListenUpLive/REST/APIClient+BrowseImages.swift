import Foundation
import ListenUpAPI
import ListenUpCore

/// Browse images over REST v1: the Go server serves a contributor's photo
/// at `GET /api/v1/contributors/{id}/image` (Bearer; `image/jpeg`; 404 when
/// there is none) and no series cover at all (contract v0.9 §7: stored,
/// never served), so a series cover is nil without a request.
extension APIClient {
    public func browseImage(_ image: BrowseImage, maxBytes: Int) async throws(ServerError) -> Data? {
        switch image {
        case .contributorPhoto(let id):
            try await authorizedBytes(path: RawEndpoint.contributorImage(contributorID: id), maxBytes: maxBytes)
        case .seriesCover:
            nil
        }
    }
}
