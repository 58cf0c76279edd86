import Foundation
import ListenUpAPI
import ListenUpCore

// REST v1's book DTOs (`ListenUpAPI`) in the app's own terms, at the
// protocol's edge: the core never sees a `SyncBook`. Pure; any thread.
// The sync keeps reading pages into `SyncBook` with its fast reader
// (`Books+JSONReader.swift`) and maps each book here, a few array copies.

extension ServerBook {
    /// `book` from `/sync/books` or a `book.created` event: contributors
    /// with their roles, series with their names and places (`series_info`),
    /// genres paired with their ids when the two lists pair up (otherwise
    /// the name stands for the id), a cover when `cover_image` is there. No
    /// revision: REST v1 has none.
    public init(_ book: SyncBook) {
        self.init(id: book.id, title: book.title, createdAt: book.createdAt, updatedAt: book.updatedAt, subtitle: book.subtitle,
                  description: book.description, publisher: book.publisher, publishYear: book.publishYear, language: book.language,
                  isbn: book.isbn, asin: book.asin, abridged: book.abridged, hasCover: book.coverImage != nil,
                  contributors: book.contributors.map {
                      Contributor(id: $0.contributorID, name: $0.name, roles: $0.roles, creditedAs: $0.creditedAs)
                  },
                  author: book.author, narrator: book.narrator,
                  series: (book.seriesInfo ?? []).map { SeriesPlace(id: $0.seriesID, name: $0.name, sequence: $0.sequence) },
                  genres: Self.genres(names: book.genres ?? [], ids: book.genreIDs ?? []),
                  tags: (book.tags ?? []).map { Tag(id: $0.id, slug: $0.slug) },
                  audioFiles: book.audioFiles.map {
                      AudioFile(id: $0.id, format: $0.format, codec: $0.codec, size: $0.size, duration: $0.duration, bitrate: $0.bitrate)
                  },
                  chapters: (book.chapters ?? []).map {
                      Chapter(id: $0.id, title: $0.title, audioFileID: $0.audioFileID, startTime: $0.startTime, endTime: $0.endTime)
                  },
                  totalDuration: book.totalDuration, totalSize: book.totalSize)
    }

    /// REST v1 sends a book's genre names and ids as two lists: only when
    /// they pair up is an id known, otherwise the name stands for it. It
    /// sends no paths (the genre tree comes from `GET /api/v1/genres`).
    static func genres(names: [String], ids: [String]) -> [Genre] {
        names.enumerated().map { index, name in
            Genre(id: ids.count == names.count ? ids[index] : name, name: name)
        }
    }
}

extension ServerBooksPage {
    /// A `/sync/books` page.
    public init(_ response: SyncBooksResponse) {
        self.init(books: response.books.map(ServerBook.init), deletedBookIDs: response.deletedBookIDs ?? [],
                  nextCursor: response.nextCursor, hasMore: response.hasMore)
    }
}

extension DeviceInfo {
    /// REST v1's `device_info` for `device` (kRPC's is cut to its limits
    /// from this one, `KRPCServerConnection+Auth.swift`).
    public init(_ device: ClientDevice) {
        self.init(deviceType: device.deviceType, platform: device.platform, platformVersion: device.platformVersion,
                  clientName: device.clientName, clientVersion: device.clientVersion, deviceName: device.deviceName)
    }
}
