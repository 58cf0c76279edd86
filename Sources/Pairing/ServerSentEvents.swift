/// One thing read from a `text/event-stream` body.
public enum ServerSentEvent: Sendable, Equatable {
    /// A dispatched event: its `event:` name (`message` when none was given) and
    /// its `data:` lines joined with newlines.
    case event(name: String, data: String)
    /// A comment line (`: heartbeat`), without the colon and one leading space.
    case comment(String)
}

/// Reads Server-Sent Events (the WHATWG "event stream" format) from bytes as
/// they arrive: lines end with LF, CRLF or CR; an empty line dispatches the
/// event; `id` and `retry` are read and dropped. A value type; no I/O.
public struct ServerSentEventParser: Sendable {
    private var line: [UInt8] = []
    private var lastWasCR = false
    private var name = ""
    private var data: [String] = []

    /// An empty parser.
    public init() {}

    /// Consumes `bytes`; returns what they completed, in order.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var out: [ServerSentEvent] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n"), lastWasCR {
                lastWasCR = false
                continue
            }
            lastWasCR = byte == UInt8(ascii: "\r")
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                if let item = finishLine() { out.append(item) }
            } else {
                line.append(byte)
            }
        }
        return out
    }

    private mutating func finishLine() -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty {
            defer {
                name = ""
                data = []
            }
            guard !data.isEmpty else { return nil }
            return .event(name: name.isEmpty ? "message" : name, data: data.joined(separator: "\n"))
        }
        let text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix(":") {
            let comment = text.dropFirst()
            return .comment(String(comment.hasPrefix(" ") ? comment.dropFirst() : comment))
        }
        let field: Substring
        var value: Substring = ""
        if let colon = text.firstIndex(of: ":") {
            field = text[..<colon]
            value = text[text.index(after: colon)...]
            if value.hasPrefix(" ") { value = value.dropFirst() }
        } else {
            field = Substring(text)
        }
        switch field {
        case "event": name = String(value)
        case "data": data.append(String(value))
        default: break
        }
        return nil
    }
}
