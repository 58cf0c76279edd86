import Foundation
import NIOHTTP1
import ServerSentEvents

/// Remote control from the companion's side: the desktop player's state, its
/// cover, commands, and the live state (docs/pairing-protocol.md, "Remote control").
extension CompanionClient {
    /// `GET /api/v1/player`.
    /// - Throws: ``PairingError/server(status:code:message:)`` (401 when the token no
    ///   longer works, 503 when the desktop offers no remote control), ``PairingError/notPaired``,
    ///   ``PairingError/unreachable(_:)``, ``PairingError/badResponse(_:)``.
    public func playerState() async throws -> RemotePlayerState {
        let response = try await authorized(.GET, "/api/v1/player")
        _ = try Self.answer(response, expecting: 200)
        return try Self.decodeState(response.body)
    }

    /// `GET /api/v1/player/cover`.
    /// - Returns: the image, or nil when the desktop has none (404).
    public func playerCover() async throws -> RemoteCover? {
        let response = try await authorized(.GET, "/api/v1/player/cover")
        if response.status == 404 { return nil }
        _ = try Self.answer(response, expecting: 200)
        return RemoteCover(data: Data(response.body), contentType: response.header("Content-Type") ?? "application/octet-stream")
    }

    /// Sends a command (`POST /api/v1/player/<action>`).
    /// - Throws: ``PairingError/server(status:code:message:)`` when the desktop refuses it
    ///   (`nothing_loaded`, `invalid_value`, `rate_limited`, …), and the errors of ``playerState()``.
    public func send(_ command: RemoteCommand) async throws {
        let (path, body) = RemoteCommandWire.request(for: command)
        _ = try Self.answer(try await authorized(.POST, path, body: body), expecting: 204)
    }

    /// `GET /api/v1/player/events`, as it is read: state events, heartbeat comments,
    /// and the `end` event the desktop sends before it closes the stream.
    ///
    /// Returns once the stream is open; iterate the result to read it, stop iterating to close it.
    /// - Throws: the errors of ``playerState()`` when the stream cannot be opened (429
    ///   `too_many_streams` among them).
    public func playerEvents() async throws -> AsyncThrowingStream<ServerSentEventItem, any Error> {
        let (head, body) = try await withStoredPairing { client, pairing, address in
            var client = client
            client.responseTimeout = 30
            return try await client.stream(host: address, port: pairing.port, path: "/api/v1/player/events",
                                           headers: [("Authorization", "Bearer \(pairing.token)")])
        }
        _ = try Self.answer(head, expecting: 200)
        let (events, continuation) = AsyncThrowingStream.makeStream(of: ServerSentEventItem.self)
        let reader = Task {
            var parser = ServerSentEventParser()
            do {
                for try await chunk in body {
                    for item in parser.feedItems(chunk) { continuation.yield(item) }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in reader.cancel() }
        return events
    }

    /// The player's state now and after each change, until the stream ends.
    ///
    /// - Returns: the states; the sequence throws ``PairingError/streamEnded(_:)`` when the
    ///   desktop ends it (revoked, unpaired) and finishes when the connection closes otherwise.
    /// - Throws: as ``playerEvents()``.
    public func followPlayer() async throws -> AsyncThrowingStream<RemotePlayerState, any Error> {
        let events = try await playerEvents()
        let (states, continuation) = AsyncThrowingStream.makeStream(of: RemotePlayerState.self)
        let reader = Task {
            do {
                for try await item in events {
                    guard case .event(let event) = item else { continue }
                    let data = event.data
                    switch event.type {
                    case "state": continuation.yield(try Self.decodeState(Array(data.utf8)))
                    case "end":
                        let reason = (try? JSONDecoder().decode([String: String].self, from: Data(data.utf8)))?["reason"] ?? "unknown"
                        throw PairingError.streamEnded(reason)
                    default: continue
                    }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in reader.cancel() }
        return states
    }

    static func decodeState(_ body: [UInt8]) throws -> RemotePlayerState {
        do { return try JSONDecoder().decode(RemotePlayerState.self, from: Data(body)) } catch {
            throw PairingError.badResponse("player state: \(error)")
        }
    }
}
