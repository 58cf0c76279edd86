/// What `PlaybackService.prepare` returns (§3.6): signed URLs for a book.
///
/// URLs are server-relative (`/api/v1/audio/…?u=&exp=&sig=`): prefix the
/// HTTP base URL. They carry their own signature (no token) and expire
/// after 12 h; on a 403, prepare again.
public struct PreparedPlayback: Codable, Sendable, Equatable {
    /// The book.
    public var bookId: String
    /// The files in play order.
    public var audioFiles: [PreparedAudioFile]
    /// The caller's position, or nil (always present on the wire).
    public var resumePosition: PlaybackPositionSyncPayload?
    /// Signed cover URL (`/api/v1/cover-cast/…`), usable as an MPRIS art URL (default nil).
    public var coverUrl: String?
    /// True when a codec was excluded but the server cannot transcode (default false).
    public var transcodeUnavailable: Bool

    /// Creates a prepared playback; each parameter sets the property of the same name.
    public init(bookId: String, audioFiles: [PreparedAudioFile], resumePosition: PlaybackPositionSyncPayload? = nil,
                coverUrl: String? = nil, transcodeUnavailable: Bool = false) {
        self.bookId = bookId
        self.audioFiles = audioFiles
        self.resumePosition = resumePosition
        self.coverUrl = coverUrl
        self.transcodeUnavailable = transcodeUnavailable
    }

    private enum CodingKeys: String, CodingKey {
        case bookId, audioFiles, resumePosition, coverUrl, transcodeUnavailable
    }

    /// Decodes a prepared playback, filling the Kotlin defaults.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(bookId: try c.decode(String.self, forKey: .bookId),
                  audioFiles: try c.decode([PreparedAudioFile].self, forKey: .audioFiles),
                  resumePosition: try c.decodeIfPresent(PlaybackPositionSyncPayload.self, forKey: .resumePosition),
                  coverUrl: try c.decodeIfPresent(String.self, forKey: .coverUrl),
                  transcodeUnavailable: try c.decode(.transcodeUnavailable, default: false))
    }
}

/// One playable file of a ``PreparedPlayback``.
public struct PreparedAudioFile: Codable, Sendable, Equatable {
    /// The file's id.
    public var fileId: String
    /// Play order.
    public var index: Int
    /// Server-relative signed URL for direct play (supports `Range`, not `HEAD`).
    public var url: String
    /// Container, e.g. `m4b`.
    public var format: String
    /// Milliseconds.
    public var durationMs: Int64
    /// Bytes.
    public var sizeBytes: Int64
    /// Signed HLS master playlist, set only when the server transcodes (default nil).
    public var hlsUrl: String?

    /// Creates a file; each parameter sets the property of the same name.
    public init(fileId: String, index: Int, url: String, format: String, durationMs: Int64, sizeBytes: Int64,
                hlsUrl: String? = nil) {
        self.fileId = fileId
        self.index = index
        self.url = url
        self.format = format
        self.durationMs = durationMs
        self.sizeBytes = sizeBytes
        self.hlsUrl = hlsUrl
    }
}

/// A codec the client decodes itself (`CodecCapability`, §3.6), for
/// `prepare`'s `capabilities`. Open: unknown names are kept.
public struct CodecCapability: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The name as sent, e.g. `"aac_lc"`.
    public let rawValue: String
    /// Wraps a name.
    /// - Parameter rawValue: the wire name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Every name the v0.9 server knows.
    public static let all: [CodecCapability] = ["mp3", "aac_lc", "aac_he", "aac_he_v2", "aac_xhe", "flac", "opus",
                                                "vorbis", "alac", "ac4"].map(CodecCapability.init(rawValue:))
    /// The name.
    public var description: String { rawValue }
}

/// `PlaybackService.recordPosition(request)`'s argument (§3.6). Idempotent;
/// the latest `lastPlayedAt` wins.
///
/// Encodes every key: `currentChapterId` is required even when nil.
public struct RecordPositionRequest: Codable, Sendable, Equatable {
    /// The book.
    public var bookId: String
    /// Milliseconds from the start of the book.
    public var positionMs: Int64
    /// Epoch milliseconds.
    public var lastPlayedAt: Int64
    /// Whether the book is finished.
    public var finished: Bool
    /// e.g. 1.25; must be finite.
    public var playbackSpeed: Double
    /// The chapter at the position, or nil (sent as `null`).
    public var currentChapterId: String?
    /// Volume boost in dB (Kotlin default 0).
    public var volumeBoostDb: Double
    /// Measured loudness gain in dB (Kotlin default nil).
    public var measuredGainDb: Double?

