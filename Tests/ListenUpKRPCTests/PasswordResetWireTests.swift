import Testing
@testable import ListenUpKRPC

/// Password reset on the wire (addendum §6.3; upstream
/// `api/dto/auth/PasswordReset.kt`, `api/AuthService.kt`): the argument
/// objects under kotlinx's parameter names, the ticket and status events,
/// and the four reset errors with their fields.
@Suite("Password reset wire")
struct PasswordResetWireTests {
    @Test func theArgumentObjectsUseTheKotlinParameterNames() throws {
        #expect(try KRPCJSON.encode(RequestPasswordResetArguments(email: "ada@example.com", deviceClaim: "c-1"))
            == #"{"deviceClaim":"c-1","email":"ada@example.com"}"#)
        #expect(try KRPCJSON.encode(ObservePasswordResetStatusArguments(ticketId: "t-1")) == #"{"ticketId":"t-1"}"#)
        #expect(try KRPCJSON.encode(CompletePasswordResetArguments(ticketId: "t-1", claimSecret: "c-1", code: "ABCD2345",
                                                                   newPassword: "new-password"))
            == #"{"claimSecret":"c-1","code":"ABCD2345","newPassword":"new-password","ticketId":"t-1"}"#)
    }

    @Test func theMethodsAreOnThePublicSocket() {
        for method in [KRPCMethod.requestPasswordReset, .observePasswordResetStatus, .completePasswordReset] {
            #expect(method.service.mount == .public, "\(method)")
        }
        #expect(KRPCMethod.observePasswordResetStatus.isStream)
        #expect(!KRPCMethod.requestPasswordReset.isStream && !KRPCMethod.completePasswordReset.isStream)
        #expect(KRPCMethod.completePasswordReset.delivery == .atMostOnce, "a lost answer is not sent again: it uses an attempt")
    }

    @Test func theTicketAndTheEventsDecode() throws {
        let ticket = try KRPCJSON.decode(PasswordResetTicket.self, from: #"{"ticketId":"t-1","expiresAt":1764259200000}"#)
        #expect(ticket == PasswordResetTicket(ticketId: "t-1", expiresAt: 1_764_259_200_000))
        let event = try RpcEvent<PasswordResetStatusEvent>.decode(
            from: #"{"type":"RpcEvent.Data","value":{"status":"APPROVED","expiresAt":1764259200000}}"#)
        #expect(event == .data(PasswordResetStatusEvent(status: PasswordResetStatusEvent.approved, expiresAt: 1_764_259_200_000)))
        let future = try KRPCJSON.decode(PasswordResetStatusEvent.self, from: #"{"status":"ARCHIVED","expiresAt":1,"extra":true}"#)
        #expect(future.status == "ARCHIVED", "an unknown word is kept for the client to skip")
    }

    @Test func hostilePayloadsAreRefused() {
        for hostile in [#"{}"#, #"{"status":"PENDING"}"#, #"{"status":null,"expiresAt":1}"#, #"{"status":"PENDING","expiresAt":"soon"}"#, #"[]"#] {
            #expect(throws: KRPCDecodingError.self, "\(hostile)") { try KRPCJSON.decode(PasswordResetStatusEvent.self, from: hostile) }
        }
        #expect(throws: KRPCDecodingError.self) { try KRPCJSON.decode(PasswordResetTicket.self, from: #"{"ticketId":"t"}"#) }
    }

    @Test func theResetErrorsAreReadByType() throws {
        let wrong = try AppResult<KotlinUnit>.decode(
            from: #"{"type":"Failure","error":{"type":"AuthError.ResetCodeIncorrect","correlationId":"c","attemptsRemaining":3}}"#)
        guard case .failure(let error) = wrong else { Issue.record("\(wrong)"); return }
        #expect(error.kind == .authResetCodeIncorrect && error.attemptsRemaining == 3 && error.code == "AUTH_RESET_CODE_INCORRECT")
        for (type, kind) in [("AuthError.ResetRequestNotFound", AppErrorKind.authResetRequestNotFound),
                             ("AuthError.ResetNotApproved", .authResetNotApproved),
                             ("AuthError.ResetAttemptsExhausted", .authResetAttemptsExhausted)] {
            #expect(AppError(type: type).kind == kind)
            #expect(AppError(type: type).attemptsRemaining == nil)
        }
    }
}
