import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import ListenUpCore
import QRCode
import Testing
@testable import Pairing

/// docs/pairing-protocol.md's "Whole flow with curl" script, run as written
/// against a real server, with a real QR image: the document is executable.
@Suite("Protocol document", .serialized)
struct ProtocolDocumentTests {
    static func script(after heading: String) throws -> String {
        let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/pairing-protocol.md")
        let text = try String(contentsOf: document, encoding: .utf8)
        guard let section = text.range(of: heading), let open = text.range(of: "```sh\n", range: section.upperBound..<text.endIndex),
              let close = text.range(of: "\n```", range: open.upperBound..<text.endIndex) else { return "" }
        return String(text[open.upperBound..<close.lowerBound])
    }

    /// Every ```sh block of the section under `heading` (up to the next `## `), in order.
    static func scripts(inSection heading: String) throws -> [String] {
        let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/pairing-protocol.md")
        let text = try String(contentsOf: document, encoding: .utf8)
        guard let section = text.range(of: "\n" + heading + "\n") else { return [] }
        let end = text.range(of: "\n## ", range: section.upperBound..<text.endIndex)?.lowerBound ?? text.endIndex
        var scripts: [String] = []
        var cursor = section.upperBound
        while let open = text.range(of: "```sh\n", range: cursor..<end),
              let close = text.range(of: "\n```", range: open.upperBound..<end) {
            scripts.append(String(text[open.upperBound..<close.lowerBound]))
            cursor = close.upperBound
        }
        return scripts
    }

    /// The "Remote control" recipes, every one, as written, in order, with `pin`, `base`
    /// and `token` as the whole flow sets them, against a scripted player.
    @Test func theRemoteControlRecipesRunAsWritten() async throws {
        let cover = RemoteCover(data: Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]), contentType: "image/jpeg")
        let player = ScriptedRemotePlayer(cover: cover)
        let fixture = try await DiscoveryServerRemoteTests.fixture(player) { $0.remoteHeartbeatInterval = 0.3 }
        defer { Task { await fixture.server.stop() } }
        let (_, token) = try fixture.pairDevice("My Phone")
        let scripts = try Self.scripts(inSection: "## Remote control")
        #expect(scripts.count == 5, "\(scripts.count) recipes") // state, cover, commands, a wrong body, events
        let setUp = "cd '\(fixture.temp.url.path)'\npin='\(fixture.pin)'\nbase='\(fixture.base)'\ntoken='\(token)'\n"
        var outputs: [String] = []
        for script in scripts {
            let (status, output) = try await run(["sh", "-euc", setUp + script])
            #expect(status == 0, "\(script)\n\(output)")
            outputs.append(output)
        }
        let all = outputs.joined(separator: "\n")
        // The state, as the document shows it.
        #expect(all.contains("\"title\":\"The Hobbit\"") && all.contains("\"sleepRemainingMs\":null"), "\(all)")
        // The cover, with its type.
        #expect(all.contains("200 image/jpeg"), "\(all)")
        #expect(try Data(contentsOf: fixture.temp.url.appendingPathComponent("cover.img")) == cover.data)
        // The commands, in the document's order, the wrong body refused as shown.
        #expect(player.commands.map(\.command) == [.pause, .play, .seek(positionMs: 600_000), .skip(seconds: -30), .chapter(index: 4),
                                                    .rate(1.5), .sleep(.minutes(30)), .sleep(.off), .playBook(bookID: "book-2")])
        #expect(all.contains("{\"error\":{\"code\":\"bad_request\",\"message\":\"\\\"value\\\" must be a number from 0.5 to 3.0.\"}}"), "\(all)")
        // The event stream's first state.
        let first = try #require(outputs.last?.split(separator: "\n").first { $0.hasPrefix("data: ") })
        let state = try JSONDecoder().decode(RemotePlayerState.self, from: Data(first.dropFirst("data: ".count).utf8))
        #expect(state.bookID == "book-2" && state.status == .playing)
        await fixture.server.stop()
    }

    @Test func theWholeFlowScriptPairsAndReadsStatus() async throws {
        let fixture = try ServerFixture()
        let uri = try await fixture.open()
        defer { Task { await fixture.server.stop() } }
        let script = try Self.script(after: "## Whole flow with curl")
        #expect(script.contains("zbarimg --raw -q shot.png"))
        try QRImage(matrix: try QRMatrix.encode(uri.description), moduleSize: 4).pngData()
            .write(to: fixture.temp.url.appendingPathComponent("shot.png"))
        let (status, output) = try await run(["sh", "-euc", "cd '\(fixture.temp.url.path)'\n" + script])
        #expect(status == 0, "\(output)")
        let asked = try #require(fixture.requests.withLockedValue { $0.first })
        #expect(asked.clientName == "My Phone")
        #expect(output.contains("Comparison code: \(asked.comparisonCode)"), "\(output)")
        #expect(output.contains("\"user_display_name\":\"Ada Reader\""), "\(output)")
        #expect(fixture.server.devices.isEmpty) // the script unpairs at the end
        await fixture.server.stop()
    }
}