    /// Creates a request; each parameter sets the property of the same name.
    public init(bookId: String, positionMs: Int64, lastPlayedAt: Int64, finished: Bool, playbackSpeed: Double,
                currentChapterId: String?, volumeBoostDb: Double = 0, measuredGainDb: Double? = nil) {
        self.bookId = bookId
        self.positionMs = positionMs
        self.lastPlayedAt = lastPlayedAt
        self.finished = finished
        self.playbackSpeed = playbackSpeed
        self.currentChapterId = currentChapterId
        self.volumeBoostDb = volumeBoostDb
        self.measuredGainDb = measuredGainDb
    }

    private enum CodingKeys: String, CodingKey {
        case bookId, positionMs, lastPlayedAt, finished, playbackSpeed, currentChapterId, volumeBoostDb, measuredGainDb
    }

    /// Decodes a request, filling the Kotlin defaults (for fake servers).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(bookId: try c.decode(String.self, forKey: .bookId), positionMs: try c.decode(Int64.self, forKey: .positionMs),
                  lastPlayedAt: try c.decode(Int64.self, forKey: .lastPlayedAt), finished: try c.decode(Bool.self, forKey: .finished),
                  playbackSpeed: try c.decode(Double.self, forKey: .playbackSpeed),
                  currentChapterId: try c.decodeIfPresent(String.self, forKey: .currentChapterId),
                  volumeBoostDb: try c.decode(.volumeBoostDb, default: 0),
                  measuredGainDb: try c.decodeIfPresent(Double.self, forKey: .measuredGainDb))
    }

    /// Writes every key, `null` for nil.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(bookId, forKey: .bookId)
        try c.encode(positionMs, forKey: .positionMs)
        try c.encode(lastPlayedAt, forKey: .lastPlayedAt)
        try c.encode(finished, forKey: .finished)
        try c.encode(playbackSpeed, forKey: .playbackSpeed)
        try c.encode(currentChapterId, forKey: .currentChapterId)
        try c.encode(volumeBoostDb, forKey: .volumeBoostDb)
        try c.encode(measuredGainDb, forKey: .measuredGainDb)
    }
}

/// `PlaybackService.recordListeningEvent(request)`'s argument (§3.6).
/// Idempotent by `id`.
///
/// Encodes every key: `deviceLabel` is required even when nil.
public struct RecordListeningEventRequest: Codable, Sendable, Equatable {
    /// A client-generated UUID.
    public var id: String
    /// The book.
    public var bookId: String
    /// Milliseconds from the start of the book.
    public var startPositionMs: Int64
    /// Milliseconds from the start of the book.
    public var endPositionMs: Int64
    /// Epoch milliseconds.
    public var startedAt: Int64
    /// Epoch milliseconds.
    public var endedAt: Int64
    /// e.g. 1.25; must be finite.
    public var playbackSpeed: Double
    /// IANA time zone; a non-blank value updates the user's zone.
    public var tz: String
    /// The device's label, or nil (sent as `null`).
    public var deviceLabel: String?

    /// Creates a request; each parameter sets the property of the same name.
    public init(id: String, bookId: String, startPositionMs: Int64, endPositionMs: Int64, startedAt: Int64,
                endedAt: Int64, playbackSpeed: Double, tz: String, deviceLabel: String?) {
        self.id = id
        self.bookId = bookId
        self.startPositionMs = startPositionMs
        self.endPositionMs = endPositionMs
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.playbackSpeed = playbackSpeed
        self.tz = tz
        self.deviceLabel = deviceLabel
    }

    private enum CodingKeys: String, CodingKey {
        case id, bookId, startPositionMs, endPositionMs, startedAt, endedAt, playbackSpeed, tz, deviceLabel
    }

    /// Writes every key, `null` for nil.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(bookId, forKey: .bookId)
        try c.encode(startPositionMs, forKey: .startPositionMs)
        try c.encode(endPositionMs, forKey: .endPositionMs)
        try c.encode(startedAt, forKey: .startedAt)
        try c.encode(endedAt, forKey: .endedAt)
        try c.encode(playbackSpeed, forKey: .playbackSpeed)
        try c.encode(tz, forKey: .tz)
        try c.encode(deviceLabel, forKey: .deviceLabel)
    }
}
