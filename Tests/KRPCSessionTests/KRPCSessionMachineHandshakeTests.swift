import KRPCSession
import ListenUpKRPC
import Testing
import WebSocketTransport

/// The start of a session (§2.3): the client's Handshake first, the
/// server's answer within 10 s, calls queued until then.
@Suite("KRPCSessionMachine: handshake")
struct KRPCSessionMachineHandshakeTests {
    @Test func socketOpenSendsTheRecommendedHandshakeFirst() {
        var machine = KRPCSessionMachine()
        #expect(machine.state == .connecting)
        #expect(machine.socketOpened(now: .seconds(5)) == [.send(ContractFrame.handshakeClient)])
        #expect(machine.state == .handshaking(deadline: .seconds(15)))
        #expect(machine.nextDeadline == .seconds(15))
        // A second "open" does nothing.
        #expect(machine.socketOpened(now: .seconds(6)).isEmpty)
    }

    @Test func theServersHandshakeOpensTheSession() {
        var machine = KRPCSessionMachine()
        _ = machine.socketOpened(now: .zero)
        #expect(machine.receive(text: ContractFrame.handshakeServerReply) == [.completeHandshake(connectionId: 1)])
        #expect(machine.state == .open(connectionId: 1))
        #expect(machine.nextDeadline == nil)
    }

    @Test func callsMadeBeforeTheHandshakeAreQueuedThenSentInOrder() throws {
        var machine = KRPCSessionMachine()
        let early = machine.start(.getServerInfo)
        #expect(early.actions.isEmpty)
        _ = machine.socketOpened(now: .zero)
        let login = machine.start(.login, arguments: try callData(ContractFrame.loginCall).data)
        #expect(login.actions.isEmpty)
        #expect(machine.pendingCallCount == 2)
        #expect(machine.receive(text: ContractFrame.handshakeServerReply) == [
            .completeHandshake(connectionId: 1),
            .send(ContractFrame.getServerInfoCall),
            .send(ContractFrame.loginCall),
        ])
        #expect(machine.receive(text: ContractFrame.getServerInfoSuccess)
            == [.resumeCall(early.handle, data: try innerData(ContractFrame.getServerInfoSuccess))])
    }

    @Test func withoutTheServersHandshakeWithinTenSecondsTheSessionFails() {
        var machine = KRPCSessionMachine()
        _ = machine.socketOpened(now: .seconds(1))
        let call = machine.start(.getServerInfo, now: .seconds(1))
        let stream = machine.start(.observeEvents, now: .seconds(2))
        #expect(machine.timeAdvanced(to: .milliseconds(10_999)).isEmpty)
        #expect(machine.timeAdvanced(to: .seconds(11)) == [
            .failCall(call.handle, .handshakeFailed),
            .failStream(stream.handle, .handshakeFailed),
            .closeSocket,
            .sessionEnded(.handshakeTimedOut),
        ])
        #expect(machine.state == .closed(.handshakeTimedOut))
        #expect(machine.receive(text: ContractFrame.handshakeServerReply).isEmpty)
    }

    @Test func theHandshakeTimeoutIsConfigurable() {
        var machine = KRPCSessionMachine(configuration: KRPCSessionConfiguration(
            handshakeTimeout: .milliseconds(300), callTimeout: .seconds(1)))
        _ = machine.socketOpened(now: .zero)
        #expect(machine.timeAdvanced(to: .milliseconds(300)) == [.closeSocket, .sessionEnded(.handshakeTimedOut)])
    }

    @Test func aSocketClosedDuringTheHandshakeFailsTheQueue() {
        var machine = KRPCSessionMachine()
        _ = machine.socketOpened(now: .zero)
        let call = machine.start(.getServerInfo)
        let reason = WebSocketCloseReason.closedByServer(code: .goingAway, reason: "bye")
        #expect(machine.socketClosed(reason) == [
            .failCall(call.handle, .closed(.socketClosed(reason))), .sessionEnded(.socketClosed(reason)),
        ])
    }

    @Test func callLevelFramesBeforeTheHandshakeAreLoggedAndIgnored() {
        var machine = KRPCSessionMachine()
        _ = machine.socketOpened(now: .zero)
        #expect(machine.receive(text: ContractFrame.getServerInfoSuccess)
            == [.log(.unexpectedMessage(kind: "CallSuccess", callId: "1:getServerInfo:1"))])
        #expect(machine.receive(text: ContractFrame.protocolFailure)
            == [.log(.protocolFailure(errorMessage: "Expected CLIENT_SERVICE_ID for cancellation of type 'request'"))])
        #expect(machine.state == .handshaking(deadline: .seconds(10)))
    }

    @Test func aSecondHandshakeIsLoggedAndIgnored() {
        var machine = KRPCSessionMachine.opened()
        #expect(machine.receive(text: ContractFrame.handshakeServerReply)
            == [.log(.unexpectedMessage(kind: "Handshake", callId: nil))])
        #expect(machine.state == .open(connectionId: 1))
    }

    @Test func aServerWithoutConnectionIdStillGetsUniqueCallIds() throws {
        var machine = KRPCSessionMachine()
        _ = machine.socketOpened(now: .zero)
        _ = machine.receive(.protocolHandshake(KRPCHandshake(supportedPlugins: [.handshake])))
        let sent = sentTexts(machine.start(.getServerInfo).actions + machine.start(.getServerInfo).actions)
        #expect(try sent.map { try callData($0).callId } == ["0:getServerInfo:1", "0:getServerInfo:2"])
        #expect(try sent.allSatisfy { try callData($0).connectionId == nil })
    }
}
