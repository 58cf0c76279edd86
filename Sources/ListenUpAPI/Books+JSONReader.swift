import Foundation
import JSONToolkit

// Payloads ``APIEnvelope/decode(_:as:)`` first tries to read with
// ``JSONReader`` (a page of `/sync/books` holds hundreds of books with
// their chapters and files; `JSONDecoder` took most of a sync's time on
// it). Reading must give exactly what the type's `Decodable` conformance
// gives, or throw so that `JSONDecoder` decides.

extension JSONReader {
    /// `{"v":1,"success":true,"data":…}` with `data` read as `payload`
    /// (nil when null or absent, as `JSONDecoder` reads it); anything else
    /// (another version, a failure) is an error, left to the general path.
    mutating func successEnvelope(_ payload: any JSONReadable.Type) throws(JSONReadError) -> (any JSONReadable)? {
        var version: Int64?, success: Bool?, data: (any JSONReadable)?
        try object(Self.envelopeFields) { field, reader throws(JSONReadError) in
            switch field {
            case .v: version = try reader.int64()
            case .success: success = try reader.bool()
            case .data: data = try reader.optional { reader throws(JSONReadError) in try payload.init(reading: &reader) }
            }
        }
        guard version == 1, success == true else { throw failure(.unsupported) }
        return data
    }

    private enum EnvelopeField: String, CaseIterable, Sendable {
        case v, success, data
    }

    private static let envelopeFields = JSONFields<EnvelopeField>()

    /// An RFC 3339 time, as ``ListenUpJSON/decoder`` reads dates.
    mutating func date() throws(JSONReadError) -> Date {
        let start = offset
        guard let date = RFC3339.date(from: try string()) else { throw JSONReadError(.unsupported, at: start) }
        return date
    }

    /// `null` (nil) or an RFC 3339 time.
    mutating func optionalDate() throws(JSONReadError) -> Date? {
        if try readNull() { return nil }
        return try date()
    }
}

extension SyncBooksResponse: JSONReadable {
    private enum Field: String, CaseIterable, Sendable {
        case nextCursor = "next_cursor", books, deletedBookIDs = "deleted_book_ids", hasMore = "has_more"
    }

    private static let fields = JSONFields<Field>()

    public init(reading reader: inout JSONReader) throws(JSONReadError) {
        var nextCursor: String?, books: [SyncBook]?, deleted: [String]?, hasMore: Bool?
        try reader.object(Self.fields) { field, reader throws(JSONReadError) in
            switch field {
            case .nextCursor: nextCursor = try reader.optionalString()
            case .books: books = try reader.array(of: SyncBook.self)
            case .deletedBookIDs: deleted = try reader.optionalStrings()
            case .hasMore: hasMore = try reader.bool()
            }
        }
        self.init(nextCursor: nextCursor, books: try reader.required(books), deletedBookIDs: deleted,
                  hasMore: try reader.required(hasMore))
    }
}

extension SyncBook: JSONReadable {
    private enum Field: String, CaseIterable, Sendable {
        case createdAt = "created_at", updatedAt = "updated_at", deletedAt = "deleted_at", id, scannedAt = "scanned_at"
        case coverImage = "cover_image", isbn, title, subtitle, path, description, publisher, publishYear = "publish_year"
        case language, asin, audibleRegion = "audible_region", genreIDs = "genre_ids", series, audioFiles = "audio_files"
        case chapters, totalDuration = "total_duration", totalSize = "total_size", abridged, contributors, author, narrator
        case seriesInfo = "series_info", seriesName = "series_name", genres, tags
    }

    private static let fields = JSONFields<Field>()

