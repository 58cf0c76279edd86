import Foundation
import KRPCSession
import ListenUpCore
import ListenUpKRPC

/// Live events over kRPC: `observeEvents` from the highest revision known,
/// translated into the events the library already follows, with a
/// read-idle watchdog (the server's heartbeat comes every 25 s).
extension KRPCServerConnection {
    /// Opens `observeEvents`. The stream ends on `CursorStale` (the library
    /// then syncs and resubscribes) and throws when the socket breaks, the
    /// server fails it, or nothing arrives for the read-idle timeout (then
    /// the socket is given up too, so the next call opens a new one).
    public func liveEvents() async throws(ServerError) -> AsyncThrowingStream<LibraryEvent, any Error> {
        _ = try await refresher.requireSession()
        let socket: KRPCSession
        do { socket = try await self.socket(.authed) } catch { throw KRPCErrorMapping.error(error) }
        let frames = await socket.events(.observeEvents, arguments: ObserveEventsArguments(sinceRevision: highestRevision),
                                         of: SyncFrame.self)
        let lastSeen = LockedValue(ContinuousClock.now)
        let idle = readIdleTimeout
        let check = min(.seconds(5), idle / 4)
        return AsyncThrowingStream { continuation in
            let reader = Task {
                do {
                    for try await event in frames {
                        lastSeen.value = .now
                        switch event {
                        case .data(let frame):
                            guard await self.deliver(frame, to: continuation) else { return }
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
                    try? await Task.sleep(for: check)
                    if !Task.isCancelled, ContinuousClock.now - lastSeen.value > idle {
                        // The error first: the cancelled reader would end the stream quietly.
                        continuation.finish(throwing: ServerError.transport(.timedOut))
                        reader.cancel()
                        await self.idleSocket(socket, silentFor: idle)
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

    /// Live events went quiet for `silence`: heartbeats stopped, so the
    /// socket is dead or the server hung. Forgets it (the next call or
    /// subscription opens another).
    private func idleSocket(_ socket: KRPCSession, silentFor silence: Duration) async {
        logger.info("Live events went quiet; reconnecting", metadata: ["silentSeconds": "\(silence.components.seconds)"])
        await drop(.authed, socket)
    }

    /// Passes one frame on; false when the stream is over.
    private func deliver(_ frame: SyncFrame, to continuation: AsyncThrowingStream<LibraryEvent, any Error>.Continuation) async -> Bool {
        if frame.domain == SyncDomain.playbackPositions.rawValue, let event = try? frame.event(as: PlaybackPositionSyncPayload.self) {
            if let payload = event.payload {
                learn(positions: [payload])
            } else if case .deleted = event.change, positionBooks[event.id] == nil {
                await lookUpPosition(event.id)
            }
        }
        let outcome = KRPCLiveEvents.translate(frame, duration: { self.summaries[$0]?.duration }, positionBook: { self.positionBooks[$0] })
        switch outcome {
        case .emit(let events):
            if frame.domain == SyncDomain.books.rawValue, let event = try? frame.event(as: BookSyncPayload.self) {
                if let payload = event.payload, !payload.isDeleted {
                    learn(books: [KRPCMapping.serverBook(payload)], through: nil)
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
    private func streamFailure(_ error: AppError) async -> ServerError {
        guard [.authSessionExpired, .authSessionNotFound, .authPermissionDenied].contains(error.kind),
              let current = await refresher.session else {
            return KRPCErrorMapping.error(error)
        }
        if let socket = sockets[.authed] { await drop(.authed, socket) }
        do throws(ServerError) {
            _ = try await refreshed(after: current.accessToken)
            return .transport(.unreachable("the event stream's session ended"))
        } catch {
            return error
        }
    }
}
