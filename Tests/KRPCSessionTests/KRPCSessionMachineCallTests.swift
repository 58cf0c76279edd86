import KRPCSession
import ListenUpKRPC
import Testing

/// Unary calls (§2.4): call ids, results, CallException, timeouts, cancellation.
@Suite("KRPCSessionMachine: unary calls")
struct KRPCSessionMachineCallTests {
    @Test func callsAreSentAsTheContractWritesThemWithConnectionMethodCounterIds() throws {
        var machine = KRPCSessionMachine.opened()
        var sent: [String] = []
        for (method, arguments) in try contractCalls {
            sent += sentTexts(machine.start(method, arguments: arguments).actions)
        }
        #expect(try sent.map { try callData($0).callId }
            == ["1:getServerInfo:1", "1:login:2", "1:getInfo:3", "1:observeEvents:4"])
        #expect(sent[0] == ContractFrame.getServerInfoCall)
        #expect(sent[1] == ContractFrame.loginCall)
        #expect(sent[3] == ContractFrame.observeEventsCall)
    }

    @Test func aSuccessResumesTheCallWithTheAppResultJSON() throws {
        var machine = try KRPCSessionMachine.withContractCalls()
        let data = try innerData(ContractFrame.getServerInfoSuccess)
        #expect(data.hasPrefix(#"{"type":"Success","data":{"name":"ListenUp""#))
        #expect(machine.receive(text: ContractFrame.getServerInfoSuccess) == [.resumeCall(ContractCall.getServerInfo, data: data)])
        #expect(machine.pendingCallCount == 3)
        // Answered once: a duplicate is a stray frame.
        #expect(machine.receive(text: ContractFrame.getServerInfoSuccess) == [.log(.unknownCall(callId: "1:getServerInfo:1"))])
    }

    @Test func aDomainFailureIsStillASuccessfulCall() throws {
        var machine = try KRPCSessionMachine.withContractCalls()
        let data = try innerData(ContractFrame.loginInvalidCredentials)
        #expect(machine.receive(text: ContractFrame.loginInvalidCredentials) == [.resumeCall(ContractCall.login, data: data)])
        #expect(try AppResult<AuthSession>.decode(from: data).error?.type == "AuthError.InvalidCredentials")
    }

    @Test func aCallExceptionFailsTheCallWithTheServersClassAndMessage() throws {
        var machine = try KRPCSessionMachine.withContractCalls()
        let error = KRPCSessionError.callException(
            className: "kotlin.IllegalStateException",
            message: "Service com.calypsan.listenup.api.InstanceService has no method 'getInfo'")
        #expect(machine.receive(text: ContractFrame.unknownMethodException) == [.failCall(ContractCall.getInfo, error)])
        #expect(!error.isRetryableAfterReconnect)
    }

    @Test func aNeverAnsweredCallTimesOutAfterFifteenSecondsAndIsCancelled() throws {
        var machine = KRPCSessionMachine.opened()
        let call = machine.start(.getServerInfo, now: .seconds(2))
        #expect(machine.nextDeadline == .seconds(17))
        #expect(machine.timeAdvanced(to: .milliseconds(16_999)).isEmpty)
        let actions = machine.timeAdvanced(to: .seconds(17))
        #expect(actions.first == .failCall(call.handle, .timedOut(method: "getServerInfo")))
        #expect(sentTexts(actions).count == 1)
        #expect(sameMessage(sentTexts(actions)[0], KRPCMessage.cancelRequest(
            callId: "1:getServerInfo:1", serviceType: KRPCServiceType.instanceService.rawValue).encoded()))
        #expect(machine.pendingCallCount == 0)
        // The late answer is dropped quietly, and the session goes on.
        #expect(machine.receive(text: ContractFrame.getServerInfoSuccess) == [.log(.lateFrame(callId: "1:getServerInfo:1"))])
        #expect(machine.state == .open(connectionId: 1))
        #expect(KRPCSessionError.timedOut(method: "getServerInfo").description.contains("getServerInfo"))
    }

    @Test func aCallCanNameItsOwnTimeout() {
        var machine = KRPCSessionMachine.opened()
        let short = machine.start(.getServerInfo, timeout: .milliseconds(300))
        let normal = machine.start(.listDomains)
        let actions = machine.timeAdvanced(to: .milliseconds(300))
        #expect(actions.first == .failCall(short.handle, .timedOut(method: "getServerInfo")))
        #expect(!actions.contains(.failCall(normal.handle, .timedOut(method: "listDomains"))))
        #expect(machine.nextDeadline == .seconds(15))
    }

    @Test func theDefaultCallTimeoutIsConfigurable() {
        var machine = KRPCSessionMachine.opened(KRPCSessionConfiguration(handshakeTimeout: .seconds(1),
                                                                         callTimeout: .milliseconds(300)))
        let call = machine.start(.getServerInfo)
        #expect(machine.timeAdvanced(to: .milliseconds(299)).isEmpty)
        #expect(machine.timeAdvanced(to: .milliseconds(300)).first == .failCall(call.handle, .timedOut(method: "getServerInfo")))
    }

    @Test func aQueuedCallTimesOutWithoutSendingAnything() {
        var machine = KRPCSessionMachine(configuration: KRPCSessionConfiguration(handshakeTimeout: .seconds(10),
                                                                                 callTimeout: .seconds(1)))
        _ = machine.socketOpened(now: .zero)
        let call = machine.start(.getServerInfo)
        #expect(machine.timeAdvanced(to: .seconds(1)) == [.failCall(call.handle, .timedOut(method: "getServerInfo"))])
        // Not sent after the handshake either.
        #expect(machine.receive(text: ContractFrame.handshakeServerReply) == [.completeHandshake(connectionId: 1)])
    }

    @Test func aCancelledCallFailsAndIsCancelledOnTheServer() {
        var machine = KRPCSessionMachine.opened()
        let call = machine.start(.getServerInfo)
        let actions = machine.callCancelled(call.handle)
        #expect(actions.first == .failCall(call.handle, .cancelled))
        #expect(sentTexts(actions).count == 1)
        #expect(machine.callCancelled(call.handle).isEmpty)
        #expect(machine.receive(text: ContractFrame.getServerInfoSuccess) == [.log(.lateFrame(callId: "1:getServerInfo:1"))])
    }

    @Test func aRequestCancellationFromTheServerFailsThatCall() throws {
        var machine = try KRPCSessionMachine.withContractCalls()
        let cancel = KRPCMessage.cancelRequest(callId: "1:login:2", serviceType: KRPCServiceType.authServicePublic.rawValue)
        #expect(machine.receive(cancel) == [.failCall(ContractCall.login, .cancelledByServer)])
    }

    @Test func framesForUnknownCallsAreLoggedAndIgnored() {
        var machine = KRPCSessionMachine.opened()
        #expect(machine.receive(text: ContractFrame.loginSuccess) == [.log(.unknownCall(callId: "1:login:2"))])
        #expect(machine.state == .open(connectionId: 1))
    }

    @Test func aStreamMessageForAUnaryCallIsIgnored() throws {
        var machine = KRPCSessionMachine.opened()
        _ = machine.startCall(service: KRPCServiceType.syncStreamService.rawValue, method: "observeEvents",
                              arguments: "{}", kind: .unary(timeout: nil), now: .zero)
        let element = ContractFrame.heartbeatElement.replacingOccurrences(of: "1:observeEvents:4", with: "1:observeEvents:1")
        #expect(machine.receive(text: element) == [.log(.unexpectedMessage(kind: "StreamMessage", callId: "1:observeEvents:1"))])
        #expect(machine.pendingCallCount == 1)
    }
}