    /// One book of a page, as its `Decodable` conformance reads it.
    public init(reading reader: inout JSONReader) throws(JSONReadError) {
        var createdAt: Date?, updatedAt: Date?, id: String?, title: String?, path: String?, audioFiles: [AudioFile]?
        var totalDuration: Int64?, totalSize: Int64?, contributors: [BookContributor]?
        var book = SyncBook(createdAt: .distantPast, updatedAt: .distantPast, id: "", title: "", path: "", audioFiles: [],
                            totalDuration: 0, totalSize: 0, contributors: [])
        try reader.object(Self.fields) { field, reader throws(JSONReadError) in
            switch field {
            case .createdAt: createdAt = try reader.date()
            case .updatedAt: updatedAt = try reader.date()
            case .deletedAt: book.deletedAt = try reader.optionalDate()
            case .id: id = try reader.string()
            case .scannedAt: book.scannedAt = try reader.optionalDate()
            case .coverImage: book.coverImage = try reader.optional(CoverImage.self)
            case .isbn: book.isbn = try reader.optionalString()
            case .title: title = try reader.string()
            case .subtitle: book.subtitle = try reader.optionalString()
            case .path: path = try reader.string()
            case .description: book.description = try reader.optionalString()
            case .publisher: book.publisher = try reader.optionalString()
            case .publishYear: book.publishYear = try reader.optionalString()
            case .language: book.language = try reader.optionalString()
            case .asin: book.asin = try reader.optionalString()
            case .audibleRegion: book.audibleRegion = try reader.optionalString()
            case .genreIDs: book.genreIDs = try reader.optionalStrings()
            case .series: book.series = try reader.optionalArray(of: SeriesLink.self)
            case .audioFiles: audioFiles = try reader.array(of: AudioFile.self)
            case .chapters: book.chapters = try reader.optionalArray(of: Chapter.self)
            case .totalDuration: totalDuration = try reader.int64()
            case .totalSize: totalSize = try reader.int64()
            case .abridged: book.abridged = try reader.optionalBool()
            case .contributors: contributors = try reader.array(of: BookContributor.self)
            case .author: book.author = try reader.optionalString()
            case .narrator: book.narrator = try reader.optionalString()
            case .seriesInfo: book.seriesInfo = try reader.optionalArray(of: SeriesInfo.self)
            case .seriesName: book.seriesName = try reader.optionalString()
            case .genres: book.genres = try reader.optionalStrings()
            case .tags: book.tags = try reader.optionalArray(of: Tag.self)
            }
        }
        book.createdAt = try reader.required(createdAt)
        book.updatedAt = try reader.required(updatedAt)
        book.id = try reader.required(id)
        book.title = try reader.required(title)
        book.path = try reader.required(path)
        book.audioFiles = try reader.required(audioFiles)
        book.totalDuration = try reader.required(totalDuration)
        book.totalSize = try reader.required(totalSize)
        book.contributors = try reader.required(contributors)
        self = book
    }
}

extension CoverImage: JSONReadable {
    private enum Field: String, CaseIterable, Sendable {
        case path, filename, format, size, inode, modTime = "mod_time", blurHash = "blur_hash"
    }

    private static let fields = JSONFields<Field>()

    public init(reading reader: inout JSONReader) throws(JSONReadError) {
        var path: String?, filename: String?, format: String?, size: Int64?, inode: Int64?, modTime: Int64?, blurHash: String?
        try reader.object(Self.fields) { field, reader throws(JSONReadError) in
            switch field {
            case .path: path = try reader.string()
            case .filename: filename = try reader.string()
            case .format: format = try reader.string()
            case .size: size = try reader.int64()
            case .inode: inode = try reader.int64()
            case .modTime: modTime = try reader.int64()
            case .blurHash: blurHash = try reader.optionalString()
            }
        }
        self.init(path: try reader.required(path), filename: try reader.required(filename), format: try reader.required(format),
                  size: try reader.required(size), inode: try reader.required(inode), modTime: try reader.required(modTime),
                  blurHash: blurHash)
    }
}

extension AudioFile: JSONReadable {
    private enum Field: String, CaseIterable, Sendable {
        case id, path, filename, format, codec, size, duration, bitrate, inode, modTime = "mod_time"
    }

    private static let fields = JSONFields<Field>()

    public init(reading reader: inout JSONReader) throws(JSONReadError) {
        var id: String?, path: String?, filename: String?, format: String?, codec: String?, size: Int64?, duration: Int64?
        var bitrate: Int?, inode: Int64?, modTime: Int64?
        try reader.object(Self.fields) { field, reader throws(JSONReadError) in
            switch field {
            case .id: id = try reader.string()
            case .path: path = try reader.string()
            case .filename: filename = try reader.string()
            case .format: format = try reader.string()
            case .codec: codec = try reader.optionalString()
            case .size: size = try reader.int64()
            case .duration: duration = try reader.int64()
            case .bitrate: bitrate = try reader.optionalInt()
            case .inode: inode = try reader.int64()
            case .modTime: modTime = try reader.int64()
            }
        }
        self.init(id: try reader.required(id), path: try reader.required(path), filename: try reader.required(filename),
                  format: try reader.required(format), codec: codec, size: try reader.required(size),
                  duration: try reader.required(duration), bitrate: bitrate, inode: try reader.required(inode),
                  modTime: try reader.required(modTime))
    }
}

