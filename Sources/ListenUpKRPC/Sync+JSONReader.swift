import Foundation
import JSONToolkit

// Values ``JSONReader`` reads by hand on the sync's hot path: a page of
// `pullDomain("books")` is one frame holding an `AppResult` holding a
// `SyncPage` holding hundreds of books, each JSON text of its own, and
// `JSONDecoder` took most of a first sync's time on those three layers.
// Reading must give exactly what the type's `Decodable` conformance gives,
// or throw so that `JSONDecoder` decides.

extension JSONReader {
    /// `{"type":"Success","data":…}` with `data` read as `payload`;
    /// a failure or an unknown type is an error, left to `JSONDecoder`.
    mutating func successResult(_ payload: any JSONReadable.Type) throws(JSONReadError) -> any JSONReadable {
        var type: String?, data: (any JSONReadable)?
        try object(Self.resultFields) { field, reader throws(JSONReadError) in
            switch field {
            case .type: type = try reader.string()
            case .data: data = try payload.init(reading: &reader)
            case .error: try reader.skipValue()
            }
        }
        guard type == "Success", let data else { throw failure(.unsupported) }
        return data
    }

    private enum ResultField: String, CaseIterable, Sendable {
        case type, data, error
    }

    private static let resultFields = JSONFields<ResultField>()
}

extension SyncPage: JSONReadable {
    private enum Field: String, CaseIterable, Sendable {
        case domain, items, nextCursor, hasMore
    }

    private static let fields = JSONFields<Field>()

    public init(reading reader: inout JSONReader) throws(JSONReadError) {
        var domain: String?, items: [String]?, nextCursor: Int64?, hasMore: Bool?
        try reader.object(Self.fields) { field, reader throws(JSONReadError) in
            switch field {
            case .domain: domain = try reader.string()
            case .items: items = try reader.strings()
            case .nextCursor: nextCursor = try reader.optionalInt64()
            case .hasMore: hasMore = try reader.bool()
            }
        }
        self.init(domain: try reader.required(domain), items: try reader.required(items), nextCursor: nextCursor,
                  hasMore: try reader.required(hasMore))
    }
}

extension KRPCMessage {
    private enum Field: String, CaseIterable, Sendable {
        case type, callId, serviceType, data, connectionId, serviceId, pluginParams
    }

    private static let fields = JSONFields<Field>()

    /// A `CallSuccess` frame (what answers every unary call, sync pages
    /// included) read by hand; any other message, or `pluginParams` that
    /// are not empty, is an error left to `JSONDecoder`.
    static func callSuccess(reading reader: inout JSONReader) throws(JSONReadError) -> KRPCMessage {
        var type: String?, callId: String?, serviceType: String?, data: String?, connectionId: Int64?, serviceId: Int64?
        try reader.object(fields) { field, reader throws(JSONReadError) in
            switch field {
            case .type: type = try reader.string()
            case .callId: callId = try reader.string()
            case .serviceType: serviceType = try reader.string()
            case .data: data = try reader.string()
            case .connectionId: connectionId = try reader.optionalInt64()
            case .serviceId: serviceId = try reader.optionalInt64()
            case .pluginParams:
                // null or {} are no parameters; any other is read by the general path.
                if try reader.readNull() { return }
                var params = try reader.beginObject()
                guard try reader.nextKey(&params) == nil else { throw reader.failure(.unsupported) }
            }
        }
        guard type == KRPCMessageType.callSuccess else { throw reader.failure(.unsupported) }
        return .callSuccess(KRPCCallSuccess(callId: try reader.required(callId), serviceType: try reader.required(serviceType),
                                            data: try reader.required(data), connectionId: connectionId, serviceId: serviceId))
    }
}

extension BookSyncPayload: JSONReadable {
    private enum Field: String, CaseIterable, Sendable {
        case id, libraryId, folderId, title, sortTitle, subtitle, description, publishYear, publisher, language, isbn, asin
        case abridged, explicit, hasScanWarning, totalDuration, cover, rootRelPath, inode, scannedAt, contributors, series
        case genres, audioFiles, documents, chapters, chapterSource, fieldProvenance, normalizationGainDb, revision
        case updatedAt, createdAt, deletedAt
    }

