import Foundation
import JSONToolkit

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
        var body = JSONWriter.object(capacity: 32)
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
            switch value {
            case .integer(let number): body.integer(key, number)
            case .number(let number): body.raw(key, "\(number)")
            case .bool(let flag): body.bool(key, flag)
            case .string(let text): body.string(key, text)
            }
        }
        return (path, body.finishedBytes())
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
        let fields: [String: JSONValue]
        if body.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
            fields = [:]
        } else {
            guard let object = (try? JSONValue(parsing: Data(body)))?.objectValue else {
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
                guard let value = fields["value"]?.doubleValue, range.contains(value) else {
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

    private static func sleep(_ fields: [String: JSONValue]) throws -> RemoteCommand.Sleep {
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

    private static func expectKeys(_ fields: [String: JSONValue], _ keys: Set<String>, _ action: RemoteCommand.Action) throws {
        guard Set(fields.keys) != keys else { return }
        if keys.isEmpty { throw BadBody(message: "\(action.rawValue) takes no body (or {}).") }
        let expected = keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
        if let unknown = fields.keys.sorted().first(where: { !keys.contains($0) }) {
            throw BadBody(message: "Unknown field \"\(unknown)\"; \(action.rawValue) takes exactly \(expected).")
        }
        throw BadBody(message: "Missing field; \(action.rawValue) takes exactly \(expected).")
    }

    private static func whole(_ fields: [String: JSONValue], _ key: String, in range: ClosedRange<Double>, _ what: String) throws -> Double {
        guard let value = fields[key]?.doubleValue, value.rounded() == value, range.contains(value) else {
            throw BadBody(message: "\"\(key)\" must be \(what).")
        }
        return value
    }
}
