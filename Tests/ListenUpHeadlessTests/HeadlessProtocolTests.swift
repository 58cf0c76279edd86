import Foundation
import Testing

/// The headless protocol, driven through the real binary in a child process
/// that has no display at all.
@Suite("Headless protocol (child process, no display)", .serialized)
struct HeadlessProtocolTests {
    @Test func printsTheRouteAndQuits() async throws {
        let app = try HeadlessProcess()
        let route = await app.waitForLine { $0["event"] as? String == "route" && $0["route"] as? String == "serverSetup" }
        #expect(route != nil, "stdout: \(app.allLines) stderr: \(app.stderr)")
        let state = await app.waitForLine { $0["event"] as? String == "state" && $0["route"] as? String == "serverSetup" }
        #expect((state?["state"] as? [String: Any])?["status"] as? String == "editing")
        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)
    }

    @Test func everyLineIsAnEventObject() async throws {
        let app = try HeadlessProcess()
        app.send(#"{"action":"connect","url":"127.0.0.1:9"}"#)
        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)
        #expect(!app.allLines.isEmpty)
        for line in app.allLines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["event"] is String, "line without event: \(line)")
        }
    }

    @Test func badCommandsAreReportedAndTheProcessCarriesOn() async throws {
        let app = try HeadlessProcess()
        _ = await app.waitForLine { $0["route"] as? String == "serverSetup" }
        for bad in ["this is not json", "[1,2,3]", #"{"no":"action"}"#, #"{"action":"teleport"}"#, #"{"action":42}"#] {
            app.send(bad)
        }
        _ = await app.waitForLines(count: 5) { $0["event"] as? String == "error" }
        let errorLines = app.allLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["event"] as? String == "error" }
        #expect(errorLines.count == 5, "\(app.allLines)")
        for line in errorLines {
            #expect(line["code"] as? String == "badCommand")
            #expect((line["message"] as? String)?.isEmpty == false)
        }
        // Still alive and answering.
        app.send(#"{"action":"connect","url":"ftp://x"}"#)
        let state = await app.waitForLine { ($0["state"] as? [String: Any])?["code"] as? String == "unsupportedScheme" }
        #expect((state?["state"] as? [String: Any])?["message"] is String)
        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)
    }

    @Test func endOfInputExitsCleanly() async throws {
        let app = try HeadlessProcess()
        _ = await app.waitForLine { $0["route"] as? String == "serverSetup" }
        app.closeInput()
        #expect(await app.waitForExit() == 0)
    }

    @Test func connectNormalisesThenReportsAnUnreachableServer() async throws {
        let app = try HeadlessProcess()
        app.send(#"{"action":"connect","url":"  LOCALHOST:9/ "}"#)
        let checking = await app.waitForLine { ($0["state"] as? [String: Any])?["status"] as? String == "checking" }
        #expect((checking?["state"] as? [String: Any])?["normalizedURL"] as? String == "http://localhost:9")
        let line = await app.waitForLine { ($0["state"] as? [String: Any])?["status"] as? String == "failed" }
        let state = try #require(line?["state"] as? [String: Any])
        #expect(state["code"] as? String == "unreachable")
        #expect((state["message"] as? String)?.contains("Couldn't reach") == true)
        app.closeInput()
        #expect(await app.waitForExit() == 0)
    }

    @Test func savedServerIsRestoredFromSettingsAndCheckedAgain() async throws {
        let app = try HeadlessProcess(settingsJSON: #"{"serverURL":"http://127.0.0.1:9"}"#)
        let line = await app.waitForLine { $0["event"] as? String == "state" && $0["route"] as? String == "serverSetup" }
        let state = try #require(line?["state"] as? [String: Any])
        #expect(state["url"] as? String == "http://127.0.0.1:9")
        let failed = await app.waitForLine { ($0["state"] as? [String: Any])?["status"] as? String == "failed" }
        #expect((failed?["state"] as? [String: Any])?["code"] as? String == "unreachable")
        app.closeInput()
        #expect(await app.waitForExit() == 0)
    }

    @Test func logsGoToStderrNeverStdout() async throws {
        let app = try HeadlessProcess()
        app.send("garbage")
        app.closeInput()
        #expect(await app.waitForExit() == 0)
        #expect(app.stderr.contains("debug"), "debug logging was requested: \(app.stderr)")
        for line in app.allLines {
            #expect(line.hasPrefix("{"), "non-JSON on stdout: \(line)")
        }
    }

    @Test func previewStateInHeadlessMode() async throws {
        let app = try HeadlessProcess(arguments: ["--headless", "--preview", "serverSetup:invalid"])
        let line = await app.waitForLine { ($0["state"] as? [String: Any])?["status"] as? String == "invalid" }
        #expect((line?["state"] as? [String: Any])?["code"] as? String == "unsupportedScheme")
        app.closeInput()
        #expect(await app.waitForExit() == 0)
    }

    @Test func guiModeWithoutDisplayFailsWithAClearMessage() async throws {
        let app = try HeadlessProcess(arguments: [])
        app.closeInput()
        #expect(await app.waitForExit() == 1)
        #expect(app.stderr.contains("No display found"))
    }
}
