import Foundation
import Testing
@testable import ListenUpAPI

@Suite("Server-sent events and image sniffing")
struct ServerSentEventTests {
    @Test func theContractFramesParse() throws {
        let url = try #require(Bundle.module.url(forResource: "sse_frames.txt", withExtension: nil, subdirectory: "Fixtures"))
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

    @Test func imageFormatsAreSniffed() {
        #expect(ImageFormat.sniff([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]) == .jpeg)
        #expect(ImageFormat.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]) == .png)
        #expect(ImageFormat.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == .webp)
        #expect(ImageFormat.sniff(Array("GIF89a".utf8)) == .gif)
        #expect(ImageFormat.sniff(Array("<html>".utf8)) == nil)
        #expect(ImageFormat.sniff([UInt8]()) == nil)
    }
}
