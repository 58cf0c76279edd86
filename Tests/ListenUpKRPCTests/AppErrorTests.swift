import Foundation
import Testing
@testable import ListenUpKRPC

/// `AppError`, decoded generically with typed accessors (§3.0).
@Suite("AppError")
struct AppErrorTests {
    static func error(_ json: String) throws -> AppError {
        try KRPCJSON.decode(AppError.self, from: json)
    }

    @Test func unknownFamilyMeansANewerServer() throws {
        let error = try Self.error(try Fixture.text("app_error_unknown_family.json"))
        #expect(error.type == "AppError.SomeFutureFamily")
        #expect(error.kind == .unknown)
        #expect(error.correlationId == "cid-future-1")
        #expect(error.code == "FUTURE_THING_FAILED")
        #expect(error.isRetryable)
        #expect(error.fields["message"] == .string("A future thing failed."))
        let bare = try Self.error(#"{"type":"LibraryError.Gone"}"#)
        #expect(bare.code == "UNKNOWN_ERROR" && !bare.isRetryable)
    }

    @Test func knownTypesIgnoreWireCodes() throws {
        let error = try Self.error(#"{"type":"AuthError.SessionExpired","code":"SOMETHING_ELSE","isRetryable":true}"#)
        #expect(error.code == "AUTH_SESSION_EXPIRED")
        #expect(!error.isRetryable)
    }

    @Test func typedAccessors() throws {
        let revoked = try Self.error(#"{"type":"AuthError.InvalidRefreshToken","correlationId":"c","familyRevoked":true}"#)
        #expect(revoked.familyRevoked == true)
        #expect(try Self.error(#"{"type":"AuthError.InvalidRefreshToken","familyRevoked":false}"#).familyRevoked == false)

        let weak = try Self.error(#"{"type":"AuthError.WeakPassword","reason":"TOO_SHORT"}"#)
        #expect(weak.weakPasswordReason == .tooShort)
        #expect(try Self.error(#"{"type":"AuthError.WeakPassword","reason":"EMOJI"}"#).weakPasswordReason?.rawValue == "EMOJI")

        let validation = try Self.error(#"{"type":"AppError.ValidationError","message":"Email is malformed","field":"email","debugInfo":"d"}"#)
        #expect(validation.validationMessage == "Email is malformed")
        #expect(validation.validationField == "email")
        #expect(validation.debugInfo == "d")

        let notFound = try Self.error(#"{"type":"SyncError.NotFound","domain":"book","entityId":"b1","correlationId":"c"}"#)
        #expect(notFound.kind == .syncNotFound)
        #expect(notFound.syncDomain == "book" && notFound.syncEntityId == "b1")

        let tooMany = try Self.error(#"{"type":"SyncError.TooManyIds","requested":250,"maxIds":100}"#)
        #expect(tooMany.fields["requested"]?.intValue == 250 && tooMany.fields["maxIds"]?.intValue == 100)

        let internalError = try Self.error(#"{"type":"AppError.InternalError","correlationId":"c","cause":"NullPointerException"}"#)
        #expect(internalError.internalCause == "NullPointerException")
        #expect(internalError.validationMessage == nil)
    }

    @Test func descriptionLeavesFieldsOut() throws {
        let error = try Self.error(#"{"type":"AppError.ValidationError","message":"password hunter2 too short","correlationId":"c1"}"#)
        #expect(error.description == "VALIDATION_ERROR (AppError.ValidationError) cid=c1")
    }

    @Test func malformedErrorsThrow() {
        #expect(throws: KRPCDecodingError.missingKey(path: "type")) { try Self.error(#"{"correlationId":"c"}"#) }
        #expect(throws: KRPCDecodingError.self) { try Self.error(#""AuthError.InvalidCredentials""#) }
    }
}
