import Foundation
import JSONToolkit
import ListenUpKRPC

/// `InviteServicePublic` (addendum §6.4; `srv/api/InviteServiceImpl.kt`):
/// `lookupInvite(code)` and `claimInvite(code, password, displayName, deviceInfo)`.
extension DemoKRPCService {
    /// `lookupInvite(code)`: the preview, `valid:false` with the error's
    /// English message for a claimed or expired invite; `NotFound` for an
    /// unknown code. The LOOKUP bucket (20 a minute per address,
    /// `srv/auth/InviteRateLimiter.kt`) comes first.
    func lookupInvite(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let code = try call.present(call.decode("code", as: String.self), "code")
        if let wait = takeAttempt("inviteLookup", perMinute: 20, host: call.remoteHost) {
            return .result(DemoKRPCWrap.failure(.rateLimited(retryAfterSeconds: wait)))
        }
        let found = service.state.withLock { state in
            state.invites.first { $0.code == code }.map { ($0, state.inviterName($0, fallback: "An administrator")) }
        }
        guard let found else { return .result(DemoKRPCWrap.failure(.inviteNotFound)) }
        let (invite, inviter) = found
        let problem = invite.problem(at: Date())
        let preview = InvitePreview(displayName: invite.displayName, email: invite.email, invitedByName: inviter,
                                    serverName: service.configuration.serverName, valid: problem == nil,
                                    invalidReason: problem.map { $0 == .claimed ? "This invite has already been used." : "This invite has expired." })
        do { return .result(DemoKRPCWrap.success(try KRPCJSON.encode(preview))) } catch {
            throw DemoKRPCCallFailure(className: "kotlin.IllegalStateException", message: "\(error)", echoesServiceID: true)
        }
    }

    /// `claimInvite(code, password, displayName, deviceInfo)`: an ACTIVE
    /// account with the invite's email, signed in (session label null). The
    /// CLAIM bucket (5 a minute per address) comes before the checks. The
    /// demo's users have no roles: an ADMIN invite makes a member.
    func claimInvite(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let code = try call.decode("code", as: String.self)
        let password = try call.decode("password", as: String.self)
        let displayName = try call.decodeNullable("displayName", as: String.self)
        let deviceInfo = try call.decodeNullable("deviceInfo", as: DeviceInfo.self)
        // The two defaulted parameters must be sent too (§0): absent is a CallException.
        guard call.arguments["displayName"] != nil else { throw DemoKRPCCallFailure.absentArgument("displayName") }
        guard call.arguments["deviceInfo"] != nil else { throw DemoKRPCCallFailure.absentArgument("deviceInfo") }
        let (claimedCode, claimedPassword) = (try call.present(code, "code"), try call.present(password, "password"))
        if let wait = takeAttempt("inviteClaim", perMinute: 5, host: call.remoteHost) {
            return .result(DemoKRPCWrap.failure(.rateLimited(retryAfterSeconds: wait)))
        }
        let result = service.state.withLock {
            $0.claimInvite(code: claimedCode, password: claimedPassword, displayName: displayName, at: Date())
        }
        switch result {
        case .failure(.notFound): return .result(DemoKRPCWrap.failure(.inviteNotFound))
        case .failure(.claimed): return .result(DemoKRPCWrap.failure(.inviteAlreadyClaimed))
        case .failure(.expired): return .result(DemoKRPCWrap.failure(.inviteExpired))
        case .failure(.emailInUse): return .result(DemoKRPCWrap.failure(.inviteEmailInUse))
        case .failure(.weakPassword(let reason)): return .result(DemoKRPCWrap.failure(.weakPassword(WeakPasswordReason(rawValue: reason))))
        case .success(let user): return .result(DemoKRPCWrap.success(session(for: user, label: nil, deviceInfo: deviceInfo).kotlinJSON))
        }
    }
}

extension DemoAppFailure {
    static let inviteNotFound = DemoAppFailure(type: "InviteError.NotFound")
    static let inviteExpired = DemoAppFailure(type: "InviteError.Expired")
    static let inviteAlreadyClaimed = DemoAppFailure(type: "InviteError.AlreadyClaimed")
    static let inviteEmailInUse = DemoAppFailure(type: "InviteError.EmailInUse")
}
