import Foundation
import KRPCSession
import ListenUpAPI
import ListenUpCore
import ListenUpKRPC

/// Live events over kRPC: `observeEvents` from the highest revision known,
/// translated into the events the library already follows, with a
/// read-idle watchdog (the server's heartbeat comes every 25 s).
extension KRPCServerConnection {
    /// Opens `observeEvents`. The stream ends on `CursorStale` (the library
    /// then syncs and resubscribes) and throws when the socket breaks, the
    /// server fails it, or nothing arrives for ``readIdleTimeout``.
    public func liveEvents() async throws(APIClientError) -> AsyncThrowingStream<ServerSentEvent, any Error> {
        guard session != nil else { throw await lapsedError() }
        let socket: KRPCSession
        do { socket = try await self.socket(.authed) } catch { throw KRPCErrorMapping.error(error) }
        let frames = await socket.events(.observeEvents, arguments: ObserveEventsArguments(sinceRevision: highestRevision),
                                         of: SyncFrame.self)
        let lastSeen = LockedValue(ContinuousClock.now)
        let idle = Self.readIdleTimeout
        return AsyncThrowingStream { continuation in
            let reader = Task {
                do {
                    for try await event in frames {
                        lastSeen.value = .now
                        switch event {
                        case .data(let frame):
                            guard self.deliver(frame, to: continuation) else { return }
                        case .error(let error):
                            continuation.finish(throwing: await self.streamFailure(error))
                            return
                        case .complete:
                            continuation.finish()
                            return
                        }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: KRPCErrorMapping.error(error))
                }
            }
            let watchdog = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(5))
                    if ContinuousClock.now - lastSeen.value > idle {
                        reader.cancel()
                        continuation.finish(throwing: APIClientError.transport(.timedOut))
                        return
                    }
                }
            }
            continuation.onTermination = { _ in
                reader.cancel()
                watchdog.cancel()
            }
        }
    }

    /// Passes one frame on; false when the stream is over.
    private func deliver(_ frame: SyncFrame, to continuation: AsyncThrowingStream<ServerSentEvent, any Error>.Continuation) -> Bool {
        switch KRPCLiveEvents.translate(frame, duration: { self.summaries[$0]?.duration }) {
        case .emit(let events):
            if frame.domain == SyncDomain.books.rawValue, let event = try? frame.event(as: BookSyncPayload.self) {
                if let payload = event.payload, !payload.isDeleted {
                    learn(books: [KRPCMapping.syncBook(payload)], through: nil)
                } else {
                    learn(books: [], deleted: [event.id], through: nil)
                }
            }
            if let revision = frame.revision { learn(books: [], through: revision) }
            for event in events { continuation.yield(event) }
            return true
        case .finish:
            // Resubscribe from the retention floor; the sync that follows catches up.
            highestRevision = nil
            continuation.finish()
            return false
        case .fail(let error):
            continuation.finish(throwing: KRPCErrorMapping.error(error))
            return false
        }
    }

    /// A stream that ended with `RpcEvent.Error`: an ended session is
    /// checked with a refresh (a refusal lapses it).
    private func streamFailure(_ error: AppError) async -> APIClientError {
        guard [.authSessionExpired, .authSessionNotFound, .authPermissionDenied].contains(error.kind), let current = session else {
            return KRPCErrorMapping.error(error)
        }
        if let socket = sockets[.authed] { await drop(.authed, socket) }
        do throws(APIClientError) {
            _ = try await refreshed(after: current.accessToken)
            return .transport(.unreachable("the event stream's session ended"))
        } catch {
            return error
        }
    }
}
