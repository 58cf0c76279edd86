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
/// and the account controls, to try the app's Create Account and invites
/// by hand against a running demo server:
///
///     {"action":"createInvite","email":"…","name":"…"}  → {…,"id":"<code>","link":"<server>/join/<code>"}
///     {"action":"pendingRegistrations"}                → {…,"registrations":[{"id":"…","email":"…","name":"…"}]}
///     {"action":"approveRegistration","id":"…"}         → {…,"id":"…"}
///     {"action":"denyRegistration","id":"…","reason":"…"} → {…,"id":"…"}
///     {"action":"pendingPasswordResets"}                → {…,"resets":[{"id":"<ticket>","email":"…"}]}   (kRPC mode)
///     {"action":"approvePasswordReset","id":"<ticket>"} → {…,"id":"…","code":"ABCD-2345"}
///     {"action":"denyPasswordReset","id":"<ticket>"}    → {…,"id":"…"}
///
/// and what another reader does (kRPC's `activities`; the neighbour unless `email` names an account):
///
///     {"action":"recordActivity","type":"finished_book","bookId":"…","email":"…"} → {…,"id":"<activity id>"}
///
/// `monotonicNs` is `CLOCK_MONOTONIC` once the change is made and its
/// live event handed to the open streams (Python's `time.monotonic()` reads
/// the same clock). Anything else answers `{"event":"error","message":…}`.
/// The server still stops on SIGINT or SIGTERM; the end of stdin changes nothing.
enum DemoStdinControl {
    /// Starts reading stdin on a thread of its own.
    /// - Parameter url: the server's address, for the invite links.
    static func start(_ server: DemoServer, url: String) {
        let thread = Thread {
            while let line = readLine() {
                let answer = handle(line, server: server, url: url)
                FileHandle.standardOutput.write(Data((answer + "\n").utf8))
            }
        }
        thread.name = "stdin-control"
        thread.start()
    }

    /// The answer to one line.
    static func handle(_ line: String, server: DemoServer, url: String) -> String {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
              let action = object["action"] as? String else {
            return error("each line must be one JSON object with an \"action\"")
        }
        let id: String
        var extra: [String: Any] = [:]
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
        case "createInvite":
            guard let email = object["email"] as? String, email.contains("@") else { return error("createInvite needs an email") }
            id = server.createInvite(email: email, displayName: object["name"] as? String ?? email)
            extra["link"] = "\(url)/join/\(id)"
        case "pendingRegistrations":
            id = ""
            extra["registrations"] = server.pendingRegistrations().map { ["id": $0.userID, "email": $0.email, "name": $0.displayName] }
        case "approveRegistration", "denyRegistration":
            guard let user = object["id"] as? String else { return error("\(action) needs the id of a pending registration") }
            let decided = action == "approveRegistration" ? server.approveRegistration(userID: user)
                : server.denyRegistration(userID: user, reason: object["reason"] as? String)
            guard decided else { return error("no registration with that id waits for a decision") }
            id = user
        case "pendingPasswordResets":
            id = ""
            extra["resets"] = server.pendingPasswordResets().map { ["id": $0.ticketID, "email": $0.email] }
        case "approvePasswordReset", "denyPasswordReset":
            guard let ticket = object["id"] as? String else { return error("\(action) needs the id of a pending password reset") }
            if action == "approvePasswordReset" {
                guard let code = server.approvePasswordReset(ticketID: ticket) else { return error("no password reset with that id waits") }
                extra["code"] = code
            } else {
                guard server.denyPasswordReset(ticketID: ticket) else { return error("no password reset with that id waits") }
            }
            id = ticket
        case "recordActivity":
            guard let made = server.recordActivity(object["type"] as? String ?? "", bookID: object["bookId"] as? String,
                                                   byUser: object["email"] as? String)
            else { return error("recordActivity needs a known type and, if any, an account's email") }
            id = made
        default:
            return error("unknown action")
        }
        let answer = ["event": "control", "action": action, "id": id, "monotonicNs": monotonicNanoseconds()].merging(extra) { $1 }
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
