import Testing
@testable import ListenUpKRPC

/// Auth results (§3.2): sessions, users with default permissions, register results.
@Suite("Auth results")
struct AuthSessionTests {
    @Test func loginSuccess() throws {
        let session = try AppResult<AuthSession>.decode(from: try AppResultTests.successData("call_success_login.json")).get()
        #expect(session.accessToken == "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.e30.sig")
        #expect(session.accessTokenExpiresAt == 1_787_400_900_000)
        #expect(session.refreshToken == "<opaque>" && session.refreshTokenExpiresAt == 1_789_992_000_000)
        #expect(session.sessionId == "<session-id>")
        #expect(session.user == User(id: "<user-id>", email: "alice@example.com", displayName: "Alice", role: .root,
                                     status: .active, createdAt: 1_787_400_000_000))
        #expect(session.user.permissions == UserPermissions(canEdit: true, canShare: true))
        #expect(session.user.approvedBy == nil && session.user.approvedAt == nil)
    }

    @Test func permissionsFillEachFlag() throws {
        let user = try KRPCJSON.decode(User.self, from: #"{"id":"u","email":"e","displayName":"d","role":"MEMBER","status":"PENDING_APPROVAL","createdAt":1,"permissions":{"canShare":false},"approvedBy":"root","approvedAt":2}"#)
        #expect(user.permissions == UserPermissions(canEdit: true, canShare: false))
        #expect(user.role == .member && user.status == .pendingApproval)
        #expect(user.approvedBy == "root" && user.approvedAt == 2)
        let future = try KRPCJSON.decode(User.self, from: #"{"id":"u","email":"e","displayName":"d","role":"OWNER","status":"ACTIVE","createdAt":1}"#)
        #expect(future.role.rawValue == "OWNER")
    }

    @Test func registerResults() throws {
        let pending = try AppResult<RegisterResult>.decode(from: #"{"type":"Success","data":{"type":"RegisterResult.PendingApproval","userId":"u1"}}"#)
        #expect(pending == .success(.pendingApproval(userId: "u1")))
        let authenticated = try KRPCJSON.decode(RegisterResult.self, from: #"{"type":"RegisterResult.Authenticated","session":{"accessToken":"a","accessTokenExpiresAt":1,"refreshToken":"r","refreshTokenExpiresAt":2,"sessionId":"s","user":{"id":"u","email":"e","displayName":"d","role":"MEMBER","status":"ACTIVE","createdAt":1}}}"#)
        guard case .authenticated(let session) = authenticated else { Issue.record("not authenticated"); return }
        #expect(session.sessionId == "s")
        #expect(throws: KRPCDecodingError.unknownType("RegisterResult.Queued")) {
            try KRPCJSON.decode(RegisterResult.self, from: #"{"type":"RegisterResult.Queued"}"#)
        }
    }

    @Test func serverInfoWithEveryField() throws {
        let info = try KRPCJSON.decode(ServerInfo.self, from: #"{"name":"Home","version":"0.9.1","apiVersion":"v1","setupRequired":false,"registrationPolicy":"OPEN","remoteUrl":"https://x","pushEnabled":true,"rootResetArmed":true,"instanceId":"i"}"#)
        #expect(info.registrationPolicy == .open && info.remoteUrl == "https://x" && info.pushEnabled && info.rootResetArmed)
    }
}
