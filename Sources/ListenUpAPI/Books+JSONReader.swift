import Foundation

/// A payload ``APIEnvelope/decode(_:as:)`` first tries to read with
/// ``JSONReader`` (a page of `/sync/books` holds hundreds of books with
/// their chapters and files; `JSONDecoder` took most of a sync's time on
/// it). Reading must give exactly what the type's `Decodable` conformance
/// gives, or throw ``JSONReader/Mismatch`` so that `JSONDecoder` decides.
protocol JSONReadable {
    init(reading reader: inout JSONReader) throws(JSONReader.Mismatch)
}

extension JSONReader {
    /// `{"v":1,"success":true,"data":…}` with `data` read as `payload`
    /// (nil when null or absent, as `JSONDecoder` reads it); anything else
    /// (another version, a failure) is a mismatch, left to the general path.
    mutating func successEnvelope(_ payload: any JSONReadable.Type) throws(Mismatch) -> (any JSONReadable)? {
        var object = try beginObject()
        var matcher = Self.envelopeFields.matcher()
        var version: Int64?, success: Bool?, data: (any JSONReadable)?
        while let key = try nextKey(&object) {
            switch try matcher.field(key, in: self) {
            case .v: version = try int64()
            case .success: success = try bool()
            case .data: data = try optional { reader throws(Mismatch) in try payload.init(reading: &reader) }
            case nil: try skipValue()
            }
        }
        guard version == 1, success == true else { throw Mismatch() }
        return data
    }

    private enum EnvelopeField: String, CaseIterable, Sendable {
        case v, success, data
    }

    private static let envelopeFields = JSONFields<EnvelopeField>()

    /// An RFC 3339 time, as ``ListenUpJSON/decoder`` reads dates.
    mutating func date() throws(Mismatch) -> Date {
        guard let date = RFC3339.date(from: try string()) else { throw Mismatch() }
        return date
    }

    /// An array of strings.
    mutating func strings() throws(Mismatch) -> [String] {
        try array { reader throws(Mismatch) in try reader.string() }
    }
}

/// Every field read (and the required ones present), or a mismatch.
private func required<Value>(_ value: Value?) throws(JSONReader.Mismatch) -> Value {
    guard let value else { throw JSONReader.Mismatch() }
    return value
}

extension SyncBooksResponse: JSONReadable {
    private enum Field: String, CaseIterable, Sendable {
        case nextCursor = "next_cursor", books, deletedBookIDs = "deleted_book_ids", hasMore = "has_more"
    }

    private static let fields = JSONFields<Field>()

    init(reading reader: inout JSONReader) throws(JSONReader.Mismatch) {
        var object = try reader.beginObject()
        var matcher = Self.fields.matcher()
        var nextCursor: String?, books: [SyncBook]?, deleted: [String]?, hasMore: Bool?
        while let key = try reader.nextKey(&object) {
            switch try matcher.field(key, in: reader) {
            case .nextCursor: nextCursor = try reader.optional { reader throws(JSONReader.Mismatch) in try reader.string() }
            case .books: books = try reader.array { reader throws(JSONReader.Mismatch) in try SyncBook(reading: &reader) }
            case .deletedBookIDs: deleted = try reader.optional { reader throws(JSONReader.Mismatch) in try reader.strings() }
            case .hasMore: hasMore = try reader.bool()
            case nil: try reader.skipValue()
            }
        }
        self.init(nextCursor: nextCursor, books: try required(books), deletedBookIDs: deleted, hasMore: try required(hasMore))
    }
}

extension SyncBook {
    private enum Field: String, CaseIterable, Sendable {
        case createdAt = "created_at", updatedAt = "updated_at", deletedAt = "deleted_at", id, scannedAt = "scanned_at"
        case coverImage = "cover_image", isbn, title, subtitle, path, description, publisher, publishYear = "publish_year"
        case language, asin, audibleRegion = "audible_region", genreIDs = "genre_ids", series, audioFiles = "audio_files"
        case chapters, totalDuration = "total_duration", totalSize = "total_size", abridged, contributors, author, narrator
        case seriesInfo = "series_info", seriesName = "series_name", genres, tags, revision
    }

