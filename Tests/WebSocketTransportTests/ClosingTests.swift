import ListenUpTestSupport
import NIOWebSocket
import Testing
import WebSocketTransport

/// How connections end: either side's close frame, a dropped socket, a
/// cancelled reader. None of them may leave a reader hanging.
@Suite("WebSocket closing")
struct ClosingTests {
    @Test("the client closes: a masked close frame with the code, the server's answer ends the stream cleanly")
    func clientCloses() async throws {
        let server = try await ScriptedWebSocketServer.start()
        try await withTimeout {
            let connection = try await makeClient().connect(to: server.url())
            let peer = try await server.nextPeer()
            var messages = connection.messages.makeAsyncIterator()
            try await peer.send(text: "last")
            #expect(try await messages.next() == "last")
            await connection.close(code: .normalClosure)
            #expect(try await messages.next() == nil)
            #expect(await connection.closeReason == .closedByClient(code: .normalClosure))
            let close = try await peer.nextFrame { $0.opcode == .connectionClose }
            #expect(close.closeCode == 1000)
            #expect(close.maskKey != nil)
            await peer.waitUntilClosed()
            #expect(await transportError { try await connection.send(text: "too late") } == .notOpen)
            await connection.close()  // a second close is harmless
        }
        await server.stop()
    }

    @Test("a message the server sends between the client's close and its answer is still delivered")
    func messageWhileClosing() async throws {
        let server = try await ScriptedWebSocketServer.start()
        try await withTimeout(.seconds(45)) {
            // The client waits for the server's answer far longer than the
            // test needs (a loaded machine once took 3.9 s to get there).
            let connection = try await makeClient { $0.closeTimeout = .seconds(15) }.connect(to: server.url())
            let peer = try await server.nextPeer()
            peer.ignoreCloseFrames()
            var messages = connection.messages.makeAsyncIterator()
            let closing = Task { await connection.close() }
            _ = try await peer.nextFrame { $0.opcode == .connectionClose }
            try await peer.send(text: "late")
            try await peer.close(code: .normalClosure)
            #expect(try await messages.next() == "late")
            #expect(try await messages.next() == nil)
            await closing.value
            #expect(await connection.closeReason == .closedByClient(code: .normalClosure))
        }
        await server.stop()
    }

    @Test("the client's close completes after the close timeout when the server never answers")
    func closeWithoutAnswer() async throws {
        let server = try await ScriptedWebSocketServer.start()
        try await withTimeout {
            let connection = try await makeClient { $0.closeTimeout = .milliseconds(150) }.connect(to: server.url())
            let peer = try await server.nextPeer()
            peer.ignoreCloseFrames()
            let started = ContinuousClock.now
            await connection.close(code: .goingAway)
            #expect(ContinuousClock.now - started >= .milliseconds(100))
            #expect(await connection.closeReason == .closedByClient(code: .goingAway))
            await peer.waitUntilClosed()
        }
        await server.stop()
    }

    @Test("the server closes mid-stream with a close frame: the client answers with the same code")
    func serverCloses() async throws {
        let server = try await ScriptedWebSocketServer.start()
        try await withTimeout {
            let connection = try await makeClient().connect(to: server.url())
            let peer = try await server.nextPeer()
            try await peer.send(text: "one")
            try await peer.close(code: .unexpectedServerError, reason: "Ping timeout")
            var received: [String] = []
            for try await message in connection.messages { received.append(message) }
            #expect(received == ["one"])
            #expect(await connection.closeReason == .closedByServer(code: .internalError, reason: "Ping timeout"))
            let answer = try await peer.nextFrame { $0.opcode == .connectionClose }
            #expect(answer.closeCode == 1011)
            #expect(answer.maskKey != nil)
            #expect(await transportError { try await connection.send(text: "too late") } == .notOpen)
        }
        await server.stop()
    }

    @Test("the server drops TCP mid-stream without a close frame: the stream throws connectionLost")
    func serverDrops() async throws {
        let server = try await ScriptedWebSocketServer.start()
        try await withTimeout {
            let connection = try await makeClient().connect(to: server.url())
            let peer = try await server.nextPeer()
            try await peer.send(text: "one")
            await peer.drop()
            var received: [String] = []
            let error = await transportError { for try await message in connection.messages { received.append(message) } }
            #expect(received == ["one"])
            #expect(error == .connectionLost)
            #expect(await connection.closeReason == .failed(.connectionLost))
        }
        await server.stop()
    }

    @Test("stopping the server ends an idle reader (no hang)")
    func serverStops() async throws {
        let server = try await ScriptedWebSocketServer.start()
        try await withTimeout {
            let connection = try await makeClient().connect(to: server.url())
            _ = try await server.nextPeer()
            let reader = Task { await transportError { for try await _ in connection.messages {} } }
            await server.stop()
            #expect(await reader.value == .connectionLost)
        }
    }

    @Test("cancelling the reading task closes the connection with 1001")
    func cancelledReader() async throws {
        let server = try await ScriptedWebSocketServer.start()
        try await withTimeout {
            let connection = try await makeClient().connect(to: server.url())
            let peer = try await server.nextPeer()
            let reader = Task { for try await _ in connection.messages {} }
            try await Task.sleep(for: .milliseconds(20))
            reader.cancel()
            #expect(try await peer.nextFrame { $0.opcode == .connectionClose }.closeCode == 1001)
            #expect(await connection.closeReason == .closedByClient(code: .goingAway))
        }
        await server.stop()
    }
}
