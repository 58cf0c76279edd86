import Foundation

/// What a paired device asks the desktop's player to do (the `POST
/// /api/v1/player/…` endpoints), after the discovery server has checked the
/// values' types and ranges (``rateRange``, ``sleepMinutesRange``, …). The
/// player still decides what a value means for the book loaded (a chapter
/// that does not exist, a position past the end) and answers
/// ``RemoteCommandError/invalidValue(_:)``.
public enum RemoteCommand: Equatable, Sendable {
    /// Resumes the book loaded (`POST /api/v1/player/play` without a body).
    case play
    /// Pauses the book loaded.
    case pause
    /// Pauses when playing, else resumes.
    case toggle
    /// Stops and unloads the book.
    case stop
    /// Moves to a book position, milliseconds (0 or more).
    case seek(positionMs: Int64)
    /// Moves forward (positive) or back (negative) by whole seconds.
    case skip(seconds: Int)
    /// Moves to the start of a chapter (0-based).
    case chapter(index: Int)
    /// Sets the playback rate (within ``rateRange``).
    case rate(Double)
    /// Sets or clears the sleep timer.
    case sleep(Sleep)
    /// Plays a book from its resume point (`POST /api/v1/player/play {"bookId":…}`),
    /// or resumes it if it is the one loaded.
    case playBook(bookID: String)

    /// A sleep timer setting.
    public enum Sleep: Equatable, Sendable {
        /// Pause after this many minutes (within ``RemoteCommand/sleepMinutesRange``).
        case minutes(Int)
        /// Pause at the end of the chapter playing.
        case endOfChapter
        /// No timer.
        case off
    }

    /// The playback rates a remote may set.
    public static let rateRange: ClosedRange<Double> = 0.5...3.0
    /// The sleep timer lengths a remote may set, minutes.
    public static let sleepMinutesRange: ClosedRange<Int> = 1...720
    /// How far one skip may go, seconds, either way.
    public static let skipSecondsRange: ClosedRange<Int> = -3600...3600
    /// The longest book position a remote may ask for, milliseconds (100 days).
    public static let maxPositionMs: Int64 = 100 * 24 * 3600 * 1000
    /// The longest book id a remote may send, UTF-8 bytes.
    public static let maxBookIDBytes = 128

    /// The endpoints: `POST /api/v1/player/<action>`.
    public enum Action: String, CaseIterable, Equatable, Sendable {
        case play, pause, toggle, stop, seek, skip, chapter, rate, sleep
    }

    /// A value of a command's JSON body.
    public enum Field: Equatable, Sendable {
        case integer(Int64)
        case number(Double)
        case bool(Bool)
        case string(String)
    }

    /// The command as it travels: its endpoint and the fields of its JSON
    /// body (none: no body). The one mapping from a command to the wire:
    /// the discovery server reads it back (`RemoteCommandWire.parse`, in
    /// `Pairing`) and the companion writes it (`RemoteCommandWire.request(for:)`).
    public var request: (action: Action, body: [String: Field]) {
        switch self {
        case .play: (.play, [:])
        case .playBook(let bookID): (.play, ["bookId": .string(bookID)])
        case .pause: (.pause, [:])
        case .toggle: (.toggle, [:])
        case .stop: (.stop, [:])
        case .seek(let position): (.seek, ["positionMs": .integer(position)])
        case .skip(let seconds): (.skip, ["seconds": .integer(Int64(seconds))])
        case .chapter(let index): (.chapter, ["index": .integer(Int64(index))])
        case .rate(let value): (.rate, ["value": .number(value)])
        case .sleep(.minutes(let minutes)): (.sleep, ["minutes": .integer(Int64(minutes))])
        case .sleep(.endOfChapter): (.sleep, ["endOfChapter": .bool(true)])
        case .sleep(.off): (.sleep, ["off": .bool(true)])
        }
    }

    /// The endpoint.
    public var action: Action { request.action }

    /// The endpoint's last path component (`seek`, `sleep`, …), for logs.
    public var name: String { action.rawValue }
}

/// Why the player did not carry out a ``RemoteCommand``. The server turns
/// each case into an HTTP status and an error code (docs/pairing-protocol.md);
/// the message goes to the remote as the error's `message`, so it is written
/// for a person.
public enum RemoteCommandError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The command needs a book loaded and none is (409 `nothing_loaded`).
    case nothingLoaded
    /// ``RemoteCommand/playBook(bookID:)`` named a book the desktop does not
    /// know or cannot play (404 `unknown_book`).
    case unknownBook(String)
    /// The value does not fit the book loaded: a chapter that does not exist,
    /// a position past the end (400 `invalid_value`). The message says which.
    case invalidValue(String)
    /// The player cannot act now: nobody is signed in, the server is
    /// unreachable (503 `player_unavailable`). The message says why.
    case unavailable(String)

    public var description: String {
        switch self {
        case .nothingLoaded: "nothing is loaded in the player"
        case .unknownBook(let id): "unknown book \(id)"
        case .invalidValue(let message): "invalid value: \(message)"
        case .unavailable(let message): "player unavailable: \(message)"
        }
    }
}