extension Chapter: JSONReadable {
    private enum Field: String, CaseIterable, Sendable {
        case title, audioFileID = "audio_file_id", index, startTime = "start_time", endTime = "end_time"
    }

    private static let fields = JSONFields<Field>()

    public init(reading reader: inout JSONReader) throws(JSONReadError) {
        var title: String?, audioFileID: String?, index: Int?, startTime: Int64?, endTime: Int64?
        try reader.object(Self.fields) { field, reader throws(JSONReadError) in
            switch field {
            case .title: title = try reader.string()
            case .audioFileID: audioFileID = try reader.string()
            case .index: index = try reader.int()
            case .startTime: startTime = try reader.int64()
            case .endTime: endTime = try reader.int64()
            }
        }
        self.init(title: try reader.required(title), audioFileID: try reader.required(audioFileID), index: try reader.required(index),
                  startTime: try reader.required(startTime), endTime: try reader.required(endTime))
    }
}

extension BookContributor: JSONReadable {
    private enum Field: String, CaseIterable, Sendable {
        case contributorID = "contributor_id", name, roles, creditedAs = "credited_as"
    }

    private static let fields = JSONFields<Field>()

    public init(reading reader: inout JSONReader) throws(JSONReadError) {
        var contributorID: String?, name: String?, roles: [String]?, creditedAs: String?
        try reader.object(Self.fields) { field, reader throws(JSONReadError) in
            switch field {
            case .contributorID: contributorID = try reader.string()
            case .name: name = try reader.string()
            case .roles: roles = try reader.strings()
            case .creditedAs: creditedAs = try reader.optionalString()
            }
        }
        self.init(contributorID: try reader.required(contributorID), name: try reader.required(name), roles: try reader.required(roles),
                  creditedAs: creditedAs)
    }
}

extension SeriesLink: JSONReadable {
    private enum Field: String, CaseIterable, Sendable {
        case seriesID = "series_id", sequence
    }

    private static let fields = JSONFields<Field>()

    public init(reading reader: inout JSONReader) throws(JSONReadError) {
        var seriesID: String?, sequence: String?
        try reader.object(Self.fields) { field, reader throws(JSONReadError) in
            switch field {
            case .seriesID: seriesID = try reader.string()
            case .sequence: sequence = try reader.optionalString()
            }
        }
        self.init(seriesID: try reader.required(seriesID), sequence: sequence)
    }
}

extension SeriesInfo: JSONReadable {
    private enum Field: String, CaseIterable, Sendable {
        case seriesID = "series_id", name, sequence
    }

    private static let fields = JSONFields<Field>()

    public init(reading reader: inout JSONReader) throws(JSONReadError) {
        var seriesID: String?, name: String?, sequence: String?
        try reader.object(Self.fields) { field, reader throws(JSONReadError) in
            switch field {
            case .seriesID: seriesID = try reader.string()
            case .name: name = try reader.string()
            case .sequence: sequence = try reader.optionalString()
            }
        }
        self.init(seriesID: try reader.required(seriesID), name: try reader.required(name), sequence: sequence)
    }
}

extension Tag: JSONReadable {
    private enum Field: String, CaseIterable, Sendable {
        case id, slug, bookCount = "book_count"
    }

    private static let fields = JSONFields<Field>()

    public init(reading reader: inout JSONReader) throws(JSONReadError) {
        var id: String?, slug: String?, bookCount: Int?
        try reader.object(Self.fields) { field, reader throws(JSONReadError) in
            switch field {
            case .id: id = try reader.string()
            case .slug: slug = try reader.string()
            case .bookCount: bookCount = try reader.int()
            }
        }
        self.init(id: try reader.required(id), slug: try reader.required(slug), bookCount: try reader.required(bookCount))
    }
}
