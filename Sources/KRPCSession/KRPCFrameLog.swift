import Logging

/// The trace-level log of every kRPC frame in and out, secrets redacted by
/// ``KRPCFrameRedactor``, long frames cut at a limit. Meant for bug reports
/// from users with a real server (`LISTENUP_LOG=trace`). Trace, not debug:
/// a sync page is a frame of hundreds of kilobytes, and redacting and
/// writing every one would make the debug log (the benches read its
/// timings) slower than the sync it describes.
///
/// A value type; any thread. Costs nothing unless the logger is at trace
/// level: redaction runs only then.
struct KRPCFrameLog: Sendable {
    /// Which way a frame went.
    enum Direction: String, Sendable {
        case incoming = "in"
        case outgoing = "out"
    }

    let logger: Logger
    /// The most characters of a redacted frame written.
    let limit: Int

    /// Logs one frame at trace level with metadata `direction`, `bytes` and `frame`.
    /// - Parameters:
    ///   - direction: in or out.
    ///   - text: the frame as sent or received.
    func record(_ direction: Direction, _ text: String) {
        guard logger.logLevel <= .trace else { return }
        logger.trace("kRPC frame", metadata: [
            "direction": "\(direction.rawValue)",
            "bytes": "\(text.utf8.count)",
            "frame": "\(Self.truncated(KRPCFrameRedactor.redact(text), limit: limit))",
        ])
    }

    /// `text` cut to `limit` characters, with a note of what was left out.
    static func truncated(_ text: String, limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        let kept = text.prefix(max(limit, 0))
        return "\(kept)… (cut; \(text.utf8.count) bytes in all)"
    }
}
