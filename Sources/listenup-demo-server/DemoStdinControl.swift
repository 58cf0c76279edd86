import DemoServer
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `--control-stdin`: the in-process test controls of ``DemoServer`` for a
/// script in another process (the benches), one JSON object a line on
/// stdin, one answer a line on stdout:
///
///     {"action":"addBook","title":"…"}            → {"event":"control","action":"addBook","id":"…","monotonicNs":…}
///     {"action":"updateBook","id":"…","title":"…"} → {"event":"control","action":"updateBook","id":"…","monotonicNs":…}
///     {"action":"deleteBook","id":"…"}             → {"event":"control","action":"deleteBook","id":"…","monotonicNs":…}
///
/// `monotonicNs` is `CLOCK_MONOTONIC` once the change is made and its
/// live event handed to the open streams (Python's `time.monotonic()` reads
/// the same clock). Anything else answers `{"event":"error","message":…}`.
/// The server still stops on SIGINT or SIGTERM; the end of stdin changes nothing.
enum DemoStdinControl {
    /// Starts reading stdin on a thread of its own.
    static func start(_ server: DemoServer) {
        let thread = Thread {
            while let line = readLine() {
                let answer = handle(line, server: server)
                FileHandle.standardOutput.write(Data((answer + "\n").utf8))
            }
        }
        thread.name = "stdin-control"
        thread.start()
    }

    /// The answer to one line.
    static func handle(_ line: String, server: DemoServer) -> String {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
              let action = object["action"] as? String else {
            return error("each line must be one JSON object with an \"action\"")
        }
        let id: String
        switch action {
        case "addBook":
            id = server.addBook(title: object["title"] as? String ?? "A Book Added Live")
        case "updateBook":
            guard let book = object["id"] as? String, let title = object["title"] as? String else { return error("updateBook needs id and title") }
            server.updateBook(id: book, title: title)
            id = book
        case "deleteBook":
            guard let book = object["id"] as? String else { return error("deleteBook needs an id") }
            server.deleteBook(id: book, announce: true)
            id = book
        default:
            return error("unknown action")
        }
        let answer: [String: Any] = ["event": "control", "action": action, "id": id, "monotonicNs": monotonicNanoseconds()]
        guard let data = try? JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys]) else { return error("unencodable") }
        return String(decoding: data, as: UTF8.self)
    }

    private static func error(_ message: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: ["event": "error", "message": message], options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// `CLOCK_MONOTONIC` in nanoseconds.
    static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
