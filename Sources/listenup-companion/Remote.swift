import ArgumentParser
import Foundation
import Pairing

/// `listenup-companion remote …`: the paired desktop's player as a remote
/// control (docs/pairing-protocol.md, "Remote control").
struct Remote: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Control the paired desktop's player.",
        subcommands: [RemoteStatus.self, RemotePlay.self, RemotePause.self, RemoteToggle.self, RemoteStop.self, RemoteSeek.self,
                      RemoteSkip.self, RemoteNextChapter.self, RemotePreviousChapter.self, RemoteRate.self, RemoteSleep.self,
                      RemoteFollow.self]
    )
}

/// Sends `command`; says `done` on success, or exits non-zero with the desktop's reason.
func sendRemote(_ command: RemoteCommand, done: String) async throws {
    do {
        try await CompanionClient().send(command)
        say(done)
    } catch {
        throw failure("\(command.name) failed: \(error)")
    }
}

/// `h:mm:ss` (or `m:ss` under an hour).
func clock(_ milliseconds: Int64) -> String {
    let seconds = max(0, milliseconds / 1000)
    let (hours, minutes, rest) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
    return hours > 0 ? String(format: "%lld:%02lld:%02lld", hours, minutes, rest) : String(format: "%lld:%02lld", minutes, rest)
}

/// The state on one line: `playing  Title — Authors  0:12:34 / 10:00:00  ch 3 Name  1.25×  sleep 14:59`.
func line(_ state: RemotePlayerState) -> String {
    var parts = [state.status.rawValue]
    if let title = state.title { parts.append(state.authors.isEmpty ? title : "\(title) — \(state.authors.joined(separator: ", "))") }
    if state.bookID != nil {
        parts.append("\(clock(state.positionMs)) / \(clock(state.durationMs))")
        if let index = state.chapterIndex { parts.append("ch \(index + 1)" + (state.chapterTitle.map { " \($0)" } ?? "")) }
        parts.append(String(format: "%.2f×", state.rate))
    }
    if state.sleepEndOfChapter {
        parts.append("sleep end of chapter")
    } else if let remaining = state.sleepRemainingMs {
        parts.append("sleep \(clock(remaining))")
    }
    return parts.joined(separator: "  ")
}

/// The state as one JSON line (sorted keys).
func jsonLine(_ state: RemotePlayerState) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: (try? encoder.encode(state)) ?? Data("{}".utf8), as: UTF8.self)
}

struct RemoteStatus: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show what the desktop is playing.")

    @Flag(help: "Print the state as JSON.")
    var json = false

    func run() async throws {
        let state: RemotePlayerState
        do { state = try await CompanionClient().playerState() } catch { throw failure("status failed: \(error)") }
        if json { return say(jsonLine(state)) }
        say("Status: \(state.status.rawValue)")
        guard let title = state.title else { return }
        say("Book: \(title)" + (state.authors.isEmpty ? "" : " — \(state.authors.joined(separator: ", "))"))
        say("Position: \(clock(state.positionMs)) / \(clock(state.durationMs))")
        if let index = state.chapterIndex {
            say("Chapter: \(index + 1)\(state.chapterTitle.map { " \($0)" } ?? "") (\(clock(state.chapterPositionMs)) / \(clock(state.chapterDurationMs)))")
        }
        say(String(format: "Rate: %.2f×", state.rate))
        say("Volume: \(Int((state.volume * 100).rounded()))%")
        say("Sleep: " + (state.sleepEndOfChapter ? "end of chapter" : state.sleepRemainingMs.map(clock) ?? "off"))
    }
}

struct RemotePlay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "play", abstract: "Resume, or play a book by its id.")

    @Argument(help: "A book id (from `remote status --json`, continueListening); none resumes.")
    var bookID: String?

    func run() async throws {
        try await sendRemote(bookID.map { .playBook(bookID: $0) } ?? .play, done: "Playing.")
    }
}

struct RemotePause: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause.")
    func run() async throws { try await sendRemote(.pause, done: "Paused.") }
}

struct RemoteToggle: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "toggle", abstract: "Pause if playing, else resume.")
    func run() async throws { try await sendRemote(.toggle, done: "Toggled.") }
}

