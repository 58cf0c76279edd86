import Foundation
import ListenUpAPI
import Logging

/// Checks that an address is a ListenUp v1 server: `GET /api/v1/instance`
/// must answer 200 with a valid envelope, `v == 1`, `success == true` and a
/// string `data.id`.
///
/// Candidates are tried in the order ``ServerAddress`` gives (for a bare IP
/// or `localhost` `http://` first, for a host name `https://` first), moving
/// on only when one cannot be connected to or fails TLS. Each attempt has
/// ``timeout``; a cancelled task stops at once.
public struct ServerVerifier: Sendable {
    /// Verifies `address`.
    public var verify: @Sendable (ServerAddress) async -> Result<VerifiedServer, ServerVerificationError>

    public init(verify: @escaping @Sendable (ServerAddress) async -> Result<VerifiedServer, ServerVerificationError>) {
        self.verify = verify
    }

    /// The longest an attempt may take.
    public static let timeout: Duration = .seconds(10)
    /// A real instance answer is a few hundred bytes; anything past this is not one.
    public static let maxBodyBytes = 256 * 1024

    /// Verification over `transport`.
    public static func live(transport: HTTPTransport, logger: Logger, timeout: Duration = ServerVerifier.timeout) -> ServerVerifier {
        ServerVerifier { address in
            var outcome: Result<VerifiedServer, ServerVerificationError> = .failure(.unreachable)
            for candidate in address.candidates {
                if Task.isCancelled { return .failure(.unreachable) }
                outcome = await check(candidate, transport: transport, timeout: timeout)
                switch outcome {
                case .success:
                    return outcome
                case .failure(.unreachable), .failure(.tlsFailure):
                    logger.debug("Server candidate failed; trying the next", metadata: ["url": "\(candidate.absoluteString)"])
                    continue
                case .failure:
                    return outcome
                }
            }
            return outcome
        }
    }

    /// One candidate base URL.
    static func check(_ base: URL, transport: HTTPTransport, timeout: Duration) async -> Result<VerifiedServer, ServerVerificationError> {
        let request = HTTPRequest(method: "GET", url: base.appendingAPIPath(Endpoint<InstanceResponse>.instance.path),
                                  headers: [("Accept", "application/json")])
        let response: HTTPResponse
        do {
            response = try await transport.send(request, timeout, maxBodyBytes)
        } catch let error as TransportError {
            return .failure(ServerVerificationError(error))
        } catch {
            return .failure(.unreachable)
        }
        return interpret(response, base: base)
    }

    /// Reads an answer to `GET /api/v1/instance`.
    static func interpret(_ response: HTTPResponse, base: URL) -> Result<VerifiedServer, ServerVerificationError> {
        if response.isRedirect {
            let location = response.header("Location") ?? ""
            let target = URL(string: location, relativeTo: base)?.absoluteURL
            return .failure(.redirected(to: target?.absoluteString ?? location))
        }
        if response.status >= 500 {
            // A 5xx that is a ListenUp envelope is a server in trouble; a 5xx
            // page from a proxy in front of it is too.
            return .failure(.serverError(status: response.status))
        }
        guard response.status == 200 else {
            return .failure(.notListenUp("HTTP \(response.status)"))
        }
        let envelope: APIEnvelope<InstanceResponse>
        do {
            envelope = try APIEnvelope.decode(response.body, as: InstanceResponse.self)
        } catch .unsupportedVersion(let version) {
            return .failure(.unsupportedVersion(version))
        } catch {
            return .failure(.notListenUp("\(error)"))
        }
        guard case .success(let instance?) = envelope, !instance.id.isEmpty else {
            return .failure(.notListenUp("envelope without instance data"))
        }
        return .success(VerifiedServer(url: base, instanceID: instance.id, name: instance.name, setupRequired: instance.setupRequired))
    }
}

extension ServerVerificationError {
    init(_ error: TransportError) {
        switch error {
        case .unreachable, .cancelled: self = .unreachable
        case .tlsFailure: self = .tlsFailure
        case .timedOut: self = .timedOut
        case .bodyTooLarge: self = .notListenUp("response body too large")
        case .invalidResponse(let detail): self = .notListenUp("invalid HTTP response: \(detail)")
        }
    }
}

extension URL {
    /// `path` (which starts with `/`) under this base URL, keeping any path
    /// prefix the base has (a server behind a reverse proxy at `/listenup`).
    func appendingAPIPath(_ path: String) -> URL {
        var text = absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text + path) ?? self
    }
}
