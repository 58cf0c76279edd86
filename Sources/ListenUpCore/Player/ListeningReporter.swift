import Foundation
import Logging

/// Sends the queued listening spans to the server, oldest first, and
/// forgets those it answered for (acknowledged, or refused for good).
///
/// Spans are in the ``ListeningStore`` before the reporter sees them; when
/// the server cannot be reached they stay there and go with the next flush
/// (the next span, the periodic flush, the next run).
actor ListeningReporter {
    private let server: any ServerConnection
    private let store: any ListeningStore
    private let logger: Logger
    private var flushing: Task<Bool, Never>?

    init(server: any ServerConnection, store: any ListeningStore, logger: Logger) {
        self.server = server
        self.store = store
        self.logger = logger
    }

    /// Sends everything queued; a flush already under way is joined.
    /// - Returns: true when the queue is empty afterwards.
    @discardableResult
    func flush() async -> Bool {
        if let flushing { return await flushing.value }
        let task = Task { await sendAll() }
        flushing = task
        let emptied = await task.value
        flushing = nil
        return emptied
    }

    private func sendAll() async -> Bool {
        while true {
            let batch: [ListeningSpan]
            do {
                batch = try store.pendingSpans(limit: 50)
            } catch {
                logger.warning("Could not read the queued listening", metadata: ["reason": "\(error)"])
                return false
            }
            if batch.isEmpty { return true }
            do throws(ServerError) {
                let answer = try await server.sendListening(batch)
                let answered = Set(answer.acknowledged + answer.failed)
                if !answer.failed.isEmpty {
                    logger.warning("The server refused listening spans", metadata: ["count": "\(answer.failed.count)"])
                }
                // An id the server did not mention stays queued; stop rather
                // than loop on it.
                do {
                    try store.removeSpans(batch.map(\.id).filter(answered.contains))
                } catch {
                    logger.warning("Could not forget sent listening spans", metadata: ["reason": "\(error)"])
                    return false
                }
                if answered.count < batch.count { return false }
            } catch .server(let status, _) where (400..<500).contains(status) && ![401, 408, 429].contains(status) {
                // The server will never take this batch as it is: keeping it
                // would block every later span.
                logger.warning("The server refused a batch of listening spans", metadata: ["status": "\(status)", "count": "\(batch.count)"])
                try? store.removeSpans(batch.map(\.id))
            } catch {
                logger.debug("Listening kept for later", metadata: ["spans": "\(batch.count)", "reason": "\(error)"])
                return false
            }
        }
    }
}
