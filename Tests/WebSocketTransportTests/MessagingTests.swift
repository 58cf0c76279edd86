import ListenUpTestSupport
import NIOCore
import NIOWebSocket
import Testing
import WebSocketTransport

/// An open connection: text both ways, pings, large and fragmented messages.
@Suite("WebSocket messages")
struct MessagingTests {
    @Test("text round trip; every client frame is masked, with varying keys")
    func roundTrip() async throws {
        let server = try await ScriptedWebSocketServer.start()
        try await withTimeout {
            let connection = try await makeClient().connect(to: server.url())
            let peer = try await server.nextPeer()
            var messages = connection.messages.makeAsyncIterator()

            for index in 0..<4 { try await connection.send(text: #"{"type":"call","n":\#(index)}"#) }
            for index in 0..<4 { #expect(try await peer.nextText() == #"{"type":"call","n":\#(index)}"#) }
            try await peer.send(text: "héllo ✓")
            #expect(try await messages.next() == "héllo ✓")

            let keys = peer.frames.map(\.maskKey)
            #expect(keys.allSatisfy { $0 != nil })
            #expect(Set(keys.compactMap { $0 }).count > 1)
            await connection.close()
        }
        await server.stop()
    }

    @Test("a server ping is answered by a masked pong echoing the exact payload")
    func pongEchoesPing() async throws {
        let server = try await ScriptedWebSocketServer.start()
        try await withTimeout {
            let connection = try await makeClient().connect(to: server.url())
            let peer = try await server.nextPeer()
            // Ktor's pinger: "[ping <64 hex> ping]".
            let payload = Array("[ping \(String(repeating: "0123456789abcdef", count: 4)) ping]".utf8)
            try await peer.ping(payload)
            let pong = try await peer.nextFrame { $0.opcode == .pong }
            #expect(pong.payload == payload)
            #expect(pong.maskKey != nil)
            try await peer.ping([])
            #expect(try await peer.nextFrame { $0.opcode == .pong }.payload == [])
            await connection.close()
        }
        await server.stop()
    }

    @Test("the client pings on its own when configured")
    func clientPings() async throws {
        let server = try await ScriptedWebSocketServer.start()
        try await withTimeout {
            let connection = try await makeClient { $0.pingInterval = .milliseconds(50) }.connect(to: server.url())
            let peer = try await server.nextPeer()
            let ping = try await peer.nextFrame { $0.opcode == .ping }
            #expect(ping.maskKey != nil)
            #expect(ping.payload.count == 8)
            await connection.close()
        }
        await server.stop()
    }

    @Test("a 20 MB message arrives whole")
    func largeMessage() async throws {
        let server = try await ScriptedWebSocketServer.start()
        let line = String(repeating: "0123456789abcdefghijklmnopqrstuvwxyzé", count: 3) + "\n"
        let large = String(repeating: line, count: 20_000_000 / line.utf8.count) + "END"
        try await withTimeout(.seconds(45)) {
            let connection = try await makeClient().connect(to: server.url())
            let peer = try await server.nextPeer()
            var messages = connection.messages.makeAsyncIterator()
            try await peer.send(text: large)
            try await peer.send(text: "after")
            let received = try #require(try await messages.next())
            #expect(received.utf8.count == large.utf8.count)
            let same = received == large
            #expect(same)
            #expect(try await messages.next() == "after")
            await connection.close()
        }
        await server.stop()
    }

    @Test("a message fragmented over continuation frames (a ping in between) is aggregated")
    func fragmentedMessage() async throws {
        let server = try await ScriptedWebSocketServer.start()
        try await withTimeout {
            let connection = try await makeClient().connect(to: server.url())
            let peer = try await server.nextPeer()
            var messages = connection.messages.makeAsyncIterator()
            try await peer.send(fragments: [#"{"type":"#, #""success","#, "", #""data":"ok"}"#])
            try await peer.send(WebSocketFrame(fin: false, opcode: .text, data: .init(string: "part one, ")))
            try await peer.ping([7, 7])
            try await peer.send(WebSocketFrame(fin: true, opcode: .continuation, data: .init(string: "part two")))
            #expect(try await messages.next() == #"{"type":"success","data":"ok"}"#)
            #expect(try await messages.next() == "part one, part two")
            #expect(try await peer.nextFrame { $0.opcode == .pong }.payload == [7, 7])
            await connection.close()
        }
        await server.stop()
    }

    @Test("a message over the limit ends the stream with messageTooLarge and close code 1009",
          arguments: [false, true])
    func tooLarge(fragmented: Bool) async throws {
        let server = try await ScriptedWebSocketServer.start()
        try await withTimeout {
            let connection = try await makeClient { $0.maxMessageSize = 1024 }.connect(to: server.url())
            let peer = try await server.nextPeer()
            let chunk = String(repeating: "x", count: 700)
            if fragmented { try await peer.send(fragments: [chunk, chunk]) } else { try await peer.send(text: chunk + chunk) }
            let error = await transportError { for try await _ in connection.messages {} }
            #expect(error == .messageTooLarge(limit: 1024))
            #expect(try await peer.nextFrame { $0.opcode == .connectionClose }.closeCode == 1009)
            #expect(await connection.closeReason == .failed(.messageTooLarge(limit: 1024)))
        }
        await server.stop()
    }
}
