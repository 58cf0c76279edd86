import Foundation
import Testing
@testable import ListenUpKRPC

/// Decoding kRPC frames: every envelope fixture, the upstream golden frames
/// of §2.9, defaults, unknown types and garbage.
@Suite("KRPCMessage decoding")
struct KRPCMessageCodingTests {
    static let envelopeFixtures = [
        "handshake_client_swift.json", "handshake_client_kotlin.json", "handshake_server_reply.json",
        "call_data_get_server_info.json", "call_success_get_server_info.json",
        "call_success_login_invalid_credentials.json", "call_exception_unknown_method.json",
        "call_data_observe_events.json", "stream_message_heartbeat.json", "stream_message_playback_position.json",
        "stream_message_session_expired.json", "stream_finished.json", "stream_cancel.json",
        "generic_cancel_request.json", "generic_cancel_endpoint.json", "generic_window_update.json",
        "protocol_failure.json", "golden_a_handshake_unknown_plugins.json", "golden_b_call_data_no_handshake.json",
        "golden_b_call_success_reply.json", "golden_c_handshake_unquoted_keys.json",
        "golden_d_call_success_short_call_id.json", "call_data_login.json", "call_success_login.json",
        "call_data_pull_domain.json", "call_success_pull_domain.json", "call_data_prepare.json",
        "call_data_record_position.json", "call_data_update_my_preferences.json", "call_success_get_my_preferences.json",
    ]

    @Test(arguments: envelopeFixtures)
    func everyEnvelopeFixtureDecodesToAKnownType(_ name: String) throws {
        let message = try Fixture.message(name)
        if case .unknown(let type) = message { Issue.record("\(name) decoded as unknown \(type)") }
    }

    @Test func everyFixtureIsListedHereOrElsewhere() throws {
        let others: Set = [
            "app_result_rate_limited.json", "app_result_prepare.json", "arguments_record_listening_event.json",
            "rpc_event_data_string.json", "rpc_event_complete.json", "sync_control_access_changed_future_key.json",
            "series_sequence_number.json", "series_sequence_quoted.json", "app_error_unknown_family.json",
        ]
        #expect(Set(try Fixture.allJSONNames()) == Set(Self.envelopeFixtures).union(others))
    }

    @Test func serverHandshakeReply() throws {
        guard case .protocolHandshake(let handshake) = try Fixture.message("handshake_server_reply.json") else {
            Issue.record("not a handshake"); return
        }
        #expect(handshake.supportedPlugins == KRPCPlugin.all)
        #expect(handshake.connectionId == 1)
        #expect(handshake.pluginParams == [.windowUpdate: "1000"])
    }

    @Test func goldenAToleratesUnknownPlugins() throws {
        guard case .protocolHandshake(let handshake) = try Fixture.message("golden_a_handshake_unknown_plugins.json") else {
            Issue.record("not a handshake"); return
        }
        #expect(handshake.connectionId == 1)
        #expect(handshake.supportedPlugins.map(\.rawValue) == [-32_767, 32_766, 32_767])
        #expect(handshake.supportedPlugins.map(\.isKnown) == [true, false, false])
        #expect(handshake.supportedPlugins[1].description == "UNKNOWN(32766)")
    }

    @Test func goldenBFillsOmittedDefaults() throws {
        guard case .callData(let call) = try Fixture.message("golden_b_call_data_no_handshake.json") else {
            Issue.record("not CallData"); return
        }
        #expect(call.callId == "1:kotlinx.rpc.ProtocolTestServiceClient.SendRequest_RPCData:1")
        #expect(call.method == "sendRequest")
        #expect(call.callType == "Method")
        #expect(call.data == "{}")
        #expect(call.connectionId == nil && call.serviceId == nil && call.pluginParams.isEmpty)

        guard case .callSuccess(let reply) = try Fixture.message("golden_b_call_success_reply.json") else {
            Issue.record("not CallSuccess"); return
        }
        #expect(reply.callId == call.callId && reply.serviceType == call.serviceType)
        #expect(reply.connectionId == nil && reply.serviceId == nil && reply.pluginParams.isEmpty)
        #expect(try KRPCJSON.decode(KotlinUnit.self, from: reply.data) == KotlinUnit())
    }

