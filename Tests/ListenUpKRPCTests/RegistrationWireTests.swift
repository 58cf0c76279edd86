import Testing
@testable import ListenUpKRPC

/// `observeRegistrationStatus` on the wire (addendum §6.2): its argument
/// object, its events with and without the defaulted keys, and hostile ones.
@Suite("Registration wire")
struct RegistrationWireTests {
    @Test func theArgumentObjectNamesTheUser() throws {
        #expect(try KRPCJSON.encode(ObserveRegistrationStatusArguments(userId: "u-1")) == #"{"userId":"u-1"}"#)
        #expect(KRPCMethod.observeRegistrationStatus.isStream)
        #expect(KRPCMethod.observeRegistrationStatus.service.mount == .public)
    }

    @Test func eventsWithAndWithoutTheirDefaults() throws {
        let pending = try RpcEvent<RegistrationStatusEvent>.decode(from: #"{"type":"RpcEvent.Data","value":{"status":"pending"}}"#)
        #expect(pending == .data(RegistrationStatusEvent(status: "pending")))
        let denied = try KRPCJSON.decode(RegistrationStatusEvent.self, from: #"{"status":"denied","timestamp":null,"message":"Family only."}"#)
        #expect(denied == RegistrationStatusEvent(status: "denied", message: "Family only."))
        #expect(try KRPCJSON.encode(RegistrationStatusEvent(status: "approved")) == #"{"status":"approved"}"#)
        let future = try KRPCJSON.decode(RegistrationStatusEvent.self, from: #"{"status":"suspended","extra":1}"#)
        #expect(future.status == "suspended", "an unknown word is kept for the client to ignore")
    }

    @Test func hostileEventsAreRefused() {
        for hostile in [#"{}"#, #"{"status":null}"#, #"{"status":3}"#, #"{"status":"denied","message":7}"#, #"[]"#] {
            #expect(throws: KRPCDecodingError.self, "\(hostile)") { try KRPCJSON.decode(RegistrationStatusEvent.self, from: hostile) }
        }
    }

    @Test func thePolicyWatchSendsBareNames() throws {
        #expect(KRPCMethod.observeRegistrationPolicy.isStream)
        #expect(KRPCMethod.observeRegistrationPolicy.service.mount == .public)
        #expect(try RpcEvent<RegistrationPolicy>.decode(from: #"{"type":"RpcEvent.Data","value":"APPROVAL_QUEUE"}"#) == .data(.approvalQueue))
        #expect(try RpcEvent<RegistrationPolicy>.decode(from: #"{"type":"RpcEvent.Data","value":"INVITE_ONLY"}"#)
            == .data(RegistrationPolicy(rawValue: "INVITE_ONLY")), "a policy newer than the app is kept, and read as closed")
        #expect(throws: KRPCDecodingError.self) { try RpcEvent<RegistrationPolicy>.decode(from: #"{"type":"RpcEvent.Data","value":{}}"#) }
    }

    @Test func anUnknownRegistrationIsReadByItsType() throws {
        let event = try RpcEvent<RegistrationStatusEvent>.decode(
            from: #"{"type":"RpcEvent.Error","error":{"type":"AuthError.RegistrationNotFound"}}"#)
        guard case .error(let error) = event else { Issue.record("\(event)"); return }
        #expect(error.isRegistrationNotFound)
    }
}