    private static let fields = JSONFields<Field>()

    /// One book, as `init(from:)` decodes it (Kotlin defaults for omitted fields).
    public init(reading reader: inout JSONReader) throws(JSONReadError) {
        var id: String?, libraryId: String?, folderId: String?, title: String?, totalDuration: Int64?, rootRelPath: String?
        var scannedAt: Int64?, revision: Int64?, updatedAt: Int64?, createdAt: Int64?, abridged: Bool?, explicit: Bool?
        var contributors: [BookContributorPayload]?, series: [BookSeriesPayload]?, audioFiles: [BookAudioFilePayload]?
        var chapters: [BookChapterPayload]?
        var book = BookSyncPayload(id: "", libraryId: "", folderId: "", title: "", totalDuration: 0, rootRelPath: "", scannedAt: 0,
                                   revision: 0, updatedAt: 0, createdAt: 0)
        try reader.object(Self.fields) { field, reader throws(JSONReadError) in
            switch field {
            case .id: id = try reader.string()
            case .libraryId: libraryId = try reader.string()
            case .folderId: folderId = try reader.string()
            case .title: title = try reader.string()
            case .sortTitle: book.sortTitle = try reader.optionalString()
            case .subtitle: book.subtitle = try reader.optionalString()
            case .description: book.description = try reader.optionalString()
            case .publishYear: book.publishYear = try reader.optionalInt()
            case .publisher: book.publisher = try reader.optionalString()
            case .language: book.language = try reader.optionalString()
            case .isbn: book.isbn = try reader.optionalString()
            case .asin: book.asin = try reader.optionalString()
            case .abridged: abridged = try reader.bool()
            case .explicit: explicit = try reader.bool()
            case .hasScanWarning: book.hasScanWarning = try reader.optionalBool() ?? false
            case .totalDuration: totalDuration = try reader.int64()
            case .cover: book.cover = try reader.optional(CoverPayload.self)
            case .rootRelPath: rootRelPath = try reader.string()
            case .inode: book.inode = try reader.optionalInt64()
            case .scannedAt: scannedAt = try reader.int64()
            case .contributors: contributors = try reader.array(of: BookContributorPayload.self)
            case .series: series = try reader.array(of: BookSeriesPayload.self)
            case .genres: book.genres = try reader.optionalArray(of: BookGenrePayload.self) ?? []
            case .audioFiles: audioFiles = try reader.array(of: BookAudioFilePayload.self)
            case .documents: book.documents = try reader.optionalArray(of: BookDocumentPayload.self) ?? []
            case .chapters: chapters = try reader.array(of: BookChapterPayload.self)
            case .chapterSource:
                book.chapterSource = try reader.optional { reader throws(JSONReadError) in ChapterSource(rawValue: try reader.string()) }
                    ?? .embedded
            case .fieldProvenance: book.fieldProvenance = try reader.optional(Self.provenance) ?? [:]
            case .normalizationGainDb: book.normalizationGainDb = try reader.optionalDouble()
            case .revision: revision = try reader.int64()
            case .updatedAt: updatedAt = try reader.int64()
            case .createdAt: createdAt = try reader.int64()
            case .deletedAt: book.deletedAt = try reader.optionalInt64()
            }
        }
        book.id = try reader.required(id)
        book.libraryId = try reader.required(libraryId)
        book.folderId = try reader.required(folderId)
        book.title = try reader.required(title)
        book.totalDuration = try reader.required(totalDuration)
        book.rootRelPath = try reader.required(rootRelPath)
        book.scannedAt = try reader.required(scannedAt)
        book.revision = try reader.required(revision)
        book.updatedAt = try reader.required(updatedAt)
        book.createdAt = try reader.required(createdAt)
        book.abridged = try reader.required(abridged)
        book.explicit = try reader.required(explicit)
        book.contributors = try reader.required(contributors)
        book.series = try reader.required(series)
        book.audioFiles = try reader.required(audioFiles)
        book.chapters = try reader.required(chapters)
        self = book
    }

