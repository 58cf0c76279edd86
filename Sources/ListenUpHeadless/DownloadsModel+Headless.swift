import Foundation
import JSONToolkit
import ListenUpCore

/// The headless form of the session's downloads. Like the player's, it is
/// not a screen: its commands are taken from every signed-in screen, and
/// its lines are `{"event":"download",…}`, one book each.
extension DownloadsModel {
    /// What became of a download command.
    enum HeadlessOutcome: Equatable {
        /// Handed to the model.
        case sent
        /// The book has no download to pause, resume, cancel or remove.
        case noDownload(String)
        /// The book is downloaded already: nothing to do but say so again.
        case alreadyDone(Item)
    }

    /// Headless: `download {bookId}`, `pauseDownload {bookId}`,
    /// `resumeDownload {bookId}`, `cancelDownload {bookId}`,
    /// `removeDownload {bookId}`, `pauseDownloads`, `resumeDownloads`,
    /// `removeDownloads` (``HeadlessCommand/downloadsIntent``), checked
    /// against the downloads there are.
    /// - Returns: what became of it.
    func handle(_ intent: Intent) -> HeadlessOutcome {
        switch intent {
        case .download(let bookID):
            if let item = items[bookID], item.status == .done { return .alreadyDone(item) }
        case .downloadBook(let book):
            if let item = items[book.id], item.status == .done { return .alreadyDone(item) }
        case .pause(let bookID), .resume(let bookID), .cancel(let bookID), .remove(let bookID):
            guard items[bookID] != nil else { return .noDownload(bookID) }
        case .pauseAll, .resumeAll, .removeAll:
            break
        }
        send(intent)
        return .sent
    }
}

/// Decides which `download` lines the headless front prints, from the
/// downloads as they are now and what it printed before.
///
/// A book gets a line when it is first seen (the session's restored
/// downloads are printed at once), when its status, failure or size
/// changes, and while it downloads as its bytes grow, at most one line
/// every ``interval`` (the model publishes bytes every 250 ms; a line held
/// back is printed when the interval is over: ``Report/recheckAfter``). A
/// book that disappears gets `removed`; each new refusal a `failed` line.
/// A value type, no clock of its own: the caller passes the time.
struct DownloadReporter {
    /// The shortest time between two lines of a book that differ only in bytes.
    static let interval: Duration = .milliseconds(250)

    /// What one call printed, and when to call again.
    struct Report: Equatable {
        var lines: [JSONValue]
        /// Bytes held back: call again after this long (nil: nothing held).
        var recheckAfter: Duration?
    }

    private struct Printed {
        var line: JSONValue
        var at: ContinuousClock.Instant
    }

    private var printed: [String: Printed] = [:]
    private var refusalSerial: Int?

    /// - Parameter refusal: the model's refusal when the reporter starts
    ///   (it was for an earlier session's eyes: not printed).
    init(refusal: DownloadsModel.Refusal? = nil) {
        refusalSerial = refusal?.serial
    }

    /// The line of one book.
    static func line(bookID: String, status: String, bytes: Int64, totalBytes: Int64,
                     failure: BookDownload.Failure?) -> JSONValue {
        var members: [String: JSONValue] = [
            "event": "download", "bookId": .string(bookID), "status": .string(status),
            "bytes": .number(Double(bytes)), "totalBytes": .number(Double(totalBytes)),
        ]
        if let failure {
            members["code"] = .string(failure.code.rawValue)
            members["message"] = .string(failure.message)
        }
        return .object(members)
    }

    /// The line of `item` as it is now.
    static func line(_ item: DownloadsModel.Item) -> JSONValue {
        line(bookID: item.bookID, status: item.status.rawValue, bytes: item.bytes, totalBytes: item.totalBytes, failure: item.failure)
    }

    /// The lines due now.
    /// - Parameters:
    ///   - items: every download, in the order to print them (``DownloadsModel/ordered``).
    ///   - refusal: the model's last refusal.
    ///   - now: the time.
    mutating func report(_ items: [DownloadsModel.Item], refusal: DownloadsModel.Refusal?,
                         now: ContinuousClock.Instant) -> Report {
        var report = Report(lines: [], recheckAfter: nil)
        for item in items {
            let line = Self.line(item)
            guard let last = printed[item.bookID] else {
                record(line, of: item.bookID, at: now, into: &report)
                continue
            }
            guard line != last.line else { continue }
            if Self.withoutBytes(line) != Self.withoutBytes(last.line) {
                record(line, of: item.bookID, at: now, into: &report)
                continue
            }
            let due = last.at.advanced(by: Self.interval)
            if now >= due {
                record(line, of: item.bookID, at: now, into: &report)
            } else {
                let wait = now.duration(to: due)
                report.recheckAfter = min(report.recheckAfter ?? wait, wait)
            }
        }
        let present = Set(items.map(\.bookID))
        for (bookID, last) in printed.sorted(by: { $0.key < $1.key }) where !present.contains(bookID) {
            printed[bookID] = nil
            report.lines.append(Self.line(bookID: bookID, status: "removed", bytes: 0,
                                          totalBytes: last.line["totalBytes"]?.doubleValue.map { Int64($0) } ?? 0, failure: nil))
        }
        if let refusal, refusal.serial != refusalSerial {
            refusalSerial = refusal.serial
            report.lines.append(Self.line(bookID: refusal.bookID, status: "failed", bytes: 0,
                                          totalBytes: refusal.totalBytes, failure: refusal.failure))
        }
        return report
    }

    private mutating func record(_ line: JSONValue, of bookID: String, at now: ContinuousClock.Instant, into report: inout Report) {
        printed[bookID] = Printed(line: line, at: now)
        report.lines.append(line)
    }

    private static func withoutBytes(_ line: JSONValue) -> JSONValue {
        guard case .object(var members) = line else { return line }
        members["bytes"] = nil
        return .object(members)
    }
}

extension HeadlessPresenter {
    /// Carries out a download command from any signed-in screen.
    func handleDownloads(_ command: HeadlessCommand) {
        guard let downloads = navigator.downloads else {
            emitError(code: "notSignedIn", message: "Sign in to download.")
            return
        }
        guard let intent = command.downloadsIntent else { return }
        switch downloads.handle(intent) {
        case .sent:
            break
        case .noDownload(let bookID):
            emitError(code: "noDownload", message: "There is no download of “\(bookID)”.")
        case .alreadyDone(let item):
            // Nothing changes, so nothing would be printed: say it again.
            emit(DownloadReporter.line(item))
        }
    }
}
