import ListenUpTestSupport
import NIOCore
import NIOWebSocket
import Testing
import WebSocketTransport

/// A server that breaks the protocol ends the connection with a typed error
/// (and the right close code), never a crash or a hang.
@Suite("WebSocket garbage from the server")
struct GarbageTests {
    @Test("binary frames are ignored; text keeps flowing")
    func binaryIgnored() async throws {
        let server = try await ScriptedWebSocketServer.start()
        try await withTimeout {
            let connection = try await makeClient().connect(to: server.url())
            let peer = try await server.nextPeer()
            var messages = connection.messages.makeAsyncIterator()
            try await peer.send(WebSocketFrame(fin: true, opcode: .binary, data: ByteBuffer(bytes: [0, 1, 2, 255])))
            try await peer.send(fragments: ["still ", "here"])
            #expect(try await messages.next() == "still here")
            await connection.close()
        }
        await server.stop()
    }

    /// One kind of garbage: what the server sends, the error, the close code the client must send.
    struct Garbage: Sendable, CustomTestStringConvertible {
        var name: String
        var send: @Sendable (ScriptedWebSocketPeer) async throws -> Void
        var expected: WebSocketTransportError
        var closeCode: UInt16
        var testDescription: String { name }
    }

    static let garbage: [Garbage] = [
        Garbage(name: "invalid UTF-8 text", send: { peer in
            try await peer.send(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(bytes: [0x68, 0xC3, 0x28, 0xFF])))
        }, expected: .invalidUTF8, closeCode: 1007),
        Garbage(name: "a masked frame", send: { peer in
            try await peer.send(WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(string: "hi")))
        }, expected: .protocolViolation("the server masked a frame"), closeCode: 1002),
        Garbage(name: "a reserved opcode", send: { peer in try await peer.sendRaw([0x83, 0x00]) },
                expected: .protocolViolation("reserved opcode 3"), closeCode: 1002),
        Garbage(name: "reserved bits", send: { peer in try await peer.sendRaw([0xC1, 0x01, 0x61]) },
                expected: .protocolViolation("reserved bits set without an extension"), closeCode: 1002),
        Garbage(name: "a continuation without a start", send: { peer in try await peer.sendRaw([0x80, 0x01, 0x61]) },
                expected: .protocolViolation("fragments: didReceiveFragmentBeforeReceivingTextOrBinaryFrame"), closeCode: 1002),
        Garbage(name: "a new message inside a fragmented one", send: { peer in
            try await peer.sendRaw([0x01, 0x01, 0x61, 0x81, 0x01, 0x62])
        }, expected: .protocolViolation("fragments: receivedNewFrameWithoutFinishingPrevious"), closeCode: 1002),
        Garbage(name: "an oversized ping", send: { peer in try await peer.sendRaw([0x89, 0x7E, 0x00, 0x7E] + Array(repeating: 0x61, count: 126)) },
                expected: .protocolViolation("multiByteControlFrameLength"), closeCode: 1002),
        Garbage(name: "a fragmented ping", send: { peer in try await peer.sendRaw([0x09, 0x01, 0x61]) },
                expected: .protocolViolation("fragmentedControlFrame"), closeCode: 1002),
    ]

    @Test("protocol violations end the stream with a typed error and a close frame", arguments: garbage)
    func violation(_ garbage: Garbage) async throws {
        let server = try await ScriptedWebSocketServer.start()
        try await withTimeout {
            let connection = try await makeClient().connect(to: server.url())
            let peer = try await server.nextPeer()
            var received: [String] = []
            try await peer.send(text: "before")
            try await garbage.send(peer)
            let error = await transportError { for try await message in connection.messages { received.append(message) } }
            #expect(received == ["before"])
            #expect(error == garbage.expected)
            #expect(try await peer.nextFrame { $0.opcode == .connectionClose }.closeCode == garbage.closeCode)
            #expect(await connection.closeReason == .failed(garbage.expected))
            await peer.waitUntilClosed()
        }
        await server.stop()
    }

    @Test("the server's garbage after the handshake never touches other connections")
    func otherConnectionsUnaffected() async throws {
        let server = try await ScriptedWebSocketServer.start()
        try await withTimeout {
            let client = makeClient()
            let broken = try await client.connect(to: server.url())
            let brokenPeer = try await server.nextPeer()
            let healthy = try await client.connect(to: server.url())
            let healthyPeer = try await server.nextPeer()
            try await brokenPeer.sendRaw([0x83, 0x00])
            _ = await broken.closeReason
            try await healthy.send(text: "fine")
            #expect(try await healthyPeer.nextText() == "fine")
            await healthy.close()
        }
        await server.stop()
    }
}
