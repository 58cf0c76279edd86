import Foundation
import KRPCSession
import ListenUpKRPC
import ListenUpTestSupport
import Testing

/// A live session against the scripted server: the handshake and unary calls.
@Suite("KRPCSession: unary calls over a socket")
struct KRPCSessionCallTests {
    @Test func theClientsFirstFrameIsTheHandshakeAndTheSessionOpensOnTheReply() async throws {
        try await withSession { fixture in
            #expect(await fixture.session.isOpen)
            #expect(await fixture.session.connectionId == 1)
            let request = try #require(fixture.server.upgradeRequests.first)
            #expect(request.path == "/api/rpc/public")
            #expect(request.header("Sec-WebSocket-Protocol") == nil)
            #expect(fixture.peer.socket.frames.first?.text == ContractFrame.handshakeClient)
        }
    }

    @Test func aUnarySuccessReturnsTheAppResultJSON() async throws {
        try await withSession { fixture in
            async let result = fixture.session.call(.getServerInfo)
            let call = try await fixture.peer.nextCall()
            #expect(call.callId == "1:getServerInfo:1")
            try await fixture.peer.send(ContractFrame.getServerInfoSuccess, as: call)
            #expect(try await result == (try innerData(ContractFrame.getServerInfoSuccess)))
        }
    }

    @Test func theTypedCallDecodesTheResult() async throws {
        try await withSession { fixture in
            async let result = fixture.session.call(.getServerInfo, arguments: NoArguments(), returning: ServerInfo.self)
            try await fixture.peer.send(ContractFrame.getServerInfoSuccess, as: try await fixture.peer.nextCall())
            let info = try #require(try await result.value)
            #expect(info.name == "ListenUp" && info.apiVersion == "v1")
        }
    }

    @Test func aDomainFailureIsAResultNotAnError() async throws {
        try await withSession { fixture in
            let request = LoginRequest(email: "alice@example.com", password: "correct horse battery")
            async let result = fixture.session.call(.login, arguments: RequestArguments(request), returning: AuthSession.self)
            let call = try await fixture.peer.nextCall()
            #expect(call.method == "login" && call.serviceType == KRPCServiceType.authServicePublic.rawValue)
            try await fixture.peer.send(ContractFrame.loginInvalidCredentials, as: call)
            let error = try #require(try await result.error)
            #expect(error.type == "AuthError.InvalidCredentials")
        }
    }

    @Test func aCallExceptionIsThrown() async throws {
        try await withSession { fixture in
            let session = fixture.session
            let result = Task { try await session.call(service: KRPCServiceType.instanceService.rawValue, method: "getInfo") }
            try await fixture.peer.send(ContractFrame.unknownMethodException, as: try await fixture.peer.nextCall())
            let error = await failure(of: result)
            #expect(error as? KRPCSessionError == .callException(
                className: "kotlin.IllegalStateException",
                message: "Service com.calypsan.listenup.api.InstanceService has no method 'getInfo'"))
        }
    }

    @Test func aCallThatIsNeverAnsweredTimesOutAndIsCancelledOnTheServer() async throws {
        try await withSession { fixture in
            let started = ContinuousClock.now
            let session = fixture.session
            let result = Task { try await session.call(.getServerInfo, timeout: .milliseconds(300)) }
            let call = try await fixture.peer.nextCall()
            let error = await failure(of: result)
            #expect(error as? KRPCSessionError == .timedOut(method: "getServerInfo"))
            let waited = ContinuousClock.now - started
            #expect(waited >= .milliseconds(300) && waited < .seconds(5), "fires, and long before a hang")
            let cancel = try await fixture.peer.next()
            #expect(cancel == .cancelRequest(callId: call.callId, serviceType: call.serviceType))
            // The session is still usable, and the late answer changes nothing.
            try await fixture.peer.send(ContractFrame.getServerInfoSuccess, as: call)
            async let next = fixture.session.call(.listDomains)
            try await fixture.peer.succeed(try await fixture.peer.nextCall(), data: #"{"type":"Success","data":[]}"#)
            #expect(try await next == #"{"type":"Success","data":[]}"#)
        }
    }

    @Test func concurrentCallsAreMatchedByCallId() async throws {
        try await withSession { fixture in
            let session = fixture.session
            async let answers = withThrowingTaskGroup(of: (Int, String).self) { group in
                for index in 0..<8 {
                    group.addTask { (index, try await session.call(.digest, arguments: #"{"n":\#(index)}"#)) }
                }
                return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
            }
            var calls: [KRPCCallData] = []
            for _ in 0..<8 { calls.append(try await fixture.peer.nextCall()) }
            #expect(Set(calls.map(\.callId)).count == 8)
            for call in calls.reversed() { try await fixture.peer.succeed(call, data: call.data) }
            let results = try await answers
            #expect((0..<8).allSatisfy { results[$0] == #"{"n":\#($0)}"# })
        }
    }

    @Test func aTwentyMegabyteCallSuccessArrivesWhole() async throws {
        try await withSession(.seconds(60)) { fixture in
            let payload = String(repeating: "0123456789abcdef", count: (20 << 20) / 16)
            let data = #"{"type":"Success","data":""# + payload + #""}"#
            async let result = fixture.session.call(.pullDomain, arguments: #"{"domain":"books","since":0,"limit":5000}"#,
                                                    timeout: .seconds(50))
            try await fixture.peer.succeed(try await fixture.peer.nextCall(), data: data)
            let received = try await result
            #expect(received.utf8.count == data.utf8.count)
            #expect(received == data)
        }
    }
}
