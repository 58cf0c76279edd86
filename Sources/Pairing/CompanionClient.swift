import Foundation
import NIOHTTP1

/// The companion side of pairing (what `listenup-companion` runs): reach the
/// desktop named by a ``PairingURI`` over TLS pinned to its fingerprint,
/// present the code, keep the token. Thread-safe (no shared mutable state).
public struct CompanionClient: Sendable {
    /// What the companion keeps after pairing (`pairing.json`, 0600, in its own data dir).
    public struct Pairing: Codable, Sendable, Equatable {
        /// The desktop's name, as it answered.
        public var desktopName: String
        /// Addresses to try, the one that worked first.
        public var addresses: [String]
        /// The discovery server's port.
        public var port: Int
        /// base64url SHA-256 of the desktop's SPKI.
        public var fingerprint: String
        /// This device's id on the desktop.
        public var deviceID: String
        /// The bearer token (secret: never logged).
        public var token: String
        /// When the token stops working (RFC 3339).
        public var expiresAt: String
    }

    /// The desktop's answer to `GET /api/v1/status`.
    public struct Status: Sendable, Equatable {
        /// The desktop app's version.
        public var appVersion: String
        /// The screen the desktop shows (e.g. `library`).
        public var activeRoute: String
        /// The ListenUp server the desktop uses, if any.
        public var serverURL: String?
        /// The signed-in user's display name, if anyone is signed in.
        public var userDisplayName: String?
        /// The desktop's name.
        public var desktopName: String
    }

    static let file = "pairing.json"
    /// Where the companion keeps its pairing.
    public let storage: PairingStorage

    /// - Parameter storage: the companion's directory (default `$XDG_DATA_HOME/listenup-companion`).
    public init(storage: PairingStorage = PairingStorage(directory: PairingStorage.defaultDirectory(appName: "listenup-companion"))) {
        self.storage = storage
    }

    /// The comparison code this companion will show for `uri` and `clientName`.
    public static func comparisonCode(for uri: PairingURI, clientName: String) -> String {
        ComparisonCode.make(code: uri.codeString, session: uri.sessionString, fingerprint: uri.fingerprintBase64URL, clientName: clientName)
    }

    /// Pairs: `POST /api/v1/pair` to the first reachable address, pinned to
    /// `uri`'s fingerprint; waits while the desktop user decides; stores the token.
    /// - Parameter willWait: called with the comparison code just before the request goes out.
    /// - Throws: ``PairingError/fingerprintMismatch`` (nothing sent), ``PairingError/server(status:code:message:)``
    ///   (refused, expired, …), ``PairingError/unreachable(_:)``.
    @discardableResult
    public func pair(uri: PairingURI, clientName: String, clientModel: String,
                     willWait: @Sendable (String) -> Void = { _ in }) async throws -> Pairing {
        let client = PinnedHTTPSClient(pin: uri.fingerprint)
        let body: [String: String] = ["session": uri.sessionString, "code": uri.codeString,
                                      "client_name": clientName, "client_model": clientModel]
        let json = Array(try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys]))
        willWait(Self.comparisonCode(for: uri, clientName: clientName))
        var lastError: any Error = PairingError.unreachable("no address in the pairing code")
        for address in uri.addresses {
            let response: PinnedHTTPSClient.Response
            do {
                response = try await client.send(host: address, port: uri.port, method: .POST, path: "/api/v1/pair",
                                                 headers: [("Content-Type", "application/json")], body: json)
            } catch PairingError.unreachable(let reason) {
                lastError = PairingError.unreachable(reason)
                continue
            }
            let object = try Self.answer(response, expecting: 200)
            guard let token = object["token"] as? String, let expires = object["expires_at"] as? String,
                  let name = object["desktop_name"] as? String, let id = object["device_id"] as? String else {
                throw PairingError.badResponse("pairing answer without token")
            }
            let pairing = Pairing(desktopName: name, addresses: [address] + uri.addresses.filter { $0 != address }, port: uri.port,
                                  fingerprint: uri.fingerprintBase64URL, deviceID: id, token: token, expiresAt: expires)
            try storage.write(try JSONEncoder().encode(pairing), to: Self.file)
            return pairing
        }
        throw lastError
    }

    /// The stored pairing, if any.
    public func stored() throws -> Pairing? {
        guard let data = try storage.read(Self.file) else { return nil }
        do { return try JSONDecoder().decode(Pairing.self, from: data) } catch { throw PairingError.storage("pairing.json is unreadable") }
    }

    /// `GET /api/v1/status` with the stored token.
    public func status() async throws -> Status {
        let object = try Self.answer(try await authorized(.GET, "/api/v1/status"), expecting: 200)
        return Status(appVersion: object["app_version"] as? String ?? "", activeRoute: object["active_route"] as? String ?? "",
                      serverURL: object["server_url"] as? String, userDisplayName: object["user_display_name"] as? String,
                      desktopName: object["desktop_name"] as? String ?? "")
    }

    /// `DELETE /api/v1/pair`, then forgets the stored pairing.
    public func unpair() async throws {
        _ = try Self.answer(try await authorized(.DELETE, "/api/v1/pair"), expecting: 204)
        try? FileManager.default.removeItem(at: storage.url(Self.file))
    }

    /// One request with the stored token (and `body` as JSON), to the first address that answers.
    func authorized(_ method: HTTPMethod, _ path: String, body: [UInt8] = []) async throws -> PinnedHTTPSClient.Response {
        try await withStoredPairing { client, pairing, address in
            var headers = [("Authorization", "Bearer \(pairing.token)")]
            if !body.isEmpty { headers.append(("Content-Type", "application/json")) }
            return try await client.send(host: address, port: pairing.port, method: method, path: path, headers: headers, body: body)
        }
    }

    /// Runs `attempt` with a client pinned to the stored pairing, for each address until one is reachable.
    func withStoredPairing<T>(_ attempt: (PinnedHTTPSClient, Pairing, String) async throws -> T) async throws -> T {
        guard let pairing = try stored() else { throw PairingError.notPaired }
        guard let pin = Base64URL.decode(pairing.fingerprint) else { throw PairingError.storage("bad fingerprint in pairing.json") }
        let client = PinnedHTTPSClient(pin: pin)
        var lastError: any Error = PairingError.unreachable("no address")
        for address in pairing.addresses {
            do {
                return try await attempt(client, pairing, address)
            } catch PairingError.unreachable(let reason) {
                lastError = PairingError.unreachable(reason)
            }
        }
        throw lastError
    }

    /// The JSON object of a `status` answer, or the server's error as ``PairingError/server(status:code:message:)``.
    static func answer(_ response: PinnedHTTPSClient.Response, expecting status: Int) throws -> [String: Any] {
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
        guard response.status == status else {
            let error = object["error"] as? [String: Any]
            throw PairingError.server(status: response.status, code: error?["code"] as? String ?? "unknown",
                                      message: error?["message"] as? String ?? "")
        }
        return object
    }
}