    @Test func goldenCUnquotedKeysAreReadLikeKotlinLenient() throws {
        guard case .protocolHandshake(let handshake) = try Fixture.message("golden_c_handshake_unquoted_keys.json") else {
            Issue.record("not a handshake"); return
        }
        #expect(handshake.connectionId == nil)
        #expect(handshake.supportedPlugins == [.handshake])
        #expect(handshake.pluginParams == [KRPCPluginKey(rawValue: 32_766): "from 32766", KRPCPluginKey(rawValue: 32_767): "from 32767"])
    }

    @Test func goldenDShortCallId() throws {
        guard case .callSuccess(let reply) = try Fixture.message("golden_d_call_success_short_call_id.json") else {
            Issue.record("not CallSuccess"); return
        }
        #expect(reply.callId == "1:sendRequest:1")
        #expect(reply.data == "{}")
    }

    @Test func callExceptionFromTheNativeServer() throws {
        let message = try Fixture.message("call_exception_unknown_method.json")
        guard case .callException(let failure) = message else { Issue.record("not CallException"); return }
        #expect(message.callId == "1:getInfo:3")
        #expect(failure.cause.className == "kotlin.IllegalStateException")
        #expect(failure.cause.message == "Service com.calypsan.listenup.api.InstanceService has no method 'getInfo'")
        #expect(failure.cause.stacktrace.isEmpty)
        #expect(failure.cause.cause == nil)
        #expect(failure.connectionId == 1 && failure.serviceId == nil)
    }

    @Test func streamFrames() throws {
        guard case .streamFinished(let finished) = try Fixture.message("stream_finished.json") else {
            Issue.record("not StreamFinished"); return
        }
        #expect(finished.flowId == "1" && finished.callId == "1:observeEvents:4")
        guard case .streamCancel(let cancel) = try Fixture.message("stream_cancel.json") else {
            Issue.record("not StreamCancel"); return
        }
        #expect(cancel.cause.className == "<a CancellationException type name>")
        #expect(cancel.cause.cause == nil)
        guard case .streamMessage(let element) = try Fixture.message("stream_message_heartbeat.json") else {
            Issue.record("not StreamMessage"); return
        }
        #expect(element.flowId == "1" && element.connectionId == 1)
    }

