import Foundation

/// A value ``JSONReader`` reads by hand on the sync's hot path: a page of
/// `pullDomain("books")` is one frame holding an `AppResult` holding a
/// `SyncPage` holding hundreds of books, each JSON text of its own, and
/// `JSONDecoder` took most of a first sync's time on those three layers.
/// Reading must give exactly what the type's `Decodable` conformance gives,
/// or throw ``JSONReader/Mismatch`` so that `JSONDecoder` decides.
protocol JSONReadable {
    init(reading reader: inout JSONReader) throws(JSONReader.Mismatch)
}

/// A required field read, or a mismatch (`JSONDecoder` reports the missing key).
private func required<Value>(_ value: Value?) throws(JSONReader.Mismatch) -> Value {
    guard let value else { throw JSONReader.Mismatch() }
    return value
}

extension JSONReader {
    /// An optional string (`decodeIfPresent`: null or absent is nil).
    fileprivate mutating func optionalString() throws(Mismatch) -> String? {
        try optional { reader throws(Mismatch) in try reader.string() }
    }

    /// `{"type":"Success","data":…}` with `data` read as `payload`;
    /// a failure or an unknown type is a mismatch, left to `JSONDecoder`.
    mutating func successResult(_ payload: any JSONReadable.Type) throws(Mismatch) -> any JSONReadable {
        var object = try beginObject()
        var matcher = Self.resultFields.matcher()
        var type: String?, data: (any JSONReadable)?
        while let key = try nextKey(&object) {
            switch try matcher.field(key, in: self) {
            case .type: type = try string()
            case .data: data = try payload.init(reading: &self)
            case .error, nil: try skipValue()
            }
        }
        guard type == "Success", let data else { throw Mismatch() }
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

    init(reading reader: inout JSONReader) throws(JSONReader.Mismatch) {
        var object = try reader.beginObject()
        var matcher = Self.fields.matcher()
        var domain: String?, items: [String]?, nextCursor: Int64?, hasMore: Bool?
        while let key = try reader.nextKey(&object) {
            switch try matcher.field(key, in: reader) {
            case .domain: domain = try reader.string()
            case .items: items = try reader.array { reader throws(JSONReader.Mismatch) in try reader.string() }
            case .nextCursor: nextCursor = try reader.optional { reader throws(JSONReader.Mismatch) in try reader.int64() }
            case .hasMore: hasMore = try reader.bool()
            case nil: try reader.skipValue()
            }
        }
        self.init(domain: try required(domain), items: try required(items), nextCursor: nextCursor, hasMore: try required(hasMore))
    }
}

extension KRPCMessage {
    private enum Field: String, CaseIterable, Sendable {
        case type, callId, serviceType, data, connectionId, serviceId, pluginParams
    }

    private static let fields = JSONFields<Field>()

