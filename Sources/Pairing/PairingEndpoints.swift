import Foundation
import NIOHTTP1

/// The protocol's endpoints (docs/pairing-protocol.md), on top of the HTTP plumbing.
extension DiscoveryServer {
    func respond(to request: PairingHTTPRequest) async -> PairingHTTPResponse {
        let path = request.path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? request.path
        if let remote = await respondRemote(to: request, path: path) { return remote }
        switch (path, request.method) {
        case ("/api/v1/pair/info", .GET): return info()
        case ("/api/v1/pair", .POST): return await pair(request)
        case ("/api/v1/pair", .DELETE): return unpair(request)
        case ("/api/v1/status", .GET): return await status(request)
        case ("/api/v1/pair/info", _), ("/api/v1/pair", _), ("/api/v1/status", _):
            return .error(.methodNotAllowed, "method_not_allowed", "This endpoint does not take \(request.method.rawValue).")
        default:
            return .error(.notFound, "not_found", "No such endpoint.")
        }
    }

    private func info() -> PairingHTTPResponse {
        let open: Bool
        if case .open = state { open = true } else { open = false }
        return .json(.ok, ["protocol": 1, "name": configuration.desktopName, "app_version": configuration.appVersion,
                           "fingerprint": identity.fingerprintBase64URL, "fingerprint_sha256_base64": identity.fingerprintBase64,
                           "pairing_open": open])
    }

    private func pair(_ request: PairingHTTPRequest) async -> PairingHTTPResponse {
        let now = clock.now()
        if let retryAfter = takeAttempt(from: request.remoteAddress, now: now) {
            return .error(.tooManyRequests, "rate_limited", "Too many pairing attempts; try again later.",
                          headers: [("Retry-After", String(retryAfter))])
        }
        guard let body = PairRequestBody(json: request.body) else {
            return .error(.badRequest, "bad_request",
                          "Expected a JSON object with exactly session, code, client_name (1-64 bytes) and client_model (0-64 bytes).")
        }
        let verification = shared.withLockedValue { $0.codes.verify(session: body.session, code: body.code, now: now) }
        tick() // a used or burned current code was replaced: show the new one
        switch verification {
        case .accepted: break
        case .closed: return .error(.conflict, "pairing_closed", "Pairing is not open on the desktop. Open “Pair a device” and scan the new code.")
        case .expired: return .error(.gone, "code_expired", "This code has expired. Scan the code the desktop shows now.")
        case .unknownSession: return .error(.forbidden, "invalid_code", "Unknown pairing session or wrong code.")
        case .wrongCode(let remaining):
            return .error(.forbidden, "invalid_code", "Unknown pairing session or wrong code (\(remaining) attempts left).")
        case .burned: return .error(.forbidden, "code_burned", "Too many wrong attempts; this code no longer works. Scan the new code.")
        case .used: return .error(.forbidden, "code_used", "This code was already used. Scan the new code.")
        }
        let comparison = ComparisonCode.make(code: body.code, session: body.session, fingerprint: identity.fingerprintBase64URL,
                                             clientName: body.clientName)
        let question = PairingRequest(clientName: body.clientName, clientModel: body.clientModel, comparisonCode: comparison,
                                      remoteAddress: request.remoteAddress)
        logger.info("Pairing request", metadata: ["client": "\(body.clientName)", "from": "\(request.remoteAddress)"])
        guard await ask(question) else {
            logger.info("Pairing refused", metadata: ["client": "\(body.clientName)"])
            return .error(.forbidden, "refused", "The desktop user refused the pairing.")
        }
        let added: (device: PairedDevice, token: String)
        do { added = try deviceStore.add(name: body.clientName, model: body.clientModel, lifetime: configuration.tokenLifetime) } catch {
            return .error(.internalServerError, "storage_failed", "The desktop could not save the pairing.")
        }
        logger.info("Paired", metadata: ["client": "\(body.clientName)", "device": "\(added.device.id)"])
        publishDevices()
        return .json(.ok, ["token": added.token, "token_type": "Bearer", "expires_at": RFC3339.string(added.device.expiresAt),
                           "desktop_name": configuration.desktopName, "device_id": added.device.id,
                           "comparison_code": comparison])
    }

