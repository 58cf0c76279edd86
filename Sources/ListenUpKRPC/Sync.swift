import JSONToolkit

/// One page of `SyncStreamService.pullDomain` / `pullByIds` (§3.4).
///
/// Each item is a JSON **string** holding one payload of the domain's type,
/// with no `type` key; decode them with ``decodeItems(as:)``.
public struct SyncPage: Codable, Sendable, Equatable {
    /// The domain pulled, e.g. `books`.
    public var domain: String
    /// The payloads, each as JSON text. Tombstones have a non-null `deletedAt`.
    public var items: [String]
    /// The cursor to store; null when `items` is empty.
    public var nextCursor: Int64?
    /// Whether to pull again. A full last page still says true; the next,
    /// empty page says false (§6.5).
    public var hasMore: Bool

    /// Creates a page; each parameter sets the property of the same name.
    public init(domain: String, items: [String], nextCursor: Int64?, hasMore: Bool) {
        self.domain = domain
        self.items = items
        self.nextCursor = nextCursor
        self.hasMore = hasMore
    }

    /// Decodes every item as `Payload`.
    /// - Parameter payload: the domain's payload type, e.g. ``BookSyncPayload``.
    /// - Returns: the payloads, in page order.
    /// - Throws: ``KRPCDecodingError`` for the first item that does not
    ///   decode, its path starting `items[<index>]`.
    public func decodeItems<Payload: Decodable>(as payload: Payload.Type) throws(KRPCDecodingError) -> [Payload] {
        var result: [Payload] = []
        result.reserveCapacity(items.count)
        let readable = Payload.self as? any JSONReadable.Type
        for (index, item) in items.enumerated() {
            // Books are read by hand (the same payload, or JSONDecoder decides).
            if let readable, let read = JSONReader.read(item, { reader throws(JSONReadError) in try readable.init(reading: &reader) }),
               let value = read as? Payload {
                result.append(value)
                continue
            }
            do {
                result.append(try KRPCJSON.decode(payload, from: item))
            } catch {
                throw error.prefixed(by: "items[\(index)]")
            }
        }
        return result
    }
}

/// One element of `observeEvents` (§3.4): a domain event or, for domain
/// `control`, a ``SyncControl``. `json` is a third JSON layer.
public struct SyncFrame: Codable, Sendable, Equatable {
    /// A domain name, or `control`.
    public var domain: String
    /// The event's global revision; nil (omitted) on control frames.
    public var revision: Int64?
    /// A `SyncEvent` (domain frames) or a `SyncControl` (control frames), as JSON text.
    public var json: String

    /// Creates a frame; each parameter sets the property of the same name.
    public init(domain: String, revision: Int64? = nil, json: String) {
        self.domain = domain
        self.revision = revision
        self.json = json
    }

    /// Whether this is a control frame (domain `control`).
    public var isControl: Bool { domain == SyncDomain.control.rawValue }

    /// Decodes `json` as a control message.
    /// - Returns: the control; an unknown control type is ``SyncControl/unknown(type:)``.
    /// - Throws: ``KRPCDecodingError``.
    public func control() throws(KRPCDecodingError) -> SyncControl {
        try KRPCJSON.decode(SyncControl.self, from: json)
    }

    /// Decodes `json` as a domain event carrying `Payload`.
    /// - Parameter payload: the domain's payload type.
    /// - Returns: the event.
    /// - Throws: ``KRPCDecodingError``.
    public func event<Payload: Decodable>(as payload: Payload.Type) throws(KRPCDecodingError) -> SyncEvent<Payload> {
        try KRPCJSON.decode(SyncEvent<Payload>.self, from: json)
    }
}

/// A change to one row of a domain (§3.4):
/// `{"type":"SyncEvent.Created"|"SyncEvent.Updated",id,revision,occurredAt,clientOpId?,payload}`
/// or `{"type":"SyncEvent.Deleted",id,revision,occurredAt,clientOpId?}`.
public struct SyncEvent<Payload> {
    /// What happened.
    public enum Change {
        /// `SyncEvent.Created`, with the new row.
        case created(Payload)
        /// `SyncEvent.Updated`, with the whole row.
        case updated(Payload)
        /// `SyncEvent.Deleted`.
        case deleted
        /// A `SyncEvent` type this build does not know; skip it.
        case unknown(type: String)
    }

    /// The row's id.
    public var id: String
    /// The global revision at write time.
    public var revision: Int64
    /// Epoch milliseconds.
    public var occurredAt: Int64
    /// The client operation that caused it, when one did (default nil).
    public var clientOpId: String?
    /// What happened.
    public var change: Change

    /// Creates an event; each parameter sets the property of the same name.
    public init(id: String, revision: Int64, occurredAt: Int64, clientOpId: String? = nil, change: Change) {
        self.id = id
        self.revision = revision
        self.occurredAt = occurredAt
        self.clientOpId = clientOpId
        self.change = change
    }

    /// The row carried by a create or update; nil otherwise.
    public var payload: Payload? {
        switch change {
        case .created(let payload), .updated(let payload): return payload
        case .deleted, .unknown: return nil
        }
    }
}

extension SyncEvent.Change: Sendable where Payload: Sendable {}
extension SyncEvent.Change: Equatable where Payload: Equatable {}
extension SyncEvent: Sendable where Payload: Sendable {}
extension SyncEvent: Equatable where Payload: Equatable {}

extension SyncEvent: Decodable where Payload: Decodable {
    private enum CodingKeys: String, CodingKey {
        case type, id, revision, occurredAt, clientOpId, payload
    }

    /// Decodes by `type`; the fields shared by every type are required.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        let change: Change
        switch type {
        case "SyncEvent.Created": change = .created(try container.decode(Payload.self, forKey: .payload))
        case "SyncEvent.Updated": change = .updated(try container.decode(Payload.self, forKey: .payload))
        case "SyncEvent.Deleted": change = .deleted
        default: change = .unknown(type: type)
        }
        self.init(id: try container.decode(String.self, forKey: .id),
                  revision: try container.decode(Int64.self, forKey: .revision),
                  occurredAt: try container.decode(Int64.self, forKey: .occurredAt),
                  clientOpId: try container.decodeIfPresent(String.self, forKey: .clientOpId),
                  change: change)
    }
}

/// `SyncStreamService.digest` (§3.4): a cheap drift check of one domain.
public struct DomainDigest: Codable, Sendable, Equatable {
    /// The cursor the digest was computed at.
    public var cursor: Int64
    /// Rows that are not deleted.
    public var count: Int64
    /// `"sha256:" + hex(SHA-256(sorted "<id>|<revision>\n"))`, or `""` for an empty domain.
    public var hash: String

    /// Creates a digest; each parameter sets the property of the same name.
    public init(cursor: Int64, count: Int64, hash: String) {
        self.cursor = cursor
        self.count = count
        self.hash = hash
    }
}
