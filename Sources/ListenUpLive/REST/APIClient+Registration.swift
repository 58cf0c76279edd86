import Foundation
import ListenUpAPI
import ListenUpCore
import ServerSentEvents

/// Creating an account over REST v1, where the Go server has it (addendum
/// §7 rows Register, Registration policy, Registration status; Go
/// `internal/api/auth_handlers.go`, `internal/api/instance_handlers.go`,
/// `internal/sse/registration_handler.go`). Every registration there waits
/// for an administrator and never opens a session.
extension APIClient {
    /// `open_registration` of `GET /api/v1/instance`: true is approval (the
    /// Go server queues every registration), false closed.
    public func registrationMode() async throws(ServerError) -> RegistrationMode {
        try await call(.instance).openRegistration ? .approval : .closed
    }

    /// `POST /api/v1/auth/register {email, password, first_name, last_name}`,
    /// the display name split at its first space (first word, then the rest).
    /// - Returns: always ``RegistrationOutcome/pendingApproval(userID:)``.
    /// - Throws: 403 (registration is not open) and 409 (email in use) with
    ///   the server's text; 429 as rate limited.
    public func register(displayName: String, email: String, password: String) async throws(ServerError) -> RegistrationOutcome {
        let name = RegistrationRequest.split(displayName: displayName)
        let answer = try await call(.register(RegistrationRequest(email: email, password: password, firstName: name.first,
                                                                  lastName: name.last)))
        guard !answer.userID.isEmpty else { throw .protocolMismatch("register answered without a user_id") }
        return .pendingApproval(userID: answer.userID)
    }

    /// The registration's status: first the plain `GET …/registration-status/{id}`
    /// (the stream says `pending` on connecting whatever the status is, so
    /// an approval given while the app was closed would never arrive on
    /// it); while pending, the stream `GET …/{id}/stream`, whose one
    /// `status` event ends it. A server without the stream (404) leaves the
    /// plain answer only (the caller asks again later).
    public func registrationStatus(userID: String) async throws(ServerError) -> AsyncThrowingStream<RegistrationStatus, any Error> {
        let current = try await call(.registrationStatus(userID: userID))
        let status = Self.registrationStatus(current)
        guard status == .pending else { return AsyncThrowingStream { $0.yield(status); $0.finish() } }
        let request = HTTPRequest(method: "GET", url: baseURL.appendingAPIPath(RegistrationStreamPath.path(userID: userID)),
                                  headers: [("Accept", "text/event-stream")])
        let response: HTTPStreamingResponse
        do {
            response = try await transport.stream(request, .seconds(15))
        } catch let error as TransportError {
            throw .transport(error)
        } catch {
            throw .transport(.unreachable("\(error)"))
        }
        guard (200..<300).contains(response.status),
              response.header("Content-Type")?.lowercased().hasPrefix("text/event-stream") == true else {
            return AsyncThrowingStream { $0.yield(.pending); $0.finish() }
        }
        let body = response.body
        return AsyncThrowingStream { continuation in
            let reader = Task {
                var parser = ServerSentEventParser()
                do {
                    for try await chunk in body {
                        for event in parser.feed(chunk) {
                            guard var mapped = Self.registrationStatus(event) else { continue }
                            // A decision made between the plain read and the
                            // stream's subscription is on neither (`connected`
                            // says pending whatever the status): once the
                            // stream is open, the status is read once more.
                            if event.type == "connected", mapped == .pending,
                               let now = try? await self.call(.registrationStatus(userID: userID)) {
                                mapped = Self.registrationStatus(now)
                            }
                            continuation.yield(mapped)
                            if mapped.isTerminal {
                                continuation.finish()
                                return
                            }
                        }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: ServerError.transport(.unreachable("\(type(of: error))")))
                }
            }
            continuation.onTermination = { _ in reader.cancel() }
        }
    }

    /// The plain status as the seam's: `active` (or `approved`) is approved,
    /// `denied` declined, anything else pending.
    static func registrationStatus(_ response: RegistrationStatusResponse) -> RegistrationStatus {
        if response.approved || ["active", "approved"].contains(response.status) { return .approved }
        if response.status == "denied" { return .declined(message: nil) }
        return .pending
    }

    /// A stream event as the seam's status: `connected` is pending, `status`
    /// approved or declined; heartbeats and unknown events are nil.
    static func registrationStatus(_ event: ServerSentEvent) -> RegistrationStatus? {
        guard ["connected", "status"].contains(event.type),
              let decoded = try? JSONDecoder().decode(RegistrationStreamEvent.self, from: Data(event.data.utf8)) else { return nil }
        switch decoded.status {
        case "approved", "active": return .approved
        case "denied": return .declined(message: event.type == "status" ? decoded.message : nil)
        case "pending": return .pending
        default: return nil
        }
    }
}
