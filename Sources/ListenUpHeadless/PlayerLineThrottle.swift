import Foundation
import JSONToolkit

/// Decides when the headless front prints the player's state
/// (`{"event":"player",…}`): at once when anything but the position
/// changed, and, while it plays, about once a second for the position.
///
/// The engine reports the position every second, but each report reaches
/// the main actor a little early or late: a 1-second minimum between two
/// lines dropped every report that came a hair less than a second after the
/// one before, so lines came 2 s apart every other second. A position-only
/// line is held back only when it comes less than ``interval`` after the
/// last line (faster reports, over a sleep timer's fade), and then printed
/// when that is over (``Decision/wait(_:)``), so a playing book gets a line
/// at least once a second. A value type, no clock of its own: the caller
/// passes the time.
struct PlayerLineThrottle {
    /// The shortest time between two lines that differ only in position
    /// (and the sleep timer's countdown): less than the engine's second, so
    /// a report that comes early is still printed.
    static let interval: Duration = .milliseconds(750)

    /// What to do with a state.
    enum Decision: Equatable {
        /// Print it now.
        case print
        /// It was printed already.
        case unchanged
        /// Ask again after this long (printed then if it is still the latest).
        case wait(Duration)
    }

    private var printed: JSONValue?
    private var printedAt: ContinuousClock.Instant?

    /// Decides for `state` at `now`; a state to print is taken as printed.
    mutating func decide(_ state: JSONValue, now: ContinuousClock.Instant) -> Decision {
        guard state != printed else { return .unchanged }
        if let printed, let printedAt, Self.withoutPosition(state) == Self.withoutPosition(printed) {
            let due = printedAt.advanced(by: Self.interval)
            if now < due { return .wait(now.duration(to: due)) }
        }
        printed = state
        printedAt = now
        return .print
    }

    private static func withoutPosition(_ value: JSONValue) -> JSONValue {
        guard case .object(var members) = value else { return value }
        members["positionMs"] = nil
        members["sleepRemainingMs"] = nil
        return .object(members)
    }
}
