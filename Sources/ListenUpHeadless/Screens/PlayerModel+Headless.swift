import Foundation
import JSONToolkit
import ListenUpCore

extension PlayerModel: HeadlessScreen {
    /// `{"bookId","status","positionMs","durationMs","chapterIndex",
    /// "chapterTitle","rate","volume","volumeBoostDb","finished",
    /// "sleepRemainingMs","skipBackSeconds","skipForwardSeconds"}`, with `code` and `message` when the status is
    /// `error`.
    var snapshot: JSONValue {
        var state: [String: JSONValue] = [
            "bookId": .optional(nowPlaying?.bookID),
            "title": .optional(nowPlaying?.title),
            "status": .string(status.rawValue),
            "positionMs": .number(Double(position)),
            "durationMs": .number(Double(nowPlaying?.duration ?? 0)),
            "chapterIndex": chapterIndex.map { .number(Double($0)) } ?? .null,
            "chapterTitle": .optional(chapter?.title),
            "rate": .number(rate),
            "volume": .number(volume),
            "volumeBoostDb": .number(volumeBoostDb),
            "finished": .bool(finished),
            "sleepRemainingMs": sleepRemaining.map { .number(Double($0)) } ?? .null,
            "skipBackSeconds": .number(Double(skipBackSeconds)),
            "skipForwardSeconds": .number(Double(skipForwardSeconds)),
        ]
        if status == .error, let failure {
            state["code"] = .string(failure.code)
            state["message"] = .string(failure.message)
        }
        return .object(state)
    }

    /// Headless: `play {bookId}`, `pause`, `resume`, `stop`, `seek
    /// {positionMs}`, `skip {seconds}`, `chapter {index}` (0-based), `rate
    /// {value}`, `volume {value}`, `boost {db}` (0–12), `sleepTimer {minutes}|{endOfChapter:
    /// true}|{off: true}`, `markFinished {bookId, finished}`.
    func handle(_ command: ScreenCommand) -> Bool {
        let arguments = command.arguments
        func number(_ key: String) -> Double? { arguments[key]?.doubleValue }
        switch command.action {
        case "play":
            guard let bookID = arguments["bookId"]?.stringValue, !bookID.isEmpty else { return false }
            send(.play(bookID: bookID))
        case "pause": send(.pause)
        case "resume": send(.resume)
        case "stop": send(.stop)
        case "seek":
            guard let position = number("positionMs"), position.isFinite else { return false }
            send(.seek(Int64(position)))
        case "skip":
            guard let seconds = number("seconds"), seconds.isFinite, abs(seconds) < 1_000_000 else { return false }
            send(.skip(seconds: Int(seconds)))
        case "chapter":
            guard let index = number("index"), index.isFinite, index >= 0, index < 1_000_000 else { return false }
            send(.chapter(Int(index)))
        case "rate":
            guard let value = number("value"), value.isFinite else { return false }
            send(.rate(value))
        case "volume":
            guard let value = number("value"), value.isFinite else { return false }
            send(.volume(value))
        case "boost":
            guard let decibels = number("db"), ListeningRules.boostRange.contains(decibels) else { return false }
            send(.boost(decibels))
        case "sleepTimer":
            if arguments["off"]?.boolValue == true {
                send(.sleep(nil))
            } else if arguments["endOfChapter"]?.boolValue == true {
                send(.sleep(.endOfChapter))
            } else if let minutes = number("minutes"), minutes.isFinite, minutes >= 1, minutes <= 24 * 60 {
                send(.sleep(.minutes(Int(minutes))))
            } else {
                return false
            }
        case "takeOffer": send(.takeOffer)
        case "markFinished":
            guard let bookID = arguments["bookId"]?.stringValue, !bookID.isEmpty else { return false }
            send(.markFinished(bookID: bookID, finished: arguments["finished"]?.boolValue ?? true))
        default: return false
        }
        return true
    }
}
