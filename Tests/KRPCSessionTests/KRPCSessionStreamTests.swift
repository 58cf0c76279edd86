import KRPCSession
import ListenUpKRPC
import Testing

/// A live session against the scripted server: streams.
@Suite("KRPCSession: streams over a socket")
struct KRPCSessionStreamTests {
    @Test func dataThenATypedErrorThenTheEnd() async throws {
        try await withSession { fixture in
            let stream = await fixture.session.stream(.observeEvents, arguments: #"{"sinceRevision":4711}"#)
            let call = try await fixture.peer.nextCall()
            #expect(call.pluginParams[.nonSuspendingServerFlowMarker] == "")
            for frame in [ContractFrame.heartbeatElement, ContractFrame.sessionExpiredElement, ContractFrame.streamFinished] {
                try await fixture.peer.send(frame, as: call)
            }
            let (elements, error) = await collect(stream)
            #expect(error == nil)
            #expect(try elements == [innerData(ContractFrame.heartbeatElement), innerData(ContractFrame.sessionExpiredElement)])
        }
    }

    @Test func typedEventsDecodeEachElement() async throws {
        try await withSession { fixture in
            let events = await fixture.session.events(.observeEvents, arguments: ObserveEventsArguments(sinceRevision: nil),
                                                      of: SyncFrame.self)
            let call = try await fixture.peer.nextCall()
            #expect(call.data == #"{"sinceRevision":null}"#)
            for frame in [ContractFrame.heartbeatElement, ContractFrame.playbackPositionElement,
                          ContractFrame.sessionExpiredElement, ContractFrame.streamFinished] {
                try await fixture.peer.send(frame, as: call)
            }
            var received: [RpcEvent<SyncFrame>] = []
            for try await event in events { received.append(event) }
            #expect(received.count == 3)
            if case .data(let frame) = received[1] { #expect(frame.domain == "playback_positions") } else {
                Issue.record("the second event is not data")
            }
            #expect(received[2] == .error(AppError(type: "AuthError.SessionExpired")))
        }
    }

    @Test func aStreamCancelFromTheServerFailsTheStream() async throws {
        try await withSession { fixture in
            let stream = await fixture.session.stream(.observeEvents, arguments: #"{"sinceRevision":1}"#)
            let call = try await fixture.peer.nextCall()
            try await fixture.peer.send(ContractFrame.heartbeatElement, as: call)
            try await fixture.peer.send(ContractFrame.streamCancel, as: call)
            let (elements, error) = await collect(stream)
            #expect(elements.count == 1)
            #expect(error as? KRPCSessionError == .streamCancelled(message: "…"))
        }
    }

    @Test func leavingTheLoopSendsTheRequestCancellationAndLateFramesAreIgnored() async throws {
        try await withSession { fixture in
            let peer = fixture.peer
            let server = Task {
                let call = try await peer.nextCall()
                try await peer.send(ContractFrame.heartbeatElement, as: call)
                return call
            }
            let first = try await firstElement(of: await fixture.session.stream(.observeEvents, arguments: #"{"sinceRevision":4711}"#))
            #expect(first == (try innerData(ContractFrame.heartbeatElement)))
            let call = try await server.value
            let cancel = try await peer.next()
            #expect(cancel == .cancelRequest(callId: call.callId, serviceType: call.serviceType))
            #expect(call.callId == "1:observeEvents:1")
            // Late frames for the dropped stream are ignored; the session goes on.
            try await peer.send(ContractFrame.playbackPositionElement, as: call)
            try await peer.send(ContractFrame.streamFinished, as: call)
            let session = fixture.session
            let next = Task { try await session.call(.listDomains) }
            try await peer.succeed(try await peer.nextCall(), data: #"{"type":"Success","data":["books"]}"#)
            #expect(try await next.value == #"{"type":"Success","data":["books"]}"#)
        }
    }

    @Test func cancellingTheConsumingTaskUnsubscribes() async throws {
        try await withSession { fixture in
            let stream = await fixture.session.stream(.observeEvents, arguments: #"{"sinceRevision":4711}"#)
            let consumer = Task { await collect(stream) }
            let call = try await fixture.peer.nextCall()
            try await fixture.peer.send(ContractFrame.heartbeatElement, as: call)
            consumer.cancel()
            let cancel = try await fixture.peer.next()
            #expect(cancel == .cancelRequest(callId: call.callId, serviceType: call.serviceType))
            _ = await consumer.value
        }
    }

    /// The first element, leaving the loop (and dropping the stream) right after it.
    private func firstElement(of stream: AsyncThrowingStream<String, any Error>) async throws -> String? {
        for try await element in stream { return element }
        return nil
    }
}