    /// `fieldProvenance`: an object of provenances by field name.
    private static func provenance(_ reader: inout JSONReader) throws(JSONReadError) -> [String: FieldProvenancePayload] {
        var object = try reader.beginObject()
        var result: [String: FieldProvenancePayload] = [:]
        while true {
            let start = reader.offset
            guard let key = try reader.nextKey(&object) else { break }
            let name = reader.text(of: key)
            // A key twice: which one `JSONDecoder` keeps is its own business.
            guard result[name] == nil else { throw JSONReadError(.duplicateKey, at: start) }
            result[name] = try FieldProvenancePayload(reading: &reader)
        }
        return result
    }
}

extension CoverPayload: JSONReadable {
    private enum Field: String, CaseIterable, Sendable {
        case source, hash
    }

    private static let fields = JSONFields<Field>()

    public init(reading reader: inout JSONReader) throws(JSONReadError) {
        var source: String?, hash: String?
        try reader.object(Self.fields) { field, reader throws(JSONReadError) in
            switch field {
            case .source: source = try reader.string()
            case .hash: hash = try reader.string()
            }
        }
        self.init(source: CoverSource(rawValue: try reader.required(source)), hash: try reader.required(hash))
    }
}

extension BookContributorPayload: JSONReadable {
    private enum Field: String, CaseIterable, Sendable {
        case id, name, sortName, role, creditedAs
    }

    private static let fields = JSONFields<Field>()

    public init(reading reader: inout JSONReader) throws(JSONReadError) {
        var id: String?, name: String?, sortName: String?, role: String?, creditedAs: String?
        try reader.object(Self.fields) { field, reader throws(JSONReadError) in
            switch field {
            case .id: id = try reader.string()
            case .name: name = try reader.string()
            case .sortName: sortName = try reader.optionalString()
            case .role: role = try reader.string()
            case .creditedAs: creditedAs = try reader.optionalString()
            }
        }
        self.init(id: try reader.required(id), name: try reader.required(name), sortName: sortName,
                  role: ContributorRole(rawValue: try reader.required(role)), creditedAs: creditedAs)
    }
}

extension BookSeriesPayload: JSONReadable {
    private enum Field: String, CaseIterable, Sendable {
        case id, name, sequence
    }

    private static let fields = JSONFields<Field>()

    public init(reading reader: inout JSONReader) throws(JSONReadError) {
        var id: String?, name: String?, sequence: Double?
        try reader.object(Self.fields) { field, reader throws(JSONReadError) in
            switch field {
            case .id: id = try reader.string()
            case .name: name = try reader.string()
            case .sequence: sequence = try Self.sequence(&reader)
            }
        }
        self.init(id: try reader.required(id), name: try reader.required(name), sequence: sequence)
    }

    /// `sequence` as `init(from:)` reads it through `JSONValue`: a number,
    /// a label's leading number, nil for null, a Boolean, an object or an array.
    private static func sequence(_ reader: inout JSONReader) throws(JSONReadError) -> Double? {
        switch try reader.peek() {
        case UInt8(ascii: "\""):
            return parseSequence(try reader.string())
        case UInt8(ascii: "n"), UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "{"), UInt8(ascii: "["):
            try reader.skipValue()
            return nil
        default:
            // JSONValue tries Int64 before Double.
            var whole = reader
            if let value = try? whole.int64() {
                reader = whole
                return Double(value)
            }
            return try reader.double()
        }
    }
}

extension BookGenrePayload: JSONReadable {
    private enum Field: String, CaseIterable, Sendable {
        case id, name, slug, path
    }

    private static let fields = JSONFields<Field>()

    public init(reading reader: inout JSONReader) throws(JSONReadError) {
        var id: String?, name: String?, slug: String?, path: String?
        try reader.object(Self.fields) { field, reader throws(JSONReadError) in
            switch field {
            case .id: id = try reader.string()
            case .name: name = try reader.string()
            case .slug: slug = try reader.string()
            case .path: path = try reader.string()
            }
        }
        self.init(id: try reader.required(id), name: try reader.required(name), slug: try reader.required(slug),
                  path: try reader.required(path))
    }
}

