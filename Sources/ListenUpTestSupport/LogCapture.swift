import Foundation
import ListenUpCore
import Logging

/// Collects every log line (message and metadata) so tests can check what
/// reached the log, e.g. that no token or password ever does.
public final class LogCapture: Sendable {
    public init() {}
    private let lines = LockedValue<[String]>([])

    /// A logger at trace level writing here.
    public var logger: Logger {
        var logger = Logger(label: "test") { _ in Handler(lines: self.lines) }
        logger.logLevel = .trace
        return logger
    }

    /// Everything logged so far, one line per message.
    public var text: String { lines.value.joined(separator: "\n") }

    private struct Handler: LogHandler {
        let lines: LockedValue<[String]>
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            lines.withLock { $0.append("\(event.level) \(event.message) \(all)") }
        }
    }
}