    /// Asks the app (``PairingEvent/request(_:)``); refuses after the confirmation timeout,
    /// or if pairing closed or the server stopped meanwhile.
    private func ask(_ question: PairingRequest) async -> Bool {
        let pending = pending
        let timeout = configuration.confirmationTimeout
        return await withTaskGroup(of: Bool?.self) { group in
            group.addTask { await pending.ask(question) }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(Int64(timeout * 1000)))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            guard first == true else { return false }
            // Accepted only while pairing is still open (the page may have closed meanwhile).
            return shared.withLockedValue { shared in
                if shared.port != nil, case .open = shared.codes.state { true } else { false }
            }
        }
    }

    /// The device presenting the request's bearer token; records its use
    /// (and reports the device list when the recorded time moved).
    func authenticated(_ request: PairingHTTPRequest) -> PairedDevice? {
        guard let header = request.headers.first(name: "Authorization"), header.hasPrefix("Bearer ") else { return nil }
        let token = String(header.dropFirst("Bearer ".count)).trimmingCharacters(in: .whitespaces)
        guard !token.isEmpty, token.utf8.count <= 256 else { return nil }
        guard let (device, recorded) = deviceStore.authenticateRecordingUse(token: token) else { return nil }
        if recorded { publishDevices() }
        return device
    }

    static let unauthorized = PairingHTTPResponse.error(
        .unauthorized, "unauthorized", "Missing, unknown, revoked or expired bearer token. Pair again.",
        headers: [("WWW-Authenticate", "Bearer realm=\"listenup-pair\"")])

    private func status(_ request: PairingHTTPRequest) async -> PairingHTTPResponse {
        guard let device = authenticated(request) else { return Self.unauthorized }
        let status = await statusProvider()
        var object: [String: Any] = ["app_version": configuration.appVersion, "active_route": status.activeRoute,
                                              "desktop_name": configuration.desktopName, "device_id": device.id,
                                              "server_url": NSNull(), "user_display_name": NSNull()]
        if let url = status.serverURL { object["server_url"] = url }
        if let name = status.userDisplayName { object["user_display_name"] = name }
        return .json(.ok, object)
    }

    private func unpair(_ request: PairingHTTPRequest) -> PairingHTTPResponse {
        guard let device = authenticated(request) else { return Self.unauthorized }
        guard (try? deviceStore.revoke(id: device.id)) != nil else {
            return .error(.internalServerError, "storage_failed", "The desktop could not save the change.")
        }
        remoteEvents.closeStreams(deviceID: device.id, reason: "unpaired")
        publishDevices()
        return PairingHTTPResponse(status: .noContent)
    }

    /// Counts a pairing attempt; returns seconds to wait if over the limit.
    private func takeAttempt(from address: String, now: Date) -> Int? {
        let window = configuration.rateLimitWindow
        let limit = configuration.rateLimitAttempts
        return shared.withLockedValue { shared -> Int? in
            var recent = (shared.attempts[address] ?? []).filter { now.timeIntervalSince($0) < window }
            defer {
                shared.attempts[address] = recent
                if shared.attempts.count > 1024 { shared.attempts = shared.attempts.filter { !$0.value.isEmpty } }
            }
            guard recent.count < limit else {
                let wait = (recent.first?.addingTimeInterval(window).timeIntervalSince(now) ?? window).rounded(.up)
                return max(1, Int(wait))
            }
            recent.append(now)
            return nil
        }
    }
}

/// The body of `POST /api/v1/pair`: exactly these four string fields.
struct PairRequestBody {
    var session: String
    var code: String
    var clientName: String
    var clientModel: String

    init?(json: [UInt8]) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any],
              Set(object.keys) == ["session", "code", "client_name", "client_model"],
              let session = object["session"] as? String, let code = object["code"] as? String,
              let name = object["client_name"] as? String, let model = object["client_model"] as? String,
              session.utf8.count <= 128, code.utf8.count <= 128,
              (1...64).contains(name.utf8.count), model.utf8.count <= 64,
              !(name + model).unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return nil }
        self.session = session
        self.code = code
        clientName = name
        clientModel = model
    }
}

/// RFC 3339 UTC timestamps with whole seconds.
enum RFC3339 {
    static func string(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
