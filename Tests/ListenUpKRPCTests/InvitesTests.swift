import Testing
@testable import ListenUpKRPC

/// `InviteServicePublic` on the wire (addendum §6.4): the preview as the
/// server writes it (its optional key omitted), hostile and missing keys,
/// the arguments with every parameter sent, and the `InviteError` family.
@Suite("Invites on the wire")
struct InvitesTests {
    @Test func aValidPreviewOmitsTheReason() throws {
        let preview = try AppResult<InvitePreview>.decode(from: #"{"type":"Success","data":{"displayName":"Grace","email":"g@example.com","invitedByName":"Ada","serverName":"Shelf","valid":true}}"#).get()
        #expect(preview == InvitePreview(displayName: "Grace", email: "g@example.com", invitedByName: "Ada", serverName: "Shelf", valid: true))
        #expect(try KRPCJSON.encode(preview) == #"{"displayName":"Grace","email":"g@example.com","invitedByName":"Ada","serverName":"Shelf","valid":true}"#)
    }

    @Test func anInvalidPreviewCarriesItsReasonAndUnknownKeysAreSkipped() throws {
        let preview = try KRPCJSON.decode(InvitePreview.self, from: #"{"displayName":"G","email":"e","invitedByName":"An administrator","serverName":"S","valid":false,"invalidReason":"This invite has expired.","future":{"x":[1]}}"#)
        #expect(!preview.valid && preview.invalidReason == "This invite has expired.")
    }

    @Test func missingOrWronglyTypedKeysAreRefused() {
        for text in [#"{"email":"e","invitedByName":"i","serverName":"s","valid":true}"#,
                     #"{"displayName":"d","email":"e","invitedByName":"i","serverName":"s"}"#,
                     #"{"displayName":"d","email":"e","invitedByName":"i","serverName":"s","valid":"yes"}"#,
                     #"{"displayName":null,"email":"e","invitedByName":"i","serverName":"s","valid":true}"#,
                     #"[]"#, #""#] {
            #expect(throws: KRPCDecodingError.self, "\(text)") { try KRPCJSON.decode(InvitePreview.self, from: text) }
        }
    }

    @Test func theArgumentsSendEveryParameter() throws {
        #expect(try KRPCJSON.encode(LookupInviteArguments(code: "abc")) == #"{"code":"abc"}"#)
        let bare = ClaimInviteArguments(code: "abc", password: "pw-123456", displayName: nil, deviceInfo: nil)
        #expect(try KRPCJSON.encode(bare) == #"{"code":"abc","deviceInfo":null,"displayName":null,"password":"pw-123456"}"#)
        let full = ClaimInviteArguments(code: "abc", password: "pw", displayName: "Grace", deviceInfo: DeviceInfo(platform: "Linux"))
        let text = try KRPCJSON.encode(full)
        #expect(text.contains(#""displayName":"Grace""#) && text.contains(#""deviceInfo":{"#) && text.contains(#""platform":"Linux""#))
    }

    @Test func theMethodsAreOnThePublicMount() {
        #expect(KRPCMethod.lookupInvite.service.mount == .public && KRPCMethod.claimInvite.service.mount == .public)
        #expect(KRPCMethod.lookupInvite.delivery == .retryOnce, "a read")
        #expect(KRPCMethod.claimInvite.delivery == .atMostOnce, "a second send would find it claimed")
        #expect(KRPCMethod.all.contains(.lookupInvite) && KRPCMethod.all.contains(.claimInvite))
    }

    @Test func theInviteErrorsAreKnown() throws {
        let expected: [(String, AppErrorKind, String)] = [
            ("InviteError.NotFound", .inviteNotFound, "INVITE_NOT_FOUND"),
            ("InviteError.Expired", .inviteExpired, "INVITE_EXPIRED"),
            ("InviteError.AlreadyClaimed", .inviteAlreadyClaimed, "INVITE_ALREADY_CLAIMED"),
            ("InviteError.EmailInUse", .inviteEmailInUse, "INVITE_EMAIL_IN_USE"),
            ("InviteError.InvalidInput", .inviteInvalidInput, "INVITE_INVALID_INPUT"),
        ]
        for (type, kind, code) in expected {
            #expect(AppErrorKind(wireType: type) == kind)
            #expect(kind.code == code && !kind.isRetryable)
        }
        let failure = try AppResult<InvitePreview>.decode(from: #"{"type":"Failure","error":{"type":"InviteError.NotFound","correlationId":"c"}}"#)
        guard case .failure(let error) = failure else { Issue.record("\(failure)"); return }
        #expect(error.kind == .inviteNotFound)
    }
}
