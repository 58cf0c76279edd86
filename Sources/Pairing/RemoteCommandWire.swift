import Foundation

/// How a ``RemoteCommand`` travels: `POST /api/v1/player/<action>` with a
/// strict JSON body. The server reads commands with ``parse(action:body:)``;
/// the companion writes them with ``request(for:)``. Pure (no I/O), usable
/// from any thread.
///
/// | action | body |
/// |---|---|
/// | `play` | none (or `{}`): resume; `{"bookId":"…"}`: play that book |
/// | `pause`, `toggle`, `stop` | none (or `{}`) |
/// | `seek` | `{"positionMs":N}`, a whole number, 0...``RemoteCommand/maxPositionMs`` |
/// | `skip` | `{"seconds":N}`, a whole number within ``RemoteCommand/skipSecondsRange`` |
/// | `chapter` | `{"index":N}`, a whole number, 0 or more |
/// | `rate` | `{"value":X}`, a number within ``RemoteCommand/rateRange`` |
/// | `sleep` | `{"minutes":N}` (within ``RemoteCommand/sleepMinutesRange``), `{"endOfChapter":true}` or `{"off":true}` |
///
/// Every body is an object with exactly the keys shown: an unknown or missing
/// key, a string where a number belongs, a fraction where a whole number
/// belongs, or a value out of range is refused with a message saying which.
enum RemoteCommandWire {
    /// A body that does not fit its action: the message is for the remote's user.
    struct BadBody: Error, Equatable {
        var message: String
    }

    /// The endpoint path and JSON body that carry `command`
    /// (``RemoteCommand/request``), keys sorted.
    static func request(for command: RemoteCommand) -> (path: String, body: [UInt8]) {
        let (action, fields) = command.request
        let path = "/api/v1/player/" + action.rawValue
        guard !fields.isEmpty else { return (path, []) }
        let members = fields.sorted { $0.key < $1.key }.map { key, value in
            let json = switch value {
            case .integer(let number): String(number)
            case .number(let number): "\(number)"
            case .bool(let flag): flag ? "true" : "false"
            case .string(let text): (try? JSONEncoder().encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
            }
            return "\"\(key)\":" + json
        }
        return (path, Array(("{" + members.joined(separator: ",") + "}").utf8))
    }

    /// Reads the command `POST /api/v1/player/<action>` carries.
    /// - Parameters:
    ///   - name: the last path component (a ``RemoteCommand/Action``).
    ///   - body: the request body, possibly empty.
    /// - Returns: the command, or why the body does not fit.
    static func parse(action name: String, body: [UInt8]) -> Result<RemoteCommand, BadBody> {
        guard let action = RemoteCommand.Action(rawValue: name) else {
            return .failure(BadBody(message: "Unknown player command \(name)."))
        }
        let fields: [String: Scalar]
        if body.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
            fields = [:]
        } else {
            guard let object = try? JSONDecoder().decode([String: Scalar].self, from: Data(body)) else {
                return .failure(BadBody(message: "The body must be a JSON object."))
            }
            fields = object
        }
        do {
            switch action {
            case .play:
                if fields.isEmpty { return .success(.play) }
                try expectKeys(fields, ["bookId"], action)
                guard case .string(let id) = fields["bookId"], (1...RemoteCommand.maxBookIDBytes).contains(id.utf8.count),
                      !id.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                    throw BadBody(message: "\"bookId\" must be a string of 1-\(RemoteCommand.maxBookIDBytes) bytes without control characters.")
                }
                return .success(.playBook(bookID: id))
            case .pause:
                try expectKeys(fields, [], action)
                return .success(.pause)
            case .toggle:
                try expectKeys(fields, [], action)
                return .success(.toggle)
            case .stop:
                try expectKeys(fields, [], action)
                return .success(.stop)
            case .seek:
                try expectKeys(fields, ["positionMs"], action)
                let position = try whole(fields, "positionMs", in: 0...Double(RemoteCommand.maxPositionMs),
                                         "a whole number of milliseconds from 0 to \(RemoteCommand.maxPositionMs)")
                return .success(.seek(positionMs: Int64(position)))
            case .skip:
                try expectKeys(fields, ["seconds"], action)
                let range = RemoteCommand.skipSecondsRange
                let seconds = try whole(fields, "seconds", in: Double(range.lowerBound)...Double(range.upperBound),
                                        "a whole number of seconds from \(range.lowerBound) to \(range.upperBound)")
                return .success(.skip(seconds: Int(seconds)))
            case .chapter:
                try expectKeys(fields, ["index"], action)
                let index = try whole(fields, "index", in: 0...1_000_000, "a whole number, 0 for the first chapter")
                return .success(.chapter(index: Int(index)))
            case .rate:
                try expectKeys(fields, ["value"], action)
                let range = RemoteCommand.rateRange
                guard case .number(let value) = fields["value"], range.contains(value) else {
                    throw BadBody(message: "\"value\" must be a number from \(range.lowerBound) to \(range.upperBound).")
                }
                return .success(.rate(value))
            case .sleep:
                return .success(.sleep(try sleep(fields)))
            }
        } catch let error as BadBody {
            return .failure(error)
        } catch {
            return .failure(BadBody(message: "\(error)"))
        }
    }

    private static func sleep(_ fields: [String: Scalar]) throws -> RemoteCommand.Sleep {
        let usage = "Send exactly one of {\"minutes\":N}, {\"endOfChapter\":true} or {\"off\":true}."
        guard fields.count == 1, let (key, value) = fields.first else { throw BadBody(message: usage) }
        switch key {
        case "minutes":
            let range = RemoteCommand.sleepMinutesRange
            let minutes = try whole(fields, "minutes", in: Double(range.lowerBound)...Double(range.upperBound),
                                    "a whole number of minutes from \(range.lowerBound) to \(range.upperBound)")
            return .minutes(Int(minutes))
        case "endOfChapter", "off":
            guard value == .bool(true) else { throw BadBody(message: "\"\(key)\" must be true. " + usage) }
            return key == "off" ? .off : .endOfChapter
        default:
            throw BadBody(message: "Unknown field \"\(key)\". " + usage)
        }
    }

    private static func expectKeys(_ fields: [String: Scalar], _ keys: Set<String>, _ action: RemoteCommand.Action) throws {
        guard Set(fields.keys) != keys else { return }
        if keys.isEmpty { throw BadBody(message: "\(action.rawValue) takes no body (or {}).") }
        let expected = keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
        if let unknown = fields.keys.sorted().first(where: { !keys.contains($0) }) {
            throw BadBody(message: "Unknown field \"\(unknown)\"; \(action.rawValue) takes exactly \(expected).")
        }
        throw BadBody(message: "Missing field; \(action.rawValue) takes exactly \(expected).")
    }

    private static func whole(_ fields: [String: Scalar], _ key: String, in range: ClosedRange<Double>, _ what: String) throws -> Double {
        guard case .number(let value) = fields[key], value.rounded() == value, range.contains(value) else {
            throw BadBody(message: "\"\(key)\" must be \(what).")
        }
        return value
    }

    /// One JSON value of a body, as strictly typed as JSON is: `true` is not 1, `"5"` is not 5.
    enum Scalar: Decodable, Equatable {
        case bool(Bool), number(Double), string(String), null, composite

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode(Double.self) {
                self = value.isFinite ? .number(value) : .composite
            } else if let value = try? container.decode(String.self) {
                self = .string(value)
            } else {
                self = .composite
            }
        }
    }
}
