import Foundation
import ListenUpAPI

/// Invites over REST v1, as the Go server answers them
/// (`internal/api/invite_handlers.go`, `internal/service/invite.go`,
/// `internal/api/web_handlers.go`): `GET /api/v1/invites/{code}`,
/// `POST /api/v1/invites/{code}/claim`, and the `/join/{code}` page.
extension DemoService {
    /// The invite routes, nil for any other request.
    func handleInvites(_ request: DemoRequest) -> DemoResponse? {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch (request.method, parts.count) {
        case ("GET", 3) where parts[1] == "join":
            return joinPage(code: parts[2])
        case ("GET", 5) where parts[1] == "api" && parts[2] == "v1" && parts[3] == "invites":
            return inviteDetails(code: parts[4])
        case ("POST", 6) where parts[1] == "api" && parts[2] == "v1" && parts[3] == "invites" && parts[5] == "claim":
            return claimInvite(code: parts[4], request)
        default:
            return nil
        }
    }

    private func inviteDetails(code: String) -> DemoResponse {
        let found = state.withLock { state in state.invites.first { $0.code == code }.map { ($0, state.inviterName($0, fallback: "Unknown")) } }
        guard let found else { return .failure(404, "invite not found") }
        let (invite, inviter) = found
        return .envelope(InviteDetailsResponse(name: invite.displayName, email: invite.email, serverName: configuration.serverName,
                                               invitedBy: inviter, valid: invite.problem(at: Date()) == nil))
    }

    private func claimInvite(code: String, _ request: DemoRequest) -> DemoResponse {
        let body: ClaimInviteRequest
        switch decode(request, as: ClaimInviteRequest.self, required: ["password"], optional: ["device_info"],
                      nested: ["device_info": Self.deviceInfoKeys]) {
        case .failure(let response): return response
        case .success(let decoded): body = decoded
        }
        if let limited = rateLimit(request) { return limited }
        // Go validates the body first (`validate.Struct`: required, min=8, max=1024).
        if body.password.count < 8 { return .failure(400, "password must be at least 8 characters") }
        if body.password.count > 1024 { return .failure(400, "password exceeds maximum length of 1024 characters") }
        switch state.withLock({ $0.claimInvite(code: code, password: body.password, displayName: nil, at: Date()) }) {
        case .failure(.notFound): return .failure(404, "invite not found")
        case .failure(.claimed): return .failure(409, "invite has already been claimed")
        case .failure(.expired): return .failure(409, "invite has expired")
        case .failure(.emailInUse): return .failure(409, "email already in use")
        case .failure(.weakPassword): return .failure(400, "password must be at least 8 characters")
        case .success(let user): return .envelope(startSession(for: user))
        }
    }

    /// The Go server's join page: a script that opens `listenup://join/<code>`,
    /// or "Invalid Invite" for an unknown code (200 either way).
    private func joinPage(code: String) -> DemoResponse {
        let known = state.withLock { state in state.invites.contains { $0.code == code } }
        // The code goes into a script: only the characters a code has are echoed.
        let safe = code.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) && $0.isASCII || "-_".unicodeScalars.contains($0) }
        let html = known && safe ? """
            <!DOCTYPE html>
            <html>
            <head>
                <title>Join ListenUp</title>
                <script>
                    window.location.href = 'listenup://join/\(code)';
                </script>
            </head>
            <body>
                <h1>Join ListenUp</h1>
                <p>Opening in ListenUp app...</p>
            </body>
            </html>
            """ : """
            <!DOCTYPE html>
            <html>
            <head><title>Invalid Invite</title></head>
            <body>
                <h1>Invalid Invite</h1>
                <p>This invite link is invalid or has expired.</p>
            </body>
            </html>
            """
        return DemoResponse(status: 200, contentType: "text/html; charset=utf-8", body: Data(html.utf8))
    }
}
