import Foundation
import ServerSentEvents
import Testing

@Suite("Server-sent events parser")
struct ServerSentEventParserTests {
    @Test func theContractFramesParse() throws {
        // The contract's fixture, kept with the REST v1 contract's others.
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ListenUpAPITests/Fixtures/sse_frames.txt")
        var parser = ServerSentEventParser()
        let events = parser.feed(try Data(contentsOf: url))
        #expect(events.map(\.type) == ["connected", "listening.progress_updated", "heartbeat"])
        #expect(events.allSatisfy { $0.id == nil }, "live frames carry no id")
        let connected = try #require(try JSONSerialization.jsonObject(with: Data(events[0].data.utf8)) as? [String: Any])
        #expect((connected["client_id"] as? String)?.hasPrefix("sse-") == true)
        let progress = try #require(try JSONSerialization.jsonObject(with: Data(events[1].data.utf8)) as? [String: Any])
        #expect(progress["type"] as? String == "listening.progress_updated")
    }

    @Test func byteByByteCRLFCommentsMultiLineDataAndIDs() {
        let stream = ": keep-alive\r\nid: 42\r\nevent: book.created\r\ndata: {\"a\":\r\ndata:1}\r\n\r\ndata: plain\n\n"
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        for byte in Array(stream.utf8) { events += parser.feed([byte]) }
        #expect(events == [
            ServerSentEvent(type: "book.created", data: "{\"a\":\n1}", id: "42"),
            ServerSentEvent(type: "message", data: "plain", id: "42"),
        ])
    }

    @Test func oversizedFramesAreDropped() {
        var parser = ServerSentEventParser(maxEventBytes: 64)
        let big = "data: " + String(repeating: "x", count: 200) + "\n\n"
        #expect(parser.feed(Array((big + "data: ok\n\n").utf8)) == [ServerSentEvent(type: "message", data: "ok")])
    }

    /// The pairing server's player stream: comments are heartbeats the companion counts.
    @Test func readsEventsCommentsAndSplitLines() {
        var parser = ServerSentEventParser()
        var seen: [ServerSentEventItem] = []
        let text = "retry: 3000\n\nevent: state\ndata: {\"a\":1}\n\n: heartbeat\n\ndata: one\r\ndata: two\r\n\r\nevent: end\ndata: {}\r\r"
        // One byte at a time: nothing depends on how the network cuts the stream.
        for byte in Array(text.utf8) { seen += parser.feedItems([byte]) }
        #expect(seen == [.event(ServerSentEvent(type: "state", data: "{\"a\":1}")), .comment("heartbeat"),
                         .event(ServerSentEvent(type: "message", data: "one\ntwo")), .event(ServerSentEvent(type: "end", data: "{}"))])
    }

    @Test func feedDropsCommentsAndAnIDWithNULIsIgnored() {
        var parser = ServerSentEventParser()
        let events = parser.feed(Array(":hi\nid: 7\n\nid: a\u{0}b\ndata: x\n\n".utf8))
        #expect(events == [ServerSentEvent(type: "message", data: "x", id: "7")])
    }
}
