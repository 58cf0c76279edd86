import Foundation
import ListenUpTestSupport
import NIOConcurrencyHelpers
import Testing
@testable import Pairing

/// A long-running `listenup-companion` (started through ChildProcess), its stdout read line by line.
final class CompanionProcess: Sendable {
    private let process: NIOLockedValueBox<Process>
    private let lines = NIOLockedValueBox<[String]>([])

    init(_ arguments: [String], environment: [String: String]) throws {
        let process = Process()
        ChildProcess.configure(process, arguments)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = NIOLockedValueBox(process)
        let lines = lines
        let reader = output.fileHandleForReading
        Thread.detachNewThread {
            var pending = Data()
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    lines.withLockedValue { $0.append(line) }
                }
            }
        }
    }

    var output: [String] { lines.withLockedValue { $0 } }
    var isRunning: Bool { process.withLockedValue { $0.isRunning } }

    /// Waits up to `seconds` for a line satisfying `condition`.
    func waitForLine(_ seconds: Double = 10, _ condition: (String) -> Bool) async -> Bool {
        for _ in 0..<Int(seconds * 100) {
            if output.contains(where: condition) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    /// Interrupts it (as Ctrl-C does) and waits up to 5 s for it to exit.
    func interrupt() async -> Bool {
        let pid = process.withLockedValue { $0.processIdentifier }
        kill(pid, SIGINT)
        for _ in 0..<500 where isRunning { try? await Task.sleep(for: .milliseconds(10)) }
        if isRunning { kill(pid, SIGKILL) }
        return !isRunning
    }
}

/// `listenup-companion remote …`, the real executable against a real server.
@Suite("Companion: remote control", .serialized)
struct CompanionRemoteTests {
    static let binary = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/debug/listenup-companion")

    /// A server with `player`, a paired device, and the companion's environment holding its pairing.
    static func setUp(_ player: ScriptedRemotePlayer) async throws -> (ServerFixture, [String: String]) {
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build listenup-companion first")
        let fixture = try await DiscoveryServerRemoteTests.fixture(player)
        let (device, token) = try fixture.pairDevice("CLI Laptop")
        let data = fixture.temp.url.appendingPathComponent("companion-data")
        let companion = try fixture.companion(for: device, token: token)
        try FileManager.default.createDirectory(at: data.appendingPathComponent("listenup-companion"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: companion.storage.url("pairing.json"),
                                        to: data.appendingPathComponent("listenup-companion/pairing.json"))
        return (fixture, ["XDG_DATA_HOME": data.path, "HOME": fixture.temp.url.path])
    }

    @Test func statusAndEveryCommand() async throws {
        let player = ScriptedRemotePlayer()
        let (fixture, environment) = try await Self.setUp(player)
        defer { Task { await fixture.server.stop() } }
        let remote = { (arguments: [String]) in try await run([Self.binary.path, "remote"] + arguments, environment: environment) }
        let status = try await remote(["status"])
        #expect(status.status == 0, "\(status.output)")
        for line in ["Status: playing", "Book: The Hobbit — J. R. R. Tolkien", "Position: 20:34 / 10:00:00",
                     "Chapter: 3 Chapter 3 (0:34 / 30:00)", "Rate: 1.25×", "Volume: 80%", "Sleep: off"] {
            #expect(status.output.contains(line), "\(line) in \(status.output)")
        }
        let json = try await remote(["status", "--json"])
        #expect(try JSONDecoder().decode(RemotePlayerState.self, from: Data(json.output.utf8)) == .playingSample)
        let script: [([String], RemoteCommand)] = [
            (["pause"], .pause), (["play"], .play), (["toggle"], .toggle), (["seek", "90000"], .seek(positionMs: 90_000)),
            (["skip", "30"], .skip(seconds: 30)), (["skip", "--", "-15"], .skip(seconds: -15)),
            (["next-chapter"], .chapter(index: 3)),        // from the third chapter (index 2)
            (["previous-chapter"], .chapter(index: 2)),    // at the start of the fourth: the one before
            (["previous-chapter"], .chapter(index: 2)),    // 5 s into the third: restarts it
            (["rate", "1.5"], .rate(1.5)), (["sleep", "20"], .sleep(.minutes(20))),
            (["sleep", "end-of-chapter"], .sleep(.endOfChapter)), (["sleep", "off"], .sleep(.off)),
            (["play", "book-2"], .playBook(bookID: "book-2")), (["stop"], .stop),
        ]
        var expected: [RemoteCommand] = []
        for (arguments, command) in script {
            if arguments == ["previous-chapter"], expected.last == .chapter(index: 2) {
                // In the chapter for a few seconds: previous-chapter restarts it.
                player.change { $0.chapterPositionMs = 5_000 }
            }
            let result = try await remote(arguments)
            #expect(result.status == 0, "\(arguments): \(result.output)")
            expected.append(command)
        }
        #expect(player.commands.map(\.command) == expected)
        #expect(player.commands.allSatisfy { $0.device.name == "CLI Laptop" })
        await fixture.server.stop()
    }

    @Test func refusalsAndBadArgumentsExitNonZero() async throws {
        let player = ScriptedRemotePlayer()
        let (fixture, environment) = try await Self.setUp(player)
        defer { Task { await fixture.server.stop() } }
        let remote = { (arguments: [String]) in try await run([Self.binary.path, "remote"] + arguments, environment: environment) }
        for arguments in [["rate", "5"], ["sleep", "later"], ["sleep", "0"], ["seek", "-1"], ["skip", "4000"]] {
            #expect(try await remote(arguments).status != 0, "\(arguments)")
        }
        #expect(player.commands.isEmpty)
        player.refuseNext(.nothingLoaded)
        let refused = try await remote(["pause"])
        #expect(refused.status != 0 && refused.output.contains("nothing_loaded"), "\(refused.output)")
        // Unpaired desktop side: 401 reaches the user.
        try fixture.server.revoke(deviceID: try #require(fixture.server.devices.first).id)
        let revoked = try await remote(["status"])
        #expect(revoked.status != 0 && revoked.output.contains("401"), "\(revoked.output)")
        await fixture.server.stop()
    }

    @Test func followPrintsALinePerStateUntilInterrupted() async throws {
        let player = ScriptedRemotePlayer()
        let (fixture, environment) = try await Self.setUp(player)
        defer { Task { await fixture.server.stop() } }
        let follow = try CompanionProcess([Self.binary.path, "remote", "follow"], environment: environment)
        #expect(await follow.waitForLine { $0.hasPrefix("playing  The Hobbit — J. R. R. Tolkien  20:34 / 10:00:00  ch 3 Chapter 3  1.25×") },
                "\(follow.output)")
        player.change { $0.status = .paused }
        #expect(await follow.waitForLine { $0.hasPrefix("paused  The Hobbit") }, "\(follow.output)")
        player.change { $0.sleepRemainingMs = 59_000 }
        #expect(await follow.waitForLine { $0.hasSuffix("sleep 0:59") }, "\(follow.output)")
        #expect(follow.isRunning)
        #expect(await follow.interrupt())
        // --json: one decodable state per line.
        let json = try CompanionProcess([Self.binary.path, "remote", "follow", "--json"], environment: environment)
        #expect(await json.waitForLine { (try? JSONDecoder().decode(RemotePlayerState.self, from: Data($0.utf8)))?.status == .paused })
        player.change { $0.positionMs = 42_000 }
        #expect(await json.waitForLine { (try? JSONDecoder().decode(RemotePlayerState.self, from: Data($0.utf8)))?.positionMs == 42_000 })
        #expect(await json.interrupt())
        // A revoke ends it with a non-zero status.
        let ended = try CompanionProcess([Self.binary.path, "remote", "follow"], environment: environment)
        #expect(await ended.waitForLine { $0.hasPrefix("paused") })
        try fixture.server.revoke(deviceID: try #require(fixture.server.devices.first).id)
        for _ in 0..<500 where ended.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!ended.isRunning)
        _ = await ended.interrupt()
        await fixture.server.stop()
    }
}
