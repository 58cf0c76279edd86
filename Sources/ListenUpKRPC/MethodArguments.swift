// The argument objects of the methods in ``KRPCMethod`` (§3): keyed by the
// Kotlin parameter names, encoded with ``KRPCJSON/encode(_:)`` into
// `CallData.data`.
//
// Every parameter is always sent, defaulted and nullable ones included
// (`null` when nil): the pinned kRPC build fails a call whose non-null
// parameter is absent, even when Kotlin gives it a default (§2.4.1).

/// No arguments: `{}` (`getServerInfo`, `logout`, `currentUser`, `listDomains`).
public struct NoArguments: Encodable, Sendable, Equatable {
    /// The empty argument object.
    public init() {}

    /// Writes `{}`.
    public func encode(to encoder: any Encoder) throws {
        _ = encoder.container(keyedBy: AnyCodingKey.self)
    }
}

/// `{"request":…}`: `setupRoot`, `login`, `register`, `refreshSession`,
/// `recordPosition`, `recordListeningEvent`.
public struct RequestArguments<Request: Encodable & Sendable>: Encodable, Sendable {
    /// The request DTO.
    public var request: Request

    /// Wraps a request.
    /// - Parameter request: the DTO, e.g. a ``LoginRequest``.
    public init(_ request: Request) {
        self.request = request
    }
}

/// `pullDomain(domain, since, limit)`: `{"domain":"books","since":0,"limit":100}`.
public struct PullDomainArguments: Encodable, Sendable, Equatable {
    /// The domain.
    public var domain: String
    /// The stored cursor; 0 for a first pull.
    public var since: Int64
    /// Page size, clamped by the server to 1…5000; the official client uses 100.
    public var limit: Int

    /// Creates the arguments; each parameter sets the property of the same name.
    public init(domain: String, since: Int64, limit: Int = 100) {
        self.domain = domain
        self.since = since
        self.limit = limit
    }
}

/// `pullByIds(domain, match, ids)`: at most 100 ids.
public struct PullByIdsArguments: Encodable, Sendable, Equatable {
    /// The domain.
    public var domain: String
    /// Which column `ids` name.
    public var match: TargetedMatch
    /// The ids (more than 100 gives `SyncError.TooManyIds`).
    public var ids: [String]

    /// Creates the arguments; each parameter sets the property of the same name.
    public init(domain: String, match: TargetedMatch, ids: [String]) {
        self.domain = domain
        self.match = match
        self.ids = ids
    }
}

/// `digest(domain, cursor)`.
public struct DigestArguments: Encodable, Sendable, Equatable {
    /// The domain.
    public var domain: String
    /// The cursor to digest at.
    public var cursor: Int64

    /// Creates the arguments; each parameter sets the property of the same name.
    public init(domain: String, cursor: Int64) {
        self.domain = domain
        self.cursor = cursor
    }
}

/// `observeEvents(sinceRevision)`: `{"sinceRevision":4711}`, or
/// `{"sinceRevision":null}` for "from the retention floor".
public struct ObserveEventsArguments: Encodable, Sendable, Equatable {
    /// The highest revision already applied, or nil.
    public var sinceRevision: Int64?

    /// Creates the arguments.
    /// - Parameter sinceRevision: the highest revision applied, or nil.
    public init(sinceRevision: Int64?) {
        self.sinceRevision = sinceRevision
    }

    private enum CodingKeys: String, CodingKey { case sinceRevision }

    /// Writes `sinceRevision`, `null` included.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(sinceRevision, forKey: .sinceRevision)
    }
}

/// `prepare(bookId, capabilities, forceTranscode)`:
/// `{"bookId":…,"capabilities":null,"forceTranscode":false}`.
public struct PrepareArguments: Encodable, Sendable, Equatable {
    /// The book.
    public var bookId: String
    /// nil (sent as `null`) means direct-play everything, which a GStreamer
    /// client wants; `[]` means transcode everything (§6.3).
    public var capabilities: [CodecCapability]?
    /// Ask for HLS even when direct play works.
    public var forceTranscode: Bool

    /// Creates the arguments; each parameter sets the property of the same name.
    public init(bookId: String, capabilities: [CodecCapability]? = nil, forceTranscode: Bool = false) {
        self.bookId = bookId
        self.capabilities = capabilities
        self.forceTranscode = forceTranscode
    }

    private enum CodingKeys: String, CodingKey { case bookId, capabilities, forceTranscode }

    /// Writes every key, `capabilities` as `null` when nil.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(bookId, forKey: .bookId)
        try c.encode(capabilities, forKey: .capabilities)
        try c.encode(forceTranscode, forKey: .forceTranscode)
    }
}

/// `getPosition(bookId)`: `{"bookId":…}`.
public struct BookIdArguments: Encodable, Sendable, Equatable {
    /// The book; must not be blank (the server's `BookId` requires it).
    public var bookId: String

    /// Creates the arguments.
    /// - Parameter bookId: the book.
    public init(bookId: String) {
        self.bookId = bookId
    }
}

/// `getBook(id)`: `{"id":…}`.
public struct GetBookArguments: Encodable, Sendable, Equatable {
    /// The book; must not be blank.
    public var id: String

    /// Creates the arguments.
    /// - Parameter id: the book.
    public init(id: String) {
        self.id = id
    }
}

/// `getRecentlyListened(limit)`: `{"limit":20}`; the limit is always sent.
public struct LimitArguments: Encodable, Sendable, Equatable {
    /// Clamped by the server to 1…100 for recently listened.
    public var limit: Int

    /// Creates the arguments.
    /// - Parameter limit: the Kotlin default of `getRecentlyListened` is 20.
    public init(limit: Int = 20) {
        self.limit = limit
    }
}