    @Test func genericMessages() throws {
        guard case .generic(let request) = try Fixture.message("generic_cancel_request.json") else {
            Issue.record("not generic"); return
        }
        #expect(request.connectionId == nil)
        #expect(request.cancellation == KRPCCancellation(type: .request, callId: "1:observeEvents:4",
                                                         serviceType: "com.calypsan.listenup.api.SyncStreamService"))
        guard case .generic(let endpoint) = try Fixture.message("generic_cancel_endpoint.json") else {
            Issue.record("not generic"); return
        }
        #expect(endpoint.cancellation == KRPCCancellation(type: .endpoint))
        guard case .generic(let window) = try Fixture.message("generic_window_update.json") else {
            Issue.record("not generic"); return
        }
        #expect(window.isWindowUpdate && window.cancellation == nil && window.connectionId == 1)
        #expect(!request.isWindowUpdate)
    }

    @Test func protocolFailure() throws {
        guard case .protocolFailure(let failure) = try Fixture.message("protocol_failure.json") else {
            Issue.record("not a failure"); return
        }
        #expect(failure.errorMessage == "Expected CLIENT_SERVICE_ID for cancellation of type 'request'")
        #expect(failure.failedMessage == nil && failure.connectionId == nil)
    }

    @Test func failureCarryingTheFailedMessage() throws {
        let text = #"{"type":"org.jetbrains.krpc.internal.transport.RPCProtocolMessage.Failure","errorMessage":"no","failedMessage":{"type":"org.jetbrains.krpc.internal.transport.RPCGenericMessage","connectionId":null,"pluginParams":{"-32767":"cancellation","-32766":"REQUEST"}}}"#
        guard case .protocolFailure(let failure) = try KRPCMessage(decoding: text) else { Issue.record("not a failure"); return }
        guard case .generic(let failed)? = failure.failedMessage else { Issue.record("no failed message"); return }
        #expect(failed.cancellation?.type == .request)
    }

    @Test func unknownTypeIsTolerated() throws {
        let message = try KRPCMessage(decoding: #"{"type":"org.jetbrains.krpc.RPCMessage.CallDataBinary","callId":"1","data":[1,2]}"#)
        #expect(message == .unknown(type: "org.jetbrains.krpc.RPCMessage.CallDataBinary"))
        #expect(message.callId == nil)
    }

    @Test func unknownKeysAndPluginParamsAreTolerated() throws {
        let text = #"{"type":"org.jetbrains.krpc.RPCMessage.CallSuccess","future":{"x":[1]},"callId":"c","serviceType":"s","data":"{}","pluginParams":{"-1":"a","notANumber":"b","-2":7,"-3":null}}"#
        guard case .callSuccess(let success) = try KRPCMessage(decoding: text) else { Issue.record("not CallSuccess"); return }
        #expect(success.pluginParams == [KRPCPluginKey(rawValue: -1): "a", KRPCPluginKey(rawValue: -2): "7"])
    }

    @Test(arguments: [
        ("", KRPCDecodingError.notJSON),
        ("not json", .notJSON),
        ("<html><body>404</body></html>", .notJSON),
        (#"{"type":"org.jetbrains.krpc.RPCMessage.CallSuccess","callId":"1:lo"#, .notJSON),
        ("[1,2,3]", .typeMismatch(path: "", expected: "an object")),
        ("{}", .missingKey(path: "type")),
        (#"{"type":5}"#, .typeMismatch(path: "type", expected: "a string")),
        (#"{"type":"org.jetbrains.krpc.RPCMessage.CallData"}"#, .missingKey(path: "callId")),
        (#"{"type":"org.jetbrains.krpc.RPCMessage.CallSuccess","callId":"1","serviceType":"s","data":{"a":1}}"#,
         .typeMismatch(path: "data", expected: "a string")),
        (#"{"type":"org.jetbrains.krpc.RPCMessage.CallException","callId":"1","serviceType":"s","cause":{"message":"m"}}"#,
         .missingKey(path: "cause.toStringMessage")),
        (#"{"type":"org.jetbrains.krpc.internal.transport.RPCProtocolMessage.Handshake","supportedPlugins":["x"]}"#,
         .typeMismatch(path: "supportedPlugins[0]", expected: "an integer")),
    ])
    func garbageThrowsAClearError(_ text: String, _ expected: KRPCDecodingError) {
        #expect(throws: expected) { try KRPCMessage(decoding: text) }
    }

    @Test func binaryAndTruncatedInputNeverTraps() throws {
        let full = try Fixture.text("call_success_pull_domain.json")
        for length in stride(from: 0, to: full.utf8.count, by: 97) {
            let prefix = Data(full.utf8.prefix(length))
            #expect(throws: KRPCDecodingError.self) { try KRPCMessage(decoding: prefix) }
        }
        #expect(throws: KRPCDecodingError.self) { try KRPCMessage(decoding: Data([0xFF, 0xFE, 0x00, 0x7B])) }
    }

    @Test func errorDescriptionsNameThePath() {
        #expect(KRPCDecodingError.missingKey(path: "cause.className").description == "missing key cause.className")
        #expect(KRPCDecodingError.missingKey(path: "id").prefixed(by: "items[2]") == .missingKey(path: "items[2].id"))
        #expect(KRPCDecodingError.notJSON.prefixed(by: "items[0]") == .invalidValue(path: "items[0]", reason: "not JSON"))
    }
}
