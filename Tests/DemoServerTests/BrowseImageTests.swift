import DemoServer
import Foundation
import ListenUpAPI
import ListenUpCore
import ListenUpLive
import ListenUpTestSupport
import Testing

/// Photos and series covers through the real clients against the demo
/// server on loopback, over both protocols: what each server serves
/// (today's: photos and covers; the Go server: photos only), no image
/// where there is none, and a new photo named by a new path that the
/// loader fetches again (neither server sends an `ETag`).
@Suite("Browse images over both protocols")
struct BrowseImageTests {
    let rig = BrowseSyncTests()

    @Test(arguments: [DemoProtocol.rest, .krpc])
    func photosAndCoversAreServedAndANewPhotoIsANewPath(_ wire: DemoProtocol) async throws {
        let (server, client) = try await rig.signedIn(wire)
        defer { Task { await server.stop() } }
        let first = try await rig.pass(client, .contributors, limit: 500)
        let people = first.contributors
        let (withPhoto, withCover) = server.imagedRows
        let pictured = try #require(people.first { withPhoto.contains($0.id) })
        let plain = try #require(people.first { !withPhoto.contains($0.id) })
        #expect(pictured.imagePath != nil && plain.imagePath == nil, "the row says whether there is a photo")
        if wire == .krpc {
            #expect(pictured.imagePath?.hasPrefix("contributors/") == true && pictured.imagePath?.hasSuffix(".jpg") == true)
        }

        let photo = try await client.browseImage(.contributorPhoto(id: pictured.id), maxBytes: BrowseImageLoader.maxImageBytes)
        #expect(photo != nil && photo == server.contributorPhoto(id: pictured.id))
        #expect(try await client.browseImage(.contributorPhoto(id: plain.id), maxBytes: BrowseImageLoader.maxImageBytes) == nil,
                "a person with no photo: 404, nil")

        let coverID = try #require(withCover.first)
        let coverPath = wire == .rest ? "/api/v1/series/\(coverID)/cover" : nil
        let cover = try await client.browseImage(.seriesCover(id: coverID), maxBytes: BrowseImageLoader.maxImageBytes)
        switch wire {
        case .rest:
            #expect(cover == nil, "the Go server serves no series cover")
            #expect(server.requestCount(coverPath ?? "") == 0, "and it is not asked")
        case .krpc:
            #expect(cover != nil && cover == server.seriesCover(id: coverID))
        }

        // The loader keeps the photo by its path; a new photo is a new path.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-browse-images-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let loader = BrowseImageLoader(server: client, cache: CoverFolder(directory), logger: rig.logs.logger)
        func page(_ person: Contributor) -> BrowsePageContents {
            BrowsePageContents(kind: .contributor, id: person.id, name: person.name, imagePath: person.imagePath, entries: [])
        }
        #expect(await loader.image(for: page(pictured))?.bytes == photo)
        #expect(server.replaceContributorPhoto(id: pictured.id))
        let changed = try await (wire == .rest ? rig.pass(client, .contributors, limit: 500, after: first.newest)
                                               : rig.pass(client, .contributors, limit: 500, cursor: first.cursor)).contributors
        let renewed = try #require(changed.first { $0.id == pictured.id }, "the new photo is a change of the row")
        #expect(renewed.imagePath != nil && renewed.imagePath != pictured.imagePath)
        let newPhoto = try #require(await loader.image(for: page(renewed))?.bytes)
        #expect(newPhoto != photo && newPhoto == server.contributorPhoto(id: pictured.id))
    }
}
