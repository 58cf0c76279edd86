import Foundation
import ListenUpAPI
import NIOCore
import NIOHTTP1

/// REST v1 registration as the Go server answers it (addendum §7; Go
/// `internal/api/auth_handlers.go`, `internal/sse/registration_handler.go`):
/// every registration waits for approval and opens no session.
extension DemoService {
    /// `POST /api/v1/auth/register {email, password, first_name, last_name}`
    /// → `{user_id, message}`; 403 `registration is not open`, 409 `email
    /// already in use`, 429 past the auth rate limit.
    func register(_ request: DemoRequest) -> DemoResponse {
        let body: RegistrationRequest
        switch decode(request, as: RegistrationRequest.self, required: ["email", "password", "first_name", "last_name"], optional: []) {
        case .failure(let response): return response
        case .success(let decoded): body = decoded
        }
        if let limited = rateLimit(request) { return limited }
        if state.withLock({ $0.registrations.mode == .closed }) { return .failure(403, "registration is not open") }
        if let problem = validate(email: body.email, password: body.password) { return .failure(400, problem) }
        if body.firstName.isEmpty { return .failure(400, "first_name is required") }
        if isEmailTaken(body.email) { return .failure(409, "email already in use") }
        let name = body.lastName.isEmpty ? body.firstName : body.firstName + " " + body.lastName
        let userID = queueRegistration(email: body.email, password: body.password, displayName: name)
        return .envelope(RegistrationResponse(userID: userID, message: "Registration submitted. Waiting for admin approval."), status: 201)
    }

    /// `GET /api/v1/auth/registration-status/{user_id}` → `{user_id, status, approved}`:
    /// `pending`, `active`, or `denied` for an id the server does not know
    /// (a declined user is deleted).
    func registrationStatus(_ request: DemoRequest) -> DemoResponse {
        let userID = String(request.path.dropFirst(Self.registrationStatusPrefix.count))
        let status = state.withLock { $0.registrations.status(of: userID) }
        let word: String = switch status {
        case .some(.none): "pending"
        case .some(.some(.approved)): "active"
        default: "denied"
        }
        return .envelope(RegistrationStatusResponse(userID: userID, status: word, approved: word == "active"))
    }

    static let registrationStatusPrefix = "/api/v1/auth/registration-status/"

    /// The user id of a registration stream's path, if `path` is one.
    static func registrationStreamUserID(_ path: String) -> String? {
        guard path.hasPrefix(registrationStatusPrefix), path.hasSuffix("/stream") else { return nil }
        let id = path.dropFirst(registrationStatusPrefix.count).dropLast("/stream".count)
        return id.isEmpty || id.contains("/") ? nil : String(id)
    }
}

/// `GET /api/v1/auth/registration-status/{user_id}/stream`, as the Go
/// server streams it: `event: connected` `{status:"pending", message}` at
/// once (whatever the status), then on a decision one `event: status`
/// `{status:"approved"|"denied", timestamp}` and the connection closes; a
/// heartbeat every ``DemoServer/Configuration/heartbeatInterval``.
enum DemoRegistrationStream {
    static func open(on context: ChannelHandlerContext, service: DemoService, userID: String) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/event-stream")
        headers.add(name: "Cache-Control", value: "no-cache")
        headers.add(name: "Connection", value: "keep-alive")
        let channel = context.channel
        channel.write(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers)), promise: nil)
        // Subscribed before `connected` is sent, so a decision made once the
        // client has it is never missed.
        let token = service.watchRegistration(userID) { decision in
            let word = decision == .approved ? "approved" : "denied"
            let data = #"{"status":"\#(word)","timestamp":"\#(RFC3339.string(from: Date()))"}"#
            channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: frame("status", data))))).whenComplete { _ in
                channel.writeAndFlush(HTTPServerResponsePart.end(nil)).whenComplete { _ in channel.close(promise: nil) }
            }
        }
        write(frame("connected", #"{"message":"Waiting for admin approval","status":"pending"}"#), to: channel)
        let interval = TimeAmount.milliseconds(Int64(service.configuration.heartbeatInterval * 1000))
        let ticker = channel.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
            write(frame("heartbeat", #"{"server_time":"\#(RFC3339.string(from: Date()))"}"#), to: channel)
        }
        channel.closeFuture.whenComplete { _ in
            ticker.cancel()
            service.unwatchRegistration(userID, token: token)
        }
    }

    private static func frame(_ event: String, _ data: String) -> Data {
        Data("event: \(event)\ndata: \(data)\n\n".utf8)
    }

    private static func write(_ frame: Data, to channel: any Channel) {
        channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: frame))), promise: nil)
    }
}