extension BookAudioFilePayload: JSONReadable {
    private enum Field: String, CaseIterable, Sendable {
        case id, index, filename, format, codec, duration, size, codecProfile, spatial, bitrate, sampleRate, channels
    }

    private static let fields = JSONFields<Field>()

    public init(reading reader: inout JSONReader) throws(JSONReadError) {
        var id: String?, index: Int?, filename: String?, format: String?, codec: String?, duration: Int64?, size: Int64?
        var codecProfile: String?, spatial: String?, bitrate: Int?, sampleRate: Int?, channels: Int?
        try reader.object(Self.fields) { field, reader throws(JSONReadError) in
            switch field {
            case .id: id = try reader.string()
            case .index: index = try reader.int()
            case .filename: filename = try reader.string()
            case .format: format = try reader.string()
            case .codec: codec = try reader.string()
            case .duration: duration = try reader.int64()
            case .size: size = try reader.int64()
            case .codecProfile: codecProfile = try reader.optionalString()
            case .spatial: spatial = try reader.optionalString()
            case .bitrate: bitrate = try reader.optionalInt()
            case .sampleRate: sampleRate = try reader.optionalInt()
            case .channels: channels = try reader.optionalInt()
            }
        }
        self.init(id: try reader.required(id), index: try reader.required(index), filename: try reader.required(filename),
                  format: try reader.required(format), codec: try reader.required(codec), duration: try reader.required(duration),
                  size: try reader.required(size), codecProfile: codecProfile, spatial: spatial, bitrate: bitrate,
                  sampleRate: sampleRate, channels: channels)
    }
}

extension BookDocumentPayload: JSONReadable {
    private enum Field: String, CaseIterable, Sendable {
        case id, index, filename, format, size, hash
    }

    private static let fields = JSONFields<Field>()

    public init(reading reader: inout JSONReader) throws(JSONReadError) {
        var id: String?, index: Int?, filename: String?, format: String?, size: Int64?, hash: String?
        try reader.object(Self.fields) { field, reader throws(JSONReadError) in
            switch field {
            case .id: id = try reader.string()
            case .index: index = try reader.int()
            case .filename: filename = try reader.string()
            case .format: format = try reader.string()
            case .size: size = try reader.int64()
            case .hash: hash = try reader.string()
            }
        }
        self.init(id: try reader.required(id), index: try reader.required(index), filename: try reader.required(filename),
                  format: try reader.required(format), size: try reader.required(size), hash: try reader.required(hash))
    }
}

extension BookChapterPayload: JSONReadable {
    private enum Field: String, CaseIterable, Sendable {
        case id, title, duration, startTime
    }

    private static let fields = JSONFields<Field>()

    public init(reading reader: inout JSONReader) throws(JSONReadError) {
        var id: String?, title: String?, duration: Int64?, startTime: Int64?
        try reader.object(Self.fields) { field, reader throws(JSONReadError) in
            switch field {
            case .id: id = try reader.string()
            case .title: title = try reader.string()
            case .duration: duration = try reader.int64()
            case .startTime: startTime = try reader.int64()
            }
        }
        self.init(id: try reader.required(id), title: try reader.required(title), duration: try reader.required(duration),
                  startTime: try reader.required(startTime))
    }
}

extension FieldProvenancePayload: JSONReadable {
    private enum Field: String, CaseIterable, Sendable {
        case kind, provider, at
    }

    private static let fields = JSONFields<Field>()

    public init(reading reader: inout JSONReader) throws(JSONReadError) {
        var kind: String?, provider: String?, at: Int64?
        try reader.object(Self.fields) { field, reader throws(JSONReadError) in
            switch field {
            case .kind: kind = try reader.string()
            case .provider: provider = try reader.optionalString()
            case .at: at = try reader.optionalInt64()
            }
        }
        self.init(kind: try reader.required(kind), provider: provider, at: at ?? 0)
    }
}
