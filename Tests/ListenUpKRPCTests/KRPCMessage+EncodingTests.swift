import Foundation
import Testing
@testable import ListenUpKRPC

/// Writing kRPC frames: the frames the client sends, byte for byte where
/// the contract gives them, and every fixture round-tripped as a value with
/// `type` first.
@Suite("KRPCMessage encoding")
struct KRPCMessageEncodingTests {
    @Test func recommendedSwiftHandshakeIsExact() throws {
        #expect(KRPCMessage.handshake.encoded() == (try Fixture.text("handshake_client_swift.json")))
        #expect(KRPCMessage.handshake.encoded()
            == #"{"type":"org.jetbrains.krpc.internal.transport.RPCProtocolMessage.Handshake","supportedPlugins":[-32767,-32766,-32765,-32764]}"#)
    }

    @Test(arguments: [
        "handshake_client_swift.json", "handshake_client_kotlin.json", "handshake_server_reply.json",
        "call_data_get_server_info.json", "call_data_observe_events.json", "generic_cancel_endpoint.json",
        "golden_b_call_data_no_handshake.json", "golden_b_call_success_reply.json", "golden_d_call_success_short_call_id.json",
        "call_exception_unknown_method.json", "stream_finished.json", "generic_window_update.json", "protocol_failure.json",
        "call_data_login.json", "call_data_record_position.json",
    ])
    func framesWrittenInDeclarationOrderRoundTripAsText(_ name: String) throws {
        let text = try Fixture.text(name)
        #expect(try KRPCMessage(decoding: text).encoded() == text)
    }

    @Test(arguments: KRPCMessageCodingTests.envelopeFixtures)
    func everyFrameRoundTripsAsAValueWithTypeFirst(_ name: String) throws {
        let text = try Fixture.text(name)
        let message = try KRPCMessage(decoding: text)
        let encoded = message.encoded()
        #expect(Fixture.firstKey(encoded) == "type")
        #expect(try KRPCMessage(decoding: encoded) == message)
        if name != "golden_c_handshake_unquoted_keys.json" {
            #expect(try Fixture.value(encoded) == (try Fixture.value(text)))
        }
    }

    @Test func getServerInfoCall() throws {
        let call = KRPCMessage.call(callId: "1:getServerInfo:1", method: .getServerInfo,
                                    arguments: try KRPCJSON.encode(NoArguments()), connectionId: 1)
        #expect(call.encoded() == (try Fixture.text("call_data_get_server_info.json")))
    }

    @Test func observeEventsCall() throws {
        let call = KRPCMessage.call(callId: "1:observeEvents:4", method: .observeEvents,
                                    arguments: try KRPCJSON.encode(ObserveEventsArguments(sinceRevision: 4711)), connectionId: 1)
        #expect(call.encoded() == (try Fixture.text("call_data_observe_events.json")))
    }

    @Test func callAlwaysCarriesMethodAndTheFlowMarker() throws {
        let call = KRPCMessage.call(callId: "c", serviceType: "com.calypsan.listenup.api.BookService", method: "getBook",
                                    arguments: #"{"id":"b"}"#)
        #expect(call.encoded()
            == #"{"type":"org.jetbrains.krpc.RPCMessage.CallData","callId":"c","serviceType":"com.calypsan.listenup.api.BookService","method":"getBook","callType":"Method","data":"{\"id\":\"b\"}","pluginParams":{"-32763":""}}"#)
    }

    @Test func cancellations() throws {
        #expect(KRPCMessage.cancelEndpoint.encoded() == (try Fixture.text("generic_cancel_endpoint.json")))
        let request = KRPCMessage.cancelRequest(callId: "1:observeEvents:4", serviceType: "com.calypsan.listenup.api.SyncStreamService")
        #expect(try Fixture.message("generic_cancel_request.json") == request)
        #expect(try Fixture.value(request.encoded()) == (try Fixture.value(try Fixture.text("generic_cancel_request.json"))))
        // Both keys of a generic message are always written, null included.
        #expect(request.encoded().contains(#""connectionId":null,"pluginParams":{"-32767":"cancellation""#))
    }

    @Test func stringsAreEscapedLikeKotlinx() {
        let data = "{\"t\":\"a/b \\\"q\\\" é\n\u{01}\"}"
        let message = KRPCMessage.callSuccess(KRPCCallSuccess(callId: "1", serviceType: "s", data: data))
        let encoded = message.encoded()
        #expect(encoded.contains(#""data":"{\"t\":\"a/b \\\"q\\\" é\n\u0001\"}""#))
        #expect((try? KRPCMessage(decoding: encoded)) == message)
    }

    @Test func exceptionChainsAndStackFramesRoundTrip() throws {
        let root = KRPCSerializedException(toStringMessage: "java.io.IOException: disk", message: "disk",
                                           stacktrace: [.init(clazz: "A", method: "b", fileName: nil, lineNumber: -1)],
                                           className: "java.io.IOException")
        let outer = KRPCSerializedException(toStringMessage: "java.lang.IllegalStateException: x", message: "x",
                                            stacktrace: [.init(clazz: "C", method: "d", fileName: "C.kt", lineNumber: 12)],
                                            cause: root, className: "java.lang.IllegalStateException")
        let message = KRPCMessage.streamCancel(KRPCStreamCancel(callId: "1", serviceType: "s", cause: outer, connectionId: 1, serviceId: 3))
        let encoded = message.encoded()
        #expect(encoded.contains(#""fileName":null,"lineNumber":-1}],"cause":null,"#))
        #expect(try KRPCMessage(decoding: encoded) == message)
        #expect(outer.description == "java.lang.IllegalStateException: x")
    }

    @Test func unknownWritesOnlyItsType() {
        #expect(KRPCMessage.unknown(type: "x.Y").encoded() == #"{"type":"x.Y"}"#)
    }
}