    /// A `CallSuccess` frame (what answers every unary call, sync pages
    /// included) read by hand; any other message, or `pluginParams` that
    /// are not empty, is a mismatch left to `JSONDecoder`.
    static func callSuccess(reading reader: inout JSONReader) throws(JSONReader.Mismatch) -> KRPCMessage {
        var object = try reader.beginObject()
        var matcher = fields.matcher()
        var type: String?, callId: String?, serviceType: String?, data: String?, connectionId: Int64?, serviceId: Int64?
        while let key = try reader.nextKey(&object) {
            switch try matcher.field(key, in: reader) {
            case .type: type = try reader.string()
            case .callId: callId = try reader.string()
            case .serviceType: serviceType = try reader.string()
            case .data: data = try reader.string()
            case .connectionId: connectionId = try reader.optional { reader throws(JSONReader.Mismatch) in try reader.int64() }
            case .serviceId: serviceId = try reader.optional { reader throws(JSONReader.Mismatch) in try reader.int64() }
            case .pluginParams:
                // null or {} are no parameters; any other is read by the general path.
                if try reader.readNull() { continue }
                var params = try reader.beginObject()
                guard try reader.nextKey(&params) == nil else { throw JSONReader.Mismatch() }
            case nil: try reader.skipValue()
            }
        }
        guard type == KRPCMessageType.callSuccess else { throw JSONReader.Mismatch() }
        return .callSuccess(KRPCCallSuccess(callId: try required(callId), serviceType: try required(serviceType),
                                            data: try required(data), connectionId: connectionId, serviceId: serviceId))
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
    init(reading reader: inout JSONReader) throws(JSONReader.Mismatch) {
        typealias Mismatch = JSONReader.Mismatch
        var object = try reader.beginObject()
        var matcher = Self.fields.matcher()
        var id: String?, libraryId: String?, folderId: String?, title: String?, sortTitle: String?, subtitle: String?
        var description: String?, publishYear: Int?, publisher: String?, language: String?, isbn: String?, asin: String?
        var abridged: Bool?, explicit: Bool?, hasScanWarning: Bool?, totalDuration: Int64?, cover: CoverPayload?
        var rootRelPath: String?, inode: Int64?, scannedAt: Int64?, contributors: [BookContributorPayload]?
        var series: [BookSeriesPayload]?, genres: [BookGenrePayload]?, audioFiles: [BookAudioFilePayload]?
        var documents: [BookDocumentPayload]?, chapters: [BookChapterPayload]?, chapterSource: ChapterSource?
        var fieldProvenance: [String: FieldProvenancePayload]?, normalizationGainDb: Double?, revision: Int64?
        var updatedAt: Int64?, createdAt: Int64?, deletedAt: Int64?
        while let key = try reader.nextKey(&object) {
            switch try matcher.field(key, in: reader) {
            case .id: id = try reader.string()
            case .libraryId: libraryId = try reader.string()
            case .folderId: folderId = try reader.string()
            case .title: title = try reader.string()
            case .sortTitle: sortTitle = try reader.optionalString()
            case .subtitle: subtitle = try reader.optionalString()
            case .description: description = try reader.optionalString()
            case .publishYear: publishYear = try reader.optional { reader throws(Mismatch) in try reader.int() }
            case .publisher: publisher = try reader.optionalString()
            case .language: language = try reader.optionalString()
            case .isbn: isbn = try reader.optionalString()
            case .asin: asin = try reader.optionalString()
            case .abridged: abridged = try reader.bool()
            case .explicit: explicit = try reader.bool()
            case .hasScanWarning: hasScanWarning = try reader.optional { reader throws(Mismatch) in try reader.bool() }
            case .totalDuration: totalDuration = try reader.int64()
            case .cover: cover = try reader.optional { reader throws(Mismatch) in try CoverPayload(reading: &reader) }
            case .rootRelPath: rootRelPath = try reader.string()
            case .inode: inode = try reader.optional { reader throws(Mismatch) in try reader.int64() }
            case .scannedAt: scannedAt = try reader.int64()
            case .contributors:
                contributors = try reader.array { reader throws(Mismatch) in try BookContributorPayload(reading: &reader) }
            case .series: series = try reader.array { reader throws(Mismatch) in try BookSeriesPayload(reading: &reader) }
            case .genres:
                genres = try reader.optional { reader throws(Mismatch) in
                    try reader.array { reader throws(Mismatch) in try BookGenrePayload(reading: &reader) }
                }
            case .audioFiles: audioFiles = try reader.array { reader throws(Mismatch) in try BookAudioFilePayload(reading: &reader) }
            case .documents:
                documents = try reader.optional { reader throws(Mismatch) in
                    try reader.array { reader throws(Mismatch) in try BookDocumentPayload(reading: &reader) }
                }
            case .chapters: chapters = try reader.array { reader throws(Mismatch) in try BookChapterPayload(reading: &reader) }
            case .chapterSource:
                chapterSource = try reader.optional { reader throws(Mismatch) in ChapterSource(rawValue: try reader.string()) }
            case .fieldProvenance:
                fieldProvenance = try reader.optional { reader throws(Mismatch) in try Self.provenance(&reader) }
            case .normalizationGainDb: normalizationGainDb = try reader.optional { reader throws(Mismatch) in try reader.double() }
            case .revision: revision = try reader.int64()
            case .updatedAt: updatedAt = try reader.int64()
            case .createdAt: createdAt = try reader.int64()
            case .deletedAt: deletedAt = try reader.optional { reader throws(Mismatch) in try reader.int64() }
            case nil: try reader.skipValue()
            }
        }
        self.init(id: try required(id), libraryId: try required(libraryId), folderId: try required(folderId),
                  title: try required(title), totalDuration: try required(totalDuration), rootRelPath: try required(rootRelPath),
                  scannedAt: try required(scannedAt), revision: try required(revision), updatedAt: try required(updatedAt),
                  createdAt: try required(createdAt))
        self.sortTitle = sortTitle
        self.subtitle = subtitle
        self.description = description
        self.publishYear = publishYear
        self.publisher = publisher
        self.language = language
        self.isbn = isbn
        self.asin = asin
        self.abridged = try required(abridged)
        self.explicit = try required(explicit)
        self.hasScanWarning = hasScanWarning ?? false
        self.cover = cover
        self.inode = inode
        self.contributors = try required(contributors)
        self.series = try required(series)
        self.genres = genres ?? []
        self.audioFiles = try required(audioFiles)
        self.documents = documents ?? []
        self.chapters = try required(chapters)
        self.chapterSource = chapterSource ?? .embedded
        self.fieldProvenance = fieldProvenance ?? [:]
        self.normalizationGainDb = normalizationGainDb
        self.deletedAt = deletedAt
    }

    /// `fieldProvenance`: an object of provenances by field name.
    private static func provenance(_ reader: inout JSONReader) throws(JSONReader.Mismatch) -> [String: FieldProvenancePayload] {
        var object = try reader.beginObject()
        var result: [String: FieldProvenancePayload] = [:]
        while let key = try reader.nextKey(&object) {
            let name = reader.text(of: key)
            // A key twice: which one `JSONDecoder` keeps is its own business.
            guard result[name] == nil else { throw JSONReader.Mismatch() }
            result[name] = try FieldProvenancePayload(reading: &reader)
        }
        return result
    }
}

extension CoverPayload {
    private enum Field: String, CaseIterable, Sendable {
        case source, hash
    }