    private static let fields = JSONFields<Field>()

    /// One book of a page, as its `Decodable` conformance reads it.
    init(reading reader: inout JSONReader) throws(JSONReader.Mismatch) {
        typealias Mismatch = JSONReader.Mismatch
        var object = try reader.beginObject()
        var matcher = Self.fields.matcher()
        var createdAt: Date?, updatedAt: Date?, deletedAt: Date?, id: String?, scannedAt: Date?, coverImage: CoverImage?
        var isbn: String?, title: String?, subtitle: String?, path: String?, description: String?, publisher: String?
        var publishYear: String?, language: String?, asin: String?, audibleRegion: String?, genreIDs: [String]?
        var series: [SeriesLink]?, audioFiles: [AudioFile]?, chapters: [Chapter]?, totalDuration: Int64?, totalSize: Int64?
        var abridged: Bool?, contributors: [BookContributor]?, author: String?, narrator: String?, seriesInfo: [SeriesInfo]?
        var seriesName: String?, genres: [String]?, tags: [Tag]?, revision: Int64?
        func text(_ reader: inout JSONReader) throws(Mismatch) -> String? {
            try reader.optional { reader throws(Mismatch) in try reader.string() }
        }
        func time(_ reader: inout JSONReader) throws(Mismatch) -> Date? {
            try reader.optional { reader throws(Mismatch) in try reader.date() }
        }
        func texts(_ reader: inout JSONReader) throws(Mismatch) -> [String]? {
            try reader.optional { reader throws(Mismatch) in try reader.strings() }
        }
        while let key = try reader.nextKey(&object) {
            switch try matcher.field(key, in: reader) {
            case .createdAt: createdAt = try reader.date()
            case .updatedAt: updatedAt = try reader.date()
            case .deletedAt: deletedAt = try time(&reader)
            case .id: id = try reader.string()
            case .scannedAt: scannedAt = try time(&reader)
            case .coverImage: coverImage = try reader.optional { reader throws(Mismatch) in try CoverImage(reading: &reader) }
            case .isbn: isbn = try text(&reader)
            case .title: title = try reader.string()
            case .subtitle: subtitle = try text(&reader)
            case .path: path = try reader.string()
            case .description: description = try text(&reader)
            case .publisher: publisher = try text(&reader)
            case .publishYear: publishYear = try text(&reader)
            case .language: language = try text(&reader)
            case .asin: asin = try text(&reader)
            case .audibleRegion: audibleRegion = try text(&reader)
            case .genreIDs: genreIDs = try texts(&reader)
            case .series:
                series = try reader.optional { reader throws(Mismatch) in
                    try reader.array { reader throws(Mismatch) in try SeriesLink(reading: &reader) }
                }
            case .audioFiles: audioFiles = try reader.array { reader throws(Mismatch) in try AudioFile(reading: &reader) }
            case .chapters:
                chapters = try reader.optional { reader throws(Mismatch) in
                    try reader.array { reader throws(Mismatch) in try Chapter(reading: &reader) }
                }
            case .totalDuration: totalDuration = try reader.int64()
            case .totalSize: totalSize = try reader.int64()
            case .abridged: abridged = try reader.optional { reader throws(Mismatch) in try reader.bool() }
            case .contributors: contributors = try reader.array { reader throws(Mismatch) in try BookContributor(reading: &reader) }
            case .author: author = try text(&reader)
            case .narrator: narrator = try text(&reader)
            case .seriesInfo:
                seriesInfo = try reader.optional { reader throws(Mismatch) in
                    try reader.array { reader throws(Mismatch) in try SeriesInfo(reading: &reader) }
                }
            case .seriesName: seriesName = try text(&reader)
            case .genres: genres = try texts(&reader)
            case .tags:
                tags = try reader.optional { reader throws(Mismatch) in
                    try reader.array { reader throws(Mismatch) in try Tag(reading: &reader) }
                }
            case .revision: revision = try reader.optional { reader throws(Mismatch) in try reader.int64() }
            case nil: try reader.skipValue()
            }
        }
        self.init(createdAt: try required(createdAt), updatedAt: try required(updatedAt), id: try required(id),
                  title: try required(title), path: try required(path), audioFiles: try required(audioFiles),
                  totalDuration: try required(totalDuration), totalSize: try required(totalSize),
                  contributors: try required(contributors))
        self.deletedAt = deletedAt
        self.scannedAt = scannedAt
        self.coverImage = coverImage
        self.isbn = isbn
        self.subtitle = subtitle
        self.description = description
        self.publisher = publisher
        self.publishYear = publishYear
        self.language = language
        self.asin = asin
        self.audibleRegion = audibleRegion
        self.genreIDs = genreIDs
        self.series = series
        self.chapters = chapters
        self.revision = revision
        self.abridged = abridged
        self.author = author
        self.narrator = narrator
        self.seriesInfo = seriesInfo
        self.seriesName = seriesName
        self.genres = genres
        self.tags = tags
    }
}

