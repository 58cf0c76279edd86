import Foundation
import JSONToolkit
import ListenUpCore

extension PlayerModel: HeadlessScreen {
    /// `{"bookId","status","positionMs","durationMs","chapterIndex",
    /// "chapterTitle","rate","volume","volumeBoostDb","finished",
    /// "sleepRemainingMs","skipBackSeconds","skipForwardSeconds"}`, with `code` and `message` when the status is
    /// `error`. (Its commands are the session's, taken on every signed-in
    /// screen: ``HeadlessCommand/playerIntent``.)
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
            state["code"] = .string(failure.code.rawValue)
            state["message"] = .string(failure.message)
        }
        return .object(state)
    }
}
