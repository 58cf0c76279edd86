/// One audio file of a book (`BookAudioFilePayload`). The stream fields
/// default to nil when older servers omit them.
public struct BookAudioFilePayload: Codable, Sendable, Equatable {
    /// The file's id (used in audio URLs).
    public var id: String
    /// Play order.
    public var index: Int
    /// The file name.
    public var filename: String
    /// Container, e.g. `m4b`.
    public var format: String
    /// Codec, e.g. `aac`.
    public var codec: String
    /// Milliseconds.
    public var duration: Int64
    /// Bytes.
    public var size: Int64
    /// AAC profile (`lc`, `he`, `hev2`, `xhe`), when known.
    public var codecProfile: String?
    /// Spatial-audio marker, e.g. `atmos`.
    public var spatial: String?
    /// Bits per second.
    public var bitrate: Int?
    /// Hz.
    public var sampleRate: Int?
    /// Channel count.
    public var channels: Int?

    /// Creates a file; each parameter sets the property of the same name.
    public init(id: String, index: Int, filename: String, format: String, codec: String, duration: Int64, size: Int64,
                codecProfile: String? = nil, spatial: String? = nil, bitrate: Int? = nil, sampleRate: Int? = nil,
                channels: Int? = nil) {
        self.id = id
        self.index = index
        self.filename = filename
        self.format = format
        self.codec = codec
        self.duration = duration
        self.size = size
        self.codecProfile = codecProfile
        self.spatial = spatial
        self.bitrate = bitrate
        self.sampleRate = sampleRate
        self.channels = channels
    }
}

/// A supplementary document of a book, e.g. a PDF (`BookDocumentPayload`).
public struct BookDocumentPayload: Codable, Sendable, Equatable {
    /// The document's id.
    public var id: String
    /// Display order.
    public var index: Int
    /// Path relative to the book folder.
    public var filename: String
    /// Lowercase extension, e.g. `pdf`.
    public var format: String
    /// Bytes.
    public var size: Int64
    /// SHA-256 hex of the contents.
    public var hash: String

    /// Creates a document; each parameter sets the property of the same name.
    public init(id: String, index: Int, filename: String, format: String, size: Int64, hash: String) {
        self.id = id
        self.index = index
        self.filename = filename
        self.format = format
        self.size = size
        self.hash = hash
    }
}

/// One chapter (`BookChapterPayload`); times count from the start of the book.
public struct BookChapterPayload: Codable, Sendable, Equatable {
    /// The chapter's id (sent back as `currentChapterId`).
    public var id: String
    /// The title.
    public var title: String
    /// Milliseconds.
    public var duration: Int64
    /// Milliseconds from the start of the book.
    public var startTime: Int64

    /// Creates a chapter; each parameter sets the property of the same name.
    public init(id: String, title: String, duration: Int64, startTime: Int64) {
        self.id = id
        self.title = title
        self.duration = duration
        self.startTime = startTime
    }
}

/// Who last wrote one metadata field of a book (`FieldProvenance`).
public struct FieldProvenancePayload: Codable, Sendable, Equatable {
    /// The writer's tier, e.g. `SCAN`, `ENRICHMENT`, `USER`.
    public var kind: String
    /// The metadata provider, when one wrote it (default nil).
    public var provider: String?
    /// Epoch milliseconds (default 0).
    public var at: Int64

    /// Creates a provenance; each parameter sets the property of the same name.
    public init(kind: String, provider: String? = nil, at: Int64 = 0) {
        self.kind = kind
        self.provider = provider
        self.at = at
    }

    private enum CodingKeys: String, CodingKey {
        case kind, provider, at
    }

    /// Decodes a provenance, filling the Kotlin defaults.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(kind: try c.decode(String.self, forKey: .kind),
                  provider: try c.decodeIfPresent(String.self, forKey: .provider),
                  at: try c.decode(.at, default: 0))
    }
}
