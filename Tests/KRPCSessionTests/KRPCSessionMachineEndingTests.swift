import KRPCSession
import ListenUpKRPC
import Testing
import WebSocketTransport

/// How a session ends (ENDPOINT either way, a closed socket) and what it
/// shrugs off (protocol Failures, unknown types, window updates, garbage).
@Suite("KRPCSessionMachine: ending and noise")
struct KRPCSessionMachineEndingTests {
    @Test func anEndpointCancellationFromTheServerFailsEverything() throws {
        var machine = try KRPCSessionMachine.withContractCalls()
        #expect(machine.receive(text: ContractFrame.cancelEndpoint) == [
            .failCall(ContractCall.getServerInfo, .endpointCancelled),
            .failCall(ContractCall.login, .endpointCancelled),
            .failCall(ContractCall.getInfo, .endpointCancelled),
            .failStream(ContractCall.observeEvents, .endpointCancelled),
            .closeSocket,
            .sessionEnded(.endpointCancelled),
        ])
        #expect(machine.state == .closed(.endpointCancelled))
        #expect(machine.pendingCallCount == 0)
    }

    @Test func closingSendsTheEndpointCancellationThenClosesTheSocket() throws {
        var machine = try KRPCSessionMachine.withContractCalls()
        let closed = KRPCSessionError.closed(.closedByClient)
        #expect(machine.closeRequested() == [
            .failCall(ContractCall.getServerInfo, closed),
            .failCall(ContractCall.login, closed),
            .failCall(ContractCall.getInfo, closed),
            .failStream(ContractCall.observeEvents, closed),
            .send(ContractFrame.cancelEndpoint),
            .closeSocket,
            .sessionEnded(.closedByClient),
        ])
        #expect(machine.closeRequested().isEmpty)
        #expect(machine.socketClosed(.closedByClient(code: .normalClosure)).isEmpty)
    }

    @Test func closingDuringTheHandshakeSendsNoEndpointCancellation() {
        var machine = KRPCSessionMachine()
        _ = machine.socketOpened(now: .zero)
        #expect(machine.closeRequested() == [.closeSocket, .sessionEnded(.closedByClient)])
    }

    @Test func aClosedSocketFailsEverythingWithItsReason() throws {
        var machine = try KRPCSessionMachine.withContractCalls()
        let reason = WebSocketCloseReason.failed(.connectionLost)
        let error = KRPCSessionError.closed(.socketClosed(reason))
        #expect(machine.socketClosed(reason) == [
            .failCall(ContractCall.getServerInfo, error), .failCall(ContractCall.login, error),
            .failCall(ContractCall.getInfo, error), .failStream(ContractCall.observeEvents, error),
            .sessionEnded(.socketClosed(reason)),
        ])
        #expect(!KRPCSessionCloseReason.socketClosed(reason).isClientInitiated)
    }

    @Test func afterTheEndNothingHappensAndNewCallsFailAsNotOpen() throws {
        var machine = try KRPCSessionMachine.withContractCalls()
        _ = machine.receive(text: ContractFrame.cancelEndpoint)
        #expect(machine.receive(text: ContractFrame.getServerInfoSuccess).isEmpty)
        #expect(machine.receive(text: "garbage").isEmpty)
        #expect(machine.timeAdvanced(to: .seconds(100)).isEmpty)
        #expect(machine.streamDropped(ContractCall.observeEvents).isEmpty)
        let call = machine.start(.getServerInfo)
        #expect(call.actions == [.failCall(call.handle, .notOpen)])
        let stream = machine.start(.observeEvents)
        #expect(stream.actions == [.failStream(stream.handle, .notOpen)])
    }

    @Test func aProtocolFailureIsLoggedAndIgnored() throws {
        var machine = try KRPCSessionMachine.withContractCalls()
        #expect(machine.receive(text: ContractFrame.protocolFailure)
            == [.log(.protocolFailure(errorMessage: "Expected CLIENT_SERVICE_ID for cancellation of type 'request'"))])
        #expect(machine.pendingCallCount == 4)
    }

    @Test func unknownMessageTypesAreLoggedAndIgnored() throws {
        var machine = try KRPCSessionMachine.withContractCalls()
        #expect(machine.receive(text: #"{"type":"org.jetbrains.krpc.RPCMessage.SomethingNew","callId":"1:login:2"}"#)
            == [.log(.unknownMessage(type: "org.jetbrains.krpc.RPCMessage.SomethingNew"))])
        #expect(machine.pendingCallCount == 4)
    }

    @Test func windowUpdatesAreIgnoredSilently() throws {
        var machine = try KRPCSessionMachine.withContractCalls()
        #expect(machine.receive(text: ContractFrame.windowUpdate).isEmpty)
    }

    @Test func otherGenericMessagesAreLogged() throws {
        var machine = KRPCSessionMachine.opened()
        let ack = KRPCMessage.generic(KRPCGenericMessage(pluginParams: [
            .genericMessageType: "cancellation", .cancellationType: "CANCELLATION_ACK", .cancellationId: "1:x:1",
        ]))
        #expect(machine.receive(ack) == [.log(.ignoredGeneric(detail: "CANCELLATION_ACK cancellation"))])
        let odd = KRPCMessage.generic(KRPCGenericMessage(pluginParams: [KRPCPluginKey(rawValue: 5): "x"]))
        #expect(machine.receive(odd) == [.log(.ignoredGeneric(detail: "pluginParams keys [5]"))])
        #expect(machine.state == .open(connectionId: 1))
    }

    @Test(arguments: ["", "not json", "<html><body>502 Bad Gateway</body></html>", "[1,2,3]", #"{"type":42}"#,
                      #"{"type":"org.jetbrains.krpc.RPCMessage.CallSuccess","callId":"1:getServerInfo:1"}"#, "{\"trunc"])
    func garbageTextIsLoggedAndTheSessionGoesOn(_ garbage: String) throws {
        var machine = try KRPCSessionMachine.withContractCalls()
        let actions = machine.receive(text: garbage)
        guard case .log(.undecodableFrame)? = actions.first, actions.count == 1 else {
            Issue.record("expected one undecodable-frame log, got \(actions)")
            return
        }
        #expect(machine.receive(text: ContractFrame.getServerInfoSuccess)
            == [.resumeCall(ContractCall.getServerInfo, data: try innerData(ContractFrame.getServerInfoSuccess))])
    }

    @Test func callDataFromTheServerIsIgnored() throws {
        var machine = KRPCSessionMachine.opened()
        #expect(machine.receive(text: ContractFrame.getServerInfoCall)
            == [.log(.unexpectedMessage(kind: "CallData", callId: "1:getServerInfo:1"))])
    }
}
