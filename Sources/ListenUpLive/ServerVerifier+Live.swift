import Foundation
import ListenUpAPI
import ListenUpCore
import Logging

/// Checks that an address is a ListenUp server the app speaks to, and which
/// generation: REST v1 first (`GET /api/v1/instance` must answer 200 with a
/// valid envelope, `v == 1`, `success == true` and a string `data.id`);
/// when that answer says "not ListenUp" (never when the address is
/// unreachable or fails TLS), kRPC: `GET /healthz` must answer
/// `{"status":"ok"}`, then `InstanceService.getServerInfo` on the public
/// socket (the ``KRPCServerInfoProbe``) must give `apiVersion == "v1"`.
///
/// Candidates are tried in the order ``ServerAddress`` gives (for a bare IP
/// or `localhost` `http://` first, for a host name `https://` first), moving
/// on only when one cannot be connected to or fails TLS. Each attempt has
/// ``timeout``; a cancelled task stops at once.
extension ServerVerifier {
    /// A real instance answer is a few hundred bytes; anything past this is not one.
    public static let maxBodyBytes = 256 * 1024

    /// Verification over `transport`; kRPC servers are recognised through
    /// `krpcServerInfo` (nil: REST v1 only).
    public static func live(transport: HTTPTransport, logger: Logger, timeout: Duration = ServerVerifier.timeout,
                            krpcServerInfo: KRPCServerInfoProbe? = nil) -> ServerVerifier {
        ServerVerifier { address in
            var outcome: Result<VerifiedServer, ServerVerificationError> = .failure(.unreachable)
            for candidate in address.candidates {
                if Task.isCancelled { return .failure(.unreachable) }
                outcome = await check(candidate, transport: transport, timeout: timeout)
                if case .failure(.notListenUp(let detail)) = outcome, let krpcServerInfo {
                    logger.debug("Not a REST v1 server; trying kRPC", metadata: ["url": "\(candidate.absoluteString)", "detail": "\(detail)"])
                    let probed = await checkKRPC(candidate, transport: transport, timeout: timeout, serverInfo: krpcServerInfo)
                    // A server that is neither keeps the REST answer's reason.
                    if case .failure(.notListenUp) = probed {} else { outcome = probed }
                }
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

    /// One candidate base URL as a kRPC server: `/healthz`, then `getServerInfo`.
    static func checkKRPC(_ base: URL, transport: HTTPTransport, timeout: Duration,
                          serverInfo: KRPCServerInfoProbe) async -> Result<VerifiedServer, ServerVerificationError> {
        let request = HTTPRequest(method: "GET", url: base.appendingAPIPath("/healthz"), headers: [("Accept", "application/json")])
        let response: HTTPResponse
        do {
            response = try await transport.send(request, timeout, 4096)
        } catch let error as TransportError {
            return .failure(ServerVerificationError(error))
        } catch {
            return .failure(.unreachable)
        }
        guard isHealthy(response) else { return .failure(.notListenUp("no kRPC health answer")) }
        return interpret(await serverInfo(base, timeout), base: base)
    }

    /// Whether `/healthz` answered 200 `{"status":"ok"}`.
    static func isHealthy(_ response: HTTPResponse) -> Bool {
        guard response.status == 200,
              let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any] else { return false }
        return object["status"] as? String == "ok"
    }

    /// Reads a kRPC server's `getServerInfo` answer.
    static func interpret(_ answer: Result<ServerInstanceInfo, ServerVerificationError>, base: URL)
        -> Result<VerifiedServer, ServerVerificationError> {
        switch answer {
        case .failure(let error):
            return .failure(error)
        case .success(let info):
            guard info.apiVersion == "v1" else { return .failure(.unsupportedAPIVersion(info.apiVersion)) }
            guard !info.instanceID.isEmpty else { return .failure(.notListenUp("server info without an instance id")) }
            return .success(VerifiedServer(url: base, instanceID: info.instanceID, name: info.name,
                                           setupRequired: info.setupRequired, generation: .krpc))
        }
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

extension Dependencies {
    /// The app's verifier (``ServerVerifier/live(transport:logger:timeout:krpcServerInfo:)``)
    /// over the dependencies' transport, timeout and kRPC probe: what the
    /// composition root sets as ``Dependencies/makeVerifier``.
    public static let liveVerifier: @Sendable (Dependencies) -> ServerVerifier = { dependencies in
        .live(transport: dependencies.transport, logger: dependencies.logger, timeout: dependencies.verificationTimeout,
              krpcServerInfo: dependencies.krpcServerInfo)
    }
}
