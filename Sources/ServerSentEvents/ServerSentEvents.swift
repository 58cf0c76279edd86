/// One server-sent event: the REST v1 server's live events
/// (`/api/v1/sync/events`, contract §11.3) and the pairing server's player
/// events (`/api/v1/player/events`).
public struct ServerSentEvent: Equatable, Sendable {
    /// `event:`; `message` when the frame has none.
    public var type: String
    /// The `data:` lines joined with `\n`.
    public var data: String
    /// `id:` (the last one the stream gave, as the standard keeps it; only
    /// replayed REST events carry one).
    public var id: String?

    /// An event.
    public init(type: String, data: String, id: String? = nil) {
        self.type = type
        self.data = data
        self.id = id
    }
}

/// One thing read from a `text/event-stream` body: an event, or a comment
/// line (`: heartbeat`), which keeps a stream alive and says nothing else.
public enum ServerSentEventItem: Equatable, Sendable {
    /// A dispatched event.
    case event(ServerSentEvent)
    /// A comment line, without the colon and one leading space.
    case comment(String)
}

/// Turns a byte stream into events, as the HTML standard's event-stream
/// parser does: lines end in LF, CR or CRLF; a blank line dispatches the
/// event; lines starting with `:` are comments; `field: value` drops one
/// leading space; `id` is kept (one holding NUL is ignored), `retry` and
/// unknown fields are dropped. Feed it bytes as they arrive; it keeps
/// partial lines. The one parser of the REST client (`APIClient`) and the
/// companion's pairing client. A value type; no I/O; any thread.
public struct ServerSentEventParser: Sendable {
    /// An event bigger than this is dropped (a hostile or broken server must
    /// not grow memory without bound).
    public var maxEventBytes: Int

    private var line: [UInt8] = []
    private var lastWasCR = false
    private var type = ""
    private var data: [String] = []
    private var id: String?
    private var size = 0

    /// An empty parser.
    public init(maxEventBytes: Int = 1 << 20) {
        self.maxEventBytes = maxEventBytes
    }

    /// Parses `bytes`; returns the events they complete (comments dropped).
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        feedItems(bytes).compactMap { item in
            guard case .event(let event) = item else { return nil }
            return event
        }
    }

    /// Parses `bytes`; returns the events and comments they complete, in order.
    public mutating func feedItems(_ bytes: some Sequence<UInt8>) -> [ServerSentEventItem] {
        var items: [ServerSentEventItem] = []
        for byte in bytes {
            if lastWasCR, byte == UInt8(ascii: "\n") {
                lastWasCR = false
                continue
            }
            lastWasCR = byte == UInt8(ascii: "\r")
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                if let item = endLine() { items.append(item) }
            } else {
                line.append(byte)
            }
        }
        return items
    }

    private mutating func endLine() -> ServerSentEventItem? {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty {
            defer { type = ""; data = []; size = 0 }
            guard !data.isEmpty, size <= maxEventBytes else { return nil }
            return .event(ServerSentEvent(type: type.isEmpty ? "message" : type, data: data.joined(separator: "\n"), id: id))
        }
        let text = String(decoding: line, as: UTF8.self)
        if line.first == UInt8(ascii: ":") {
            let comment = text.dropFirst()
            return .comment(String(comment.first == " " ? comment.dropFirst() : comment))
        }
        size += line.count
        let field: Substring
        var value: Substring
        if let colon = text.firstIndex(of: ":") {
            field = text[..<colon]
            value = text[text.index(after: colon)...]
            if value.first == " " { value = value.dropFirst() }
        } else {
            field = Substring(text)
            value = ""
        }
        switch field {
        case "event": type = String(value)
        case "data": if size <= maxEventBytes { data.append(String(value)) }
        case "id": if !value.contains("\0") { id = String(value) }
        default: break // `retry` and unknown fields
        }
        return nil
    }
}
