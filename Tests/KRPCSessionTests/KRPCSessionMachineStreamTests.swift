import KRPCSession
import ListenUpKRPC
import Testing

/// Flow calls (§2.5): elements, typed errors, completion, server cancels and
/// the client unsubscribing.
@Suite("KRPCSessionMachine: streams")
struct KRPCSessionMachineStreamTests {
    @Test func dataThenATypedErrorThenStreamFinished() throws {
        var machine = try KRPCSessionMachine.withContractCalls()
        let stream = ContractCall.observeEvents
        #expect(machine.receive(text: ContractFrame.heartbeatElement)
            == [.yieldStream(stream, data: try innerData(ContractFrame.heartbeatElement))])
        #expect(machine.receive(text: ContractFrame.playbackPositionElement)
            == [.yieldStream(stream, data: try innerData(ContractFrame.playbackPositionElement))])
        let errorData = try innerData(ContractFrame.sessionExpiredElement)
        #expect(machine.receive(text: ContractFrame.sessionExpiredElement) == [.yieldStream(stream, data: errorData)])
        #expect(try RpcEvent<SyncFrame>.decode(from: errorData) == .error(AppError(type: "AuthError.SessionExpired")))
        #expect(machine.receive(text: ContractFrame.streamFinished) == [.finishStream(stream)])
        #expect(machine.pendingCallCount == 3)
        #expect(machine.receive(text: ContractFrame.heartbeatElement) == [.log(.unknownCall(callId: "1:observeEvents:4"))])
    }

    @Test func streamCancelFailsTheStreamWithTheCausesMessage() throws {
        var machine = try KRPCSessionMachine.withContractCalls()
        #expect(machine.receive(text: ContractFrame.streamCancel)
            == [.failStream(ContractCall.observeEvents, .streamCancelled(message: "…"))])
    }

    @Test func aCallExceptionFailsAStream() throws {
        var machine = try KRPCSessionMachine.withContractCalls()
        let frame = ContractFrame.unknownMethodException.replacingOccurrences(of: "1:getInfo:3", with: "1:observeEvents:4")
        guard case .failStream(ContractCall.observeEvents, .callException(let className, _))? = machine.receive(text: frame).first
        else { Issue.record("the stream did not fail"); return }
        #expect(className == "kotlin.IllegalStateException")
    }

    @Test func streamsHaveNoTimeout() throws {
        var machine = try KRPCSessionMachine.withContractCalls()
        _ = machine.timeAdvanced(to: .seconds(3600))
        #expect(machine.pendingCallCount == 1)
        #expect(machine.receive(text: ContractFrame.streamFinished) == [.finishStream(ContractCall.observeEvents)])
    }

    @Test func droppingAStreamSendsTheRequestCancellationOfTheContract() throws {
        var machine = try KRPCSessionMachine.withContractCalls()
        let actions = machine.streamDropped(ContractCall.observeEvents)
        #expect(actions.count == 1)
        let sent = try #require(sentTexts(actions).first)
        #expect(sameMessage(sent, ContractFrame.cancelRequest))
        // Byte for byte but for the order of the two last pluginParams keys,
        // which the encoder writes by index (-32765 before -32764).
        #expect(sent == #"{"type":"org.jetbrains.krpc.internal.transport.RPCGenericMessage","connectionId":null,"pluginParams":{"-32767":"cancellation","-32766":"REQUEST","-32765":"1:observeEvents:4","-32764":"com.calypsan.listenup.api.SyncStreamService"}}"#)
    }

    @Test func framesAfterADropAreIgnored() throws {
        var machine = try KRPCSessionMachine.withContractCalls()
        _ = machine.streamDropped(ContractCall.observeEvents)
        for frame in [ContractFrame.heartbeatElement, ContractFrame.streamFinished, ContractFrame.streamCancel] {
            #expect(machine.receive(text: frame) == [.log(.lateFrame(callId: "1:observeEvents:4"))])
        }
        #expect(machine.streamDropped(ContractCall.observeEvents).isEmpty)
        #expect(machine.state == .open(connectionId: 1))
        #expect(machine.receive(text: ContractFrame.getServerInfoSuccess).count == 1)
    }

    @Test func aStreamDroppedBeforeItWasSentIsNeverSent() {
        var machine = KRPCSessionMachine()
        _ = machine.socketOpened(now: .zero)
        let stream = machine.start(.observeEvents, arguments: #"{"sinceRevision":null}"#)
        #expect(machine.streamDropped(stream.handle).isEmpty)
        #expect(machine.receive(text: ContractFrame.handshakeServerReply) == [.completeHandshake(connectionId: 1)])
    }

    @Test func droppedCallIdsAreRememberedWithinABound() {
        var machine = KRPCSessionMachine.opened()
        var handles: [KRPCCallHandle] = []
        for _ in 0..<300 { handles.append(machine.start(.observeEvents).handle) }
        for handle in handles { _ = machine.streamDropped(handle) }
        let first = KRPCMessage.streamFinished(KRPCStreamFinished(callId: "1:observeEvents:1", serviceType: "s"))
        let last = KRPCMessage.streamFinished(KRPCStreamFinished(callId: "1:observeEvents:300", serviceType: "s"))
        #expect(machine.receive(first) == [.log(.unknownCall(callId: "1:observeEvents:1"))])
        #expect(machine.receive(last) == [.log(.lateFrame(callId: "1:observeEvents:300"))])
    }
}
