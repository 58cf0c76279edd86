import Foundation
import Testing
@testable import ListenUpKRPC

/// `AppResult<T>` and `RpcEvent<T>` (§3.0), decoded from the `data` layer.
@Suite("AppResult and RpcEvent")
struct AppResultTests {
    static func successData(_ name: String) throws -> String {
        guard case .callSuccess(let success) = try Fixture.message(name) else {
            Issue.record("\(name) is not a CallSuccess")
            throw KRPCDecodingError.unknownType(name)
        }
        return success.data
    }

    @Test func serverInfoWithOmittedDefaults() throws {
        let info = try AppResult<ServerInfo>.decode(from: try Self.successData("call_success_get_server_info.json")).get()
        #expect(info == ServerInfo(name: "ListenUp", version: "0.9.0", apiVersion: "v1", setupRequired: true,
                                   registrationPolicy: .approvalQueue, instanceId: "8f0c2a4e-0000-0000-0000-000000000000"))
        #expect(info.remoteUrl == nil && !info.pushEnabled && !info.rootResetArmed)
    }

    @Test func domainFailureIsStillACallSuccess() throws {
        let result = try AppResult<AuthSession>.decode(from: try Self.successData("call_success_login_invalid_credentials.json"))
        let error = try #require(result.error)
        #expect(result.value == nil)
        #expect(error.kind == .authInvalidCredentials)
        #expect(error.code == "AUTH_INVALID_CREDENTIALS")
        #expect(error.correlationId == "3b1f6c9e-5d2a-4c1e-9a57-0f6f2b8e7d11")
        #expect(error.fields.isEmpty)
        #expect(throws: error) { try result.get() }
    }

    @Test func rateLimitedInnerData() throws {
        let error = try #require(try AppResult<AuthSession>.decode(from: try Fixture.text("app_result_rate_limited.json")).error)
        #expect(error.kind == .authRateLimited)
        #expect(error.retryAfterSeconds == 6)
        #expect(error.isRetryable)
        #expect(error.correlationId == "<uuid>")
    }

    @Test func unitAndNullableData() throws {
        #expect(try AppResult<KotlinUnit>.decode(from: #"{"type":"Success","data":{}}"#) == .success(KotlinUnit()))
        #expect(try AppResult<PlaybackPositionSyncPayload?>.decode(from: #"{"type":"Success","data":null}"#) == .success(nil))
        #expect(try AppResult<[String]>.decode(from: #"{"type":"Success","data":["books","series"]}"#) == .success(["books", "series"]))
    }

    @Test func malformedResultsThrow() {
        #expect(throws: KRPCDecodingError.unknownType("Maybe")) {
            try AppResult<KotlinUnit>.decode(from: #"{"type":"Maybe","data":{}}"#)
        }
        #expect(throws: KRPCDecodingError.missingKey(path: "data")) {
            try AppResult<ServerInfo>.decode(from: #"{"type":"Success"}"#)
        }
        #expect(throws: KRPCDecodingError.missingKey(path: "data.instanceId")) {
            try AppResult<ServerInfo>.decode(from: #"{"type":"Success","data":{"name":"n","version":"v","apiVersion":"v1","setupRequired":false,"registrationPolicy":"OPEN"}}"#)
        }
        #expect(throws: KRPCDecodingError.notJSON) { try AppResult<ServerInfo>.decode(from: "") }
    }

    @Test func rpcEventLiterals() throws {
        #expect(try RpcEvent<String>.decode(from: try Fixture.text("rpc_event_data_string.json")) == .data("x"))
        #expect(try RpcEvent<String>.decode(from: try Fixture.text("rpc_event_complete.json")) == .complete)
        #expect(throws: KRPCDecodingError.unknownType("RpcEvent.Paused")) {
            try RpcEvent<String>.decode(from: #"{"type":"RpcEvent.Paused"}"#)
        }
    }

    @Test func rpcEventErrorEndsTheStream() throws {
        guard case .streamMessage(let element) = try Fixture.message("stream_message_session_expired.json") else {
            Issue.record("not a stream message"); return
        }
        guard case .error(let error) = try RpcEvent<SyncFrame>.decode(from: element.data) else {
            Issue.record("not an error event"); return
        }
        #expect(error.kind == .authSessionExpired)
        #expect(error.correlationId == nil)
    }
}