    private static let fields = JSONFields<Field>()

    init(reading reader: inout JSONReader) throws(JSONReader.Mismatch) {
        var object = try reader.beginObject()
        var matcher = Self.fields.matcher()
        var source: String?, hash: String?
        while let key = try reader.nextKey(&object) {
            switch try matcher.field(key, in: reader) {
            case .source: source = try reader.string()
            case .hash: hash = try reader.string()
            case nil: try reader.skipValue()
            }
        }
        self.init(source: CoverSource(rawValue: try required(source)), hash: try required(hash))
    }
}

extension BookContributorPayload {
    private enum Field: String, CaseIterable, Sendable {
        case id, name, sortName, role, creditedAs
    }

    private static let fields = JSONFields<Field>()

    init(reading reader: inout JSONReader) throws(JSONReader.Mismatch) {
        var object = try reader.beginObject()
        var matcher = Self.fields.matcher()
        var id: String?, name: String?, sortName: String?, role: String?, creditedAs: String?
        while let key = try reader.nextKey(&object) {
            switch try matcher.field(key, in: reader) {
            case .id: id = try reader.string()
            case .name: name = try reader.string()
            case .sortName: sortName = try reader.optionalString()
            case .role: role = try reader.string()
            case .creditedAs: creditedAs = try reader.optionalString()
            case nil: try reader.skipValue()
            }
        }
        self.init(id: try required(id), name: try required(name), sortName: sortName,
                  role: ContributorRole(rawValue: try required(role)), creditedAs: creditedAs)
    }
}

extension BookSeriesPayload {
    private enum Field: String, CaseIterable, Sendable {
        case id, name, sequence
    }

    private static let fields = JSONFields<Field>()

    init(reading reader: inout JSONReader) throws(JSONReader.Mismatch) {
        var object = try reader.beginObject()
        var matcher = Self.fields.matcher()
        var id: String?, name: String?, sequence: Double?
        while let key = try reader.nextKey(&object) {
            switch try matcher.field(key, in: reader) {
            case .id: id = try reader.string()
            case .name: name = try reader.string()
            case .sequence: sequence = try Self.sequence(&reader)
            case nil: try reader.skipValue()
            }
        }
        self.init(id: try required(id), name: try required(name), sequence: sequence)
    }