extension CoverImage {
    private enum Field: String, CaseIterable, Sendable {
        case path, filename, format, size, inode, modTime = "mod_time", blurHash = "blur_hash"
    }

    private static let fields = JSONFields<Field>()

    init(reading reader: inout JSONReader) throws(JSONReader.Mismatch) {
        var object = try reader.beginObject()
        var matcher = Self.fields.matcher()
        var path: String?, filename: String?, format: String?, size: Int64?, inode: Int64?, modTime: Int64?, blurHash: String?
        while let key = try reader.nextKey(&object) {
            switch try matcher.field(key, in: reader) {
            case .path: path = try reader.string()
            case .filename: filename = try reader.string()
            case .format: format = try reader.string()
            case .size: size = try reader.int64()
            case .inode: inode = try reader.int64()
            case .modTime: modTime = try reader.int64()
            case .blurHash: blurHash = try reader.optional { reader throws(JSONReader.Mismatch) in try reader.string() }
            case nil: try reader.skipValue()
            }
        }
        self.init(path: try required(path), filename: try required(filename), format: try required(format), size: try required(size),
                  inode: try required(inode), modTime: try required(modTime), blurHash: blurHash)
    }
}

extension AudioFile {
    private enum Field: String, CaseIterable, Sendable {
        case id, path, filename, format, codec, size, duration, bitrate, inode, modTime = "mod_time"
    }

    private static let fields = JSONFields<Field>()

    init(reading reader: inout JSONReader) throws(JSONReader.Mismatch) {
        var object = try reader.beginObject()
        var matcher = Self.fields.matcher()
        var id: String?, path: String?, filename: String?, format: String?, codec: String?, size: Int64?, duration: Int64?
        var bitrate: Int?, inode: Int64?, modTime: Int64?
        while let key = try reader.nextKey(&object) {
            switch try matcher.field(key, in: reader) {
            case .id: id = try reader.string()
            case .path: path = try reader.string()
            case .filename: filename = try reader.string()
            case .format: format = try reader.string()
            case .codec: codec = try reader.optional { reader throws(JSONReader.Mismatch) in try reader.string() }
            case .size: size = try reader.int64()
            case .duration: duration = try reader.int64()
            case .bitrate: bitrate = try reader.optional { reader throws(JSONReader.Mismatch) in try reader.int() }
            case .inode: inode = try reader.int64()
            case .modTime: modTime = try reader.int64()
            case nil: try reader.skipValue()
            }
        }
        self.init(id: try required(id), path: try required(path), filename: try required(filename), format: try required(format),
                  codec: codec, size: try required(size), duration: try required(duration), bitrate: bitrate,
                  inode: try required(inode), modTime: try required(modTime))
    }
}

extension Chapter {
    private enum Field: String, CaseIterable, Sendable {
        case title, audioFileID = "audio_file_id", index, startTime = "start_time", endTime = "end_time"
    }

    private static let fields = JSONFields<Field>()

