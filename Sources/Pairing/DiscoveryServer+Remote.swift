import Foundation
import NIOCore
import NIOHTTP1

/// Remote control (docs/pairing-protocol.md, "Remote control"): a paired
/// device sees the player's state and cover, follows it as Server-Sent
/// Events and sends it commands, through the ``RemotePlayer`` the app gave.
extension DiscoveryServer {
    private static let playerPrefix = "/api/v1/player"

    /// Answers `/api/v1/player` and everything under it; nil for other paths.
    ///
    /// In order: an unknown action is 404, a wrong method 405, a missing or bad token 401,
    /// no player 503, too many requests 429; then the body is checked (400) and the player asked.
    func respondRemote(to request: PairingHTTPRequest, path: String) async -> PairingHTTPResponse? {
        guard path == Self.playerPrefix || path.hasPrefix(Self.playerPrefix + "/") else { return nil }
        let action = String(path.dropFirst(Self.playerPrefix.count).drop { $0 == "/" })
        let reads: Set<String> = ["", "cover", "events"]
        guard reads.contains(action) || RemoteCommand.Action(rawValue: action) != nil else {
            return .error(.notFound, "not_found", "No such endpoint.")
        }
        let method: HTTPMethod = reads.contains(action) ? .GET : .POST
        guard request.method == method else {
            return .error(.methodNotAllowed, "method_not_allowed", "This endpoint takes \(method.rawValue) only.",
                          headers: [("Allow", method.rawValue)])
        }
        guard let device = authenticated(request) else { return Self.unauthorized }
        guard let player = remotePlayer else {
            return .error(.serviceUnavailable, "player_unavailable", "This desktop offers no remote control.")
        }
        if let retryAfter = takeRemoteRequest(deviceID: device.id) {
            return .error(.tooManyRequests, "rate_limited", "Too many player requests; slow down.",
                          headers: [("Retry-After", String(retryAfter))])
        }
        switch action {
        case "": return .encoded(.ok, await player.state())
        case "cover": return await cover(player)
        case "events": return await openEvents(player, for: device)
        default: return await command(action, request.body, player, from: device)
        }
    }

    private func cover(_ player: any RemotePlayer) async -> PairingHTTPResponse {
        guard let cover = await player.cover() else {
            return .error(.notFound, "no_cover", "Nothing is playing, or the book has no cover.")
        }
        // Only an image type goes out as given (a header value never carries a line break).
        let type = cover.contentType.hasPrefix("image/") && cover.contentType.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F }
            ? cover.contentType : "application/octet-stream"
        return PairingHTTPResponse(status: .ok, body: Array(cover.data), headers: [("Content-Type", type), ("X-Content-Type-Options", "nosniff")])
    }

    private func openEvents(_ player: any RemotePlayer, for device: PairedDevice) async -> PairingHTTPResponse {
        guard let reservation = remoteEvents.reserve(deviceID: device.id) else {
            return .error(.tooManyRequests, "too_many_streams",
                          "This device already follows the player on \(configuration.remoteMaxStreamsPerDevice) connections; close one.",
                          headers: [("Retry-After", String(max(1, Int(configuration.remoteHeartbeatInterval.rounded(.up)))))])
        }
        if let latest = reservation.latestFrame { return .events(reservation, first: latest) }
        let fetched = EventStreamConnection.frame(event: "state", await player.state())
        return .events(reservation, first: remoteEvents.firstFrame(for: reservation, fetched: fetched))
    }

    private func command(_ action: String, _ body: [UInt8], _ player: any RemotePlayer, from device: PairedDevice) async -> PairingHTTPResponse {
        let command: RemoteCommand
        switch RemoteCommandWire.parse(action: action, body: body) {
        case .success(let parsed): command = parsed
        case .failure(let bad): return .error(.badRequest, "bad_request", bad.message)
        }
        logger.info("Remote command", metadata: ["device": "\(device.id)", "command": "\(command.name)"])
        do {
            try await player.perform(command, from: RemoteDevice(id: device.id, name: device.name))
        } catch {
            logger.info("Remote command refused", metadata: ["device": "\(device.id)", "command": "\(command.name)", "reason": "\(error)"])
            return Self.response(for: error)
        }
        return PairingHTTPResponse(status: .noContent)
    }

    /// The HTTP answer for a command the player refused.
    static func response(for error: RemoteCommandError) -> PairingHTTPResponse {
        switch error {
        case .nothingLoaded: .error(.conflict, "nothing_loaded", "Nothing is loaded in the player. Start a book first.")
        case .unknownBook(let id): .error(.notFound, "unknown_book", "The desktop cannot play the book \(id).")
        case .invalidValue(let message): .error(.badRequest, "invalid_value", message)
        case .unavailable(let message): .error(.serviceUnavailable, "player_unavailable", message)
        }
    }

    /// Whether an open event stream of `deviceID` may go on (it is still paired and
    /// not expired); records the use off the loop (it may write the device file).
    /// Called at each heartbeat, on the stream's event loop.
    func streamMayContinue(deviceID: String) -> Bool {
        guard deviceStore.isActive(id: deviceID) else { return false }
        Task { if self.deviceStore.recordUse(id: deviceID).recorded { self.publishDevices() } }
        return true
    }

    /// Counts a remote-control request of `deviceID` (monotonic time: a clock moved
    /// by hand in tests does not lift the limit).
    /// - Returns: seconds to wait if the device is over ``Configuration/remoteRateLimit``.
    func takeRemoteRequest(deviceID: String) -> Int? {
        let now = NIODeadline.now()
        let window = TimeAmount.nanoseconds(Int64(configuration.remoteRateWindow * 1_000_000_000))
        let limit = configuration.remoteRateLimit
        return shared.withLockedValue { shared -> Int? in
            var recent = (shared.remoteRequests[deviceID] ?? []).filter { now - $0 < window }
            defer {
                shared.remoteRequests[deviceID] = recent
                if shared.remoteRequests.count > 256 { shared.remoteRequests = shared.remoteRequests.filter { !$0.value.isEmpty } }
            }
            guard recent.count < limit else {
                let wait = (recent.first.map { $0 + window - now } ?? window).nanoseconds
                return max(1, Int((Double(wait) / 1_000_000_000).rounded(.up)))
            }
            recent.append(now)
            return nil
        }
    }
}

extension PairingHTTPResponse {
    /// `value` as JSON (sorted keys).
    static func encoded(_ status: HTTPResponseStatus, _ value: some Encodable) -> PairingHTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else {
            return .error(.internalServerError, "internal", "The answer could not be encoded.")
        }
        return PairingHTTPResponse(status: status, body: Array(data), headers: [("Content-Type", "application/json")])
    }
}