    /// `sequence` as `init(from:)` reads it through `JSONValue`: a number,
    /// a label's leading number, nil for null, a Boolean, an object or an array.
    private static func sequence(_ reader: inout JSONReader) throws(JSONReader.Mismatch) -> Double? {
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

extension BookGenrePayload {
    private enum Field: String, CaseIterable, Sendable {
        case id, name, slug, path
    }

    private static let fields = JSONFields<Field>()

    init(reading reader: inout JSONReader) throws(JSONReader.Mismatch) {
        var object = try reader.beginObject()
        var matcher = Self.fields.matcher()
        var id: String?, name: String?, slug: String?, path: String?
        while let key = try reader.nextKey(&object) {
            switch try matcher.field(key, in: reader) {
            case .id: id = try reader.string()
            case .name: name = try reader.string()
            case .slug: slug = try reader.string()
            case .path: path = try reader.string()
            case nil: try reader.skipValue()
            }
        }
        self.init(id: try required(id), name: try required(name), slug: try required(slug), path: try required(path))
    }
}

extension BookAudioFilePayload {
    private enum Field: String, CaseIterable, Sendable {
        case id, index, filename, format, codec, duration, size, codecProfile, spatial, bitrate, sampleRate, channels
    }

    private static let fields = JSONFields<Field>()

    init(reading reader: inout JSONReader) throws(JSONReader.Mismatch) {
        typealias Mismatch = JSONReader.Mismatch
        var object = try reader.beginObject()
        var matcher = Self.fields.matcher()
        var id: String?, index: Int?, filename: String?, format: String?, codec: String?, duration: Int64?, size: Int64?
        var codecProfile: String?, spatial: String?, bitrate: Int?, sampleRate: Int?, channels: Int?
        while let key = try reader.nextKey(&object) {
            switch try matcher.field(key, in: reader) {
            case .id: id = try reader.string()
            case .index: index = try reader.int()
            case .filename: filename = try reader.string()
            case .format: format = try reader.string()
            case .codec: codec = try reader.string()
            case .duration: duration = try reader.int64()
            case .size: size = try reader.int64()
            case .codecProfile: codecProfile = try reader.optionalString()
            case .spatial: spatial = try reader.optionalString()
            case .bitrate: bitrate = try reader.optional { reader throws(Mismatch) in try reader.int() }
            case .sampleRate: sampleRate = try reader.optional { reader throws(Mismatch) in try reader.int() }
            case .channels: channels = try reader.optional { reader throws(Mismatch) in try reader.int() }
            case nil: try reader.skipValue()
            }
        }
        self.init(id: try required(id), index: try required(index), filename: try required(filename), format: try required(format),
                  codec: try required(codec), duration: try required(duration), size: try required(size), codecProfile: codecProfile,
                  spatial: spatial, bitrate: bitrate, sampleRate: sampleRate, channels: channels)
    }
}

extension BookDocumentPayload {
    private enum Field: String, CaseIterable, Sendable {
        case id, index, filename, format, size, hash
    }

    private static let fields = JSONFields<Field>()

    init(reading reader: inout JSONReader) throws(JSONReader.Mismatch) {
        var object = try reader.beginObject()
        var matcher = Self.fields.matcher()
        var id: String?, index: Int?, filename: String?, format: String?, size: Int64?, hash: String?
        while let key = try reader.nextKey(&object) {
            switch try matcher.field(key, in: reader) {
            case .id: id = try reader.string()
            case .index: index = try reader.int()
            case .filename: filename = try reader.string()
            case .format: format = try reader.string()
            case .size: size = try reader.int64()
            case .hash: hash = try reader.string()
            case nil: try reader.skipValue()
            }
        }
        self.init(id: try required(id), index: try required(index), filename: try required(filename), format: try required(format),
                  size: try required(size), hash: try required(hash))
    }
}

extension BookChapterPayload {
    private enum Field: String, CaseIterable, Sendable {
        case id, title, duration, startTime
    }

    private static let fields = JSONFields<Field>()

    init(reading reader: inout JSONReader) throws(JSONReader.Mismatch) {
        var object = try reader.beginObject()
        var matcher = Self.fields.matcher()
        var id: String?, title: String?, duration: Int64?, startTime: Int64?
        while let key = try reader.nextKey(&object) {
            switch try matcher.field(key, in: reader) {
            case .id: id = try reader.string()
            case .title: title = try reader.string()
            case .duration: duration = try reader.int64()
            case .startTime: startTime = try reader.int64()
            case nil: try reader.skipValue()
            }
        }
        self.init(id: try required(id), title: try required(title), duration: try required(duration),
                  startTime: try required(startTime))
    }
}

extension FieldProvenancePayload {
    private enum Field: String, CaseIterable, Sendable {
        case kind, provider, at
    }

    private static let fields = JSONFields<Field>()

    init(reading reader: inout JSONReader) throws(JSONReader.Mismatch) {
        var object = try reader.beginObject()
        var matcher = Self.fields.matcher()
        var kind: String?, provider: String?, at: Int64?
        while let key = try reader.nextKey(&object) {
            switch try matcher.field(key, in: reader) {
            case .kind: kind = try reader.string()
            case .provider: provider = try reader.optionalString()
            case .at: at = try reader.optional { reader throws(JSONReader.Mismatch) in try reader.int64() }
            case nil: try reader.skipValue()
            }
        }
        self.init(kind: try required(kind), provider: provider, at: at ?? 0)
    }
}