struct RemoteStop: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stop", abstract: "Stop and unload the book.")
    func run() async throws { try await sendRemote(.stop, done: "Stopped.") }
}

struct RemoteSeek: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "seek", abstract: "Go to a book position.")

    @Argument(help: "Milliseconds from the start of the book.")
    var milliseconds: Int64

    func validate() throws {
        guard (0...RemoteCommand.maxPositionMs).contains(milliseconds) else { throw ValidationError("The position must be 0 or more.") }
    }

    func run() async throws { try await sendRemote(.seek(positionMs: milliseconds), done: "Moved to \(clock(milliseconds)).") }
}

struct RemoteSkip: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "skip", abstract: "Skip forward, or back with a negative number.")

    @Argument(help: "Seconds (e.g. 30, or -- -15 to go back).")
    var seconds: Int

    func validate() throws {
        let range = RemoteCommand.skipSecondsRange
        guard range.contains(seconds) else { throw ValidationError("Skip between \(range.lowerBound) and \(range.upperBound) seconds.") }
    }

    func run() async throws { try await sendRemote(.skip(seconds: seconds), done: "Skipped \(seconds) s.") }
}

struct RemoteNextChapter: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "next-chapter", abstract: "Go to the next chapter.")

    func run() async throws {
        let state: RemotePlayerState
        do { state = try await CompanionClient().playerState() } catch { throw failure("next-chapter failed: \(error)") }
        guard let index = state.chapterIndex else { throw failure("next-chapter failed: no chapter is playing") }
        try await sendRemote(.chapter(index: index + 1), done: "Chapter \(index + 2).")
    }
}

struct RemotePreviousChapter: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "previous-chapter",
        abstract: "Restart the chapter, or go to the one before when less than 3 s in (as the desktop's button does)."
    )

    func run() async throws {
        let state: RemotePlayerState
        do { state = try await CompanionClient().playerState() } catch { throw failure("previous-chapter failed: \(error)") }
        guard let index = state.chapterIndex else { throw failure("previous-chapter failed: no chapter is playing") }
        let target = state.chapterPositionMs > 3000 || index == 0 ? index : index - 1
        try await sendRemote(.chapter(index: target), done: "Chapter \(target + 1).")
    }
}

struct RemoteRate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rate", abstract: "Set the playback rate.")

    @Argument(help: "0.5 to 3.0.")
    var value: Double

    func validate() throws {
        guard RemoteCommand.rateRange.contains(value) else { throw ValidationError("The rate must be between 0.5 and 3.0.") }
    }

    func run() async throws { try await sendRemote(.rate(value), done: String(format: "Rate %.2f×.", value)) }
}

struct RemoteSleep: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sleep", abstract: "Set the sleep timer: MINUTES, end-of-chapter or off.")

    @Argument(help: ArgumentHelp("Minutes (1-720), end-of-chapter, or off.", valueName: "minutes|end-of-chapter|off"))
    var setting: String

    var sleep: RemoteCommand.Sleep? {
        switch setting {
        case "off": .off
        case "end-of-chapter": .endOfChapter
        default: Int(setting).flatMap { RemoteCommand.sleepMinutesRange.contains($0) ? .minutes($0) : nil }
        }
    }

    func validate() throws {
        guard sleep != nil else { throw ValidationError("Give minutes (1-720), end-of-chapter or off.") }
    }

    func run() async throws {
        guard let sleep else { return }
        let done = switch sleep {
        case .off: "Sleep timer off."
        case .endOfChapter: "Sleeping at the end of the chapter."
        case .minutes(let minutes): "Sleeping in \(minutes) min."
        }
        try await sendRemote(.sleep(sleep), done: done)
    }
}

struct RemoteFollow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "follow",
                                                    abstract: "Print the player's state as it changes, one line each, until interrupted.")

    @Flag(help: "Print each state as JSON.")
    var json = false

    func run() async throws {
        do {
            for try await state in try await CompanionClient().followPlayer() {
                say(json ? jsonLine(state) : line(state))
            }
        } catch {
            throw failure("follow ended: \(error)")
        }
        throw failure("follow ended: the desktop closed the connection")
    }
}
