import Foundation
import JSONToolkit
import ListenUpCore

/// The headless form of *Recent Positions* (signed in):
///
/// - `{"action":"recentPositions"}` prints
///   `{"event":"recentPositions","bookId":…,"positions":[{"positionMs":…,"leftAt":"<RFC 3339>"}…]}`:
///   where the book loaded was before its last jumps, newest first (at
///   most 10; `bookId` is `null` and `positions` empty with nothing loaded);
/// - `{"action":"undoJump"}` goes back to the first of them (the player's
///   `undoJump`; nothing when there is none), and the `player` line says
///   where the book is.
extension HeadlessPresenter {
    /// The `recentPositions` line for `player`.
    static func recentPositionsLine(_ player: PlayerModel) -> JSONValue {
        ["event": "recentPositions", "bookId": .optional(player.nowPlaying?.bookID),
         "positions": .array(player.recentPositions.map { place in
             ["positionMs": .number(Double(place.position)), "leftAt": .string(rfc3339(place.leftAt))]
         })]
    }
}