    init(reading reader: inout JSONReader) throws(JSONReader.Mismatch) {
        var object = try reader.beginObject()
        var matcher = Self.fields.matcher()
        var title: String?, audioFileID: String?, index: Int?, startTime: Int64?, endTime: Int64?
        while let key = try reader.nextKey(&object) {
            switch try matcher.field(key, in: reader) {
            case .title: title = try reader.string()
            case .audioFileID: audioFileID = try reader.string()
            case .index: index = try reader.int()
            case .startTime: startTime = try reader.int64()
            case .endTime: endTime = try reader.int64()
            case nil: try reader.skipValue()
            }
        }
        self.init(title: try required(title), audioFileID: try required(audioFileID), index: try required(index),
                  startTime: try required(startTime), endTime: try required(endTime))
    }
}

extension BookContributor {
    private enum Field: String, CaseIterable, Sendable {
        case contributorID = "contributor_id", name, roles, creditedAs = "credited_as"
    }

    private static let fields = JSONFields<Field>()

    init(reading reader: inout JSONReader) throws(JSONReader.Mismatch) {
        var object = try reader.beginObject()
        var matcher = Self.fields.matcher()
        var contributorID: String?, name: String?, roles: [String]?, creditedAs: String?
        while let key = try reader.nextKey(&object) {
            switch try matcher.field(key, in: reader) {
            case .contributorID: contributorID = try reader.string()
            case .name: name = try reader.string()
            case .roles: roles = try reader.strings()
            case .creditedAs: creditedAs = try reader.optional { reader throws(JSONReader.Mismatch) in try reader.string() }
            case nil: try reader.skipValue()
            }
        }
        self.init(contributorID: try required(contributorID), name: try required(name), roles: try required(roles), creditedAs: creditedAs)
    }
}

extension SeriesLink {
    private enum Field: String, CaseIterable, Sendable {
        case seriesID = "series_id", sequence
    }

    private static let fields = JSONFields<Field>()

    init(reading reader: inout JSONReader) throws(JSONReader.Mismatch) {
        var object = try reader.beginObject()
        var matcher = Self.fields.matcher()
        var seriesID: String?, sequence: String?
        while let key = try reader.nextKey(&object) {
            switch try matcher.field(key, in: reader) {
            case .seriesID: seriesID = try reader.string()
            case .sequence: sequence = try reader.optional { reader throws(JSONReader.Mismatch) in try reader.string() }
            case nil: try reader.skipValue()
            }
        }
        self.init(seriesID: try required(seriesID), sequence: sequence)
    }
}

extension SeriesInfo {
    private enum Field: String, CaseIterable, Sendable {
        case seriesID = "series_id", name, sequence
    }

    private static let fields = JSONFields<Field>()

    init(reading reader: inout JSONReader) throws(JSONReader.Mismatch) {
        var object = try reader.beginObject()
        var matcher = Self.fields.matcher()
        var seriesID: String?, name: String?, sequence: String?
        while let key = try reader.nextKey(&object) {
            switch try matcher.field(key, in: reader) {
            case .seriesID: seriesID = try reader.string()
            case .name: name = try reader.string()
            case .sequence: sequence = try reader.optional { reader throws(JSONReader.Mismatch) in try reader.string() }
            case nil: try reader.skipValue()
            }
        }
        self.init(seriesID: try required(seriesID), name: try required(name), sequence: sequence)
    }
}

extension Tag {
    private enum Field: String, CaseIterable, Sendable {
        case id, slug, bookCount = "book_count"
    }

    private static let fields = JSONFields<Field>()

    init(reading reader: inout JSONReader) throws(JSONReader.Mismatch) {
        var object = try reader.beginObject()
        var matcher = Self.fields.matcher()
        var id: String?, slug: String?, bookCount: Int?
        while let key = try reader.nextKey(&object) {
            switch try matcher.field(key, in: reader) {
            case .id: id = try reader.string()
            case .slug: slug = try reader.string()
            case .bookCount: bookCount = try reader.int()
            case nil: try reader.skipValue()
            }
        }
        self.init(id: try required(id), slug: try required(slug), bookCount: try required(bookCount))
    }
}
