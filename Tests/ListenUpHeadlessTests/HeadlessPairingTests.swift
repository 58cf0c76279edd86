import Foundation
import ListenUpTestSupport
import Testing

/// Pairing through the real binary: `openPairing` → a `pairingCode` line and
/// the `--qr-png` file → zbarimg → curl pinned to the URI's fingerprint →
/// `pairingRequest` → `confirmPairing` → a token that `GET /api/v1/status` accepts.
/// Everything on 127.0.0.1 (`LISTENUP_PAIRING_BIND`).
@Suite("Headless pairing (child process, loopback)", .serialized)
struct HeadlessPairingTests {
    static let loopback = ["LISTENUP_PAIRING_BIND": "127.0.0.1"]

    @Test func pairsACurlCompanionThroughTheQRFile() async throws {
        let png = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-qr-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: png) }
        let app = try HeadlessProcess(arguments: ["--headless", "--qr-png", png.path], environment: Self.loopback)
        _ = await app.waitForLine { $0["route"] as? String == "serverSetup" }
        app.send(#"{"action":"openPairing"}"#)
        #expect(await app.waitForLine { $0["event"] as? String == "route" && $0["route"] as? String == "pairing" } != nil)
        let code = try #require(await app.waitForLine { $0["event"] as? String == "pairingCode" }, "stdout: \(app.allLines) stderr: \(app.stderr)")
        let uri = try #require(code["uri"] as? String)
        #expect(uri.hasPrefix("listenup-pair:v1?"))
        let expiresAt = try #require(code["expiresAt"] as? String)
        let formatter = ISO8601DateFormatter()
        let expiry = try #require(formatter.date(from: expiresAt), "not RFC 3339: \(expiresAt)")
        #expect(expiry > Date() && expiry < Date().addingTimeInterval(60))

        let decoded = try ToolProcess(["zbarimg", "--raw", "-q", png.path]).finish()
        #expect(decoded.status == 0)
        #expect(decoded.output.trimmingCharacters(in: .newlines) == uri, "the QR file holds exactly the URI")

        let target = PairingLinkTarget(uri: decoded.output.trimmingCharacters(in: .newlines))
        #expect(target.fields["addr"] == "127.0.0.1")
        let body = #"{"session":"\#(target.fields["session"] ?? "")","code":"\#(target.fields["code"] ?? "")","client_name":"Curl Phone","client_model":"curl"}"#
        let pairing = try ToolProcess(["curl", "-sk", "--max-time", "60", "--pinnedpubkey", target.pin, "-H", "Content-Type: application/json",
                                "-d", body, "\(target.base)/api/v1/pair"])
        let request = try #require(await app.waitForLine { $0["event"] as? String == "pairingRequest" }, "stderr: \(app.stderr)")
        #expect(request["client"] as? String == "Curl Phone")
        #expect(request["model"] as? String == "curl")
        #expect((request["comparisonCode"] as? String)?.count == 6)
        app.send(#"{"action":"confirmPairing","accept":true}"#)
        let answer = pairing.finish()
        #expect(answer.status == 0)
        let reply = try #require(try JSONSerialization.jsonObject(with: Data(answer.output.utf8)) as? [String: Any], "\(answer.output)")
        let token = try #require(reply["token"] as? String)
        #expect(reply["comparison_code"] as? String == request["comparisonCode"] as? String)

        let status = try ToolProcess(["curl", "-sk", "--max-time", "10", "--pinnedpubkey", target.pin, "-o", "/dev/null", "-w", "%{http_code}",
                               "-H", "Authorization: Bearer \(token)", "\(target.base)/api/v1/status"]).finish()
        #expect(status.output == "200")
        // A wrong pin never gets an answer.
        let wrongPin = try ToolProcess(["curl", "-sk", "--max-time", "10", "--pinnedpubkey", "sha256//" + String(repeating: "A", count: 43) + "=",
                                 "\(target.base)/api/v1/pair/info"]).finish()
        #expect(wrongPin.status == 90)

        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)
    }

    @Test func closePairingGoesBackAndBadConfirmationsAreRefused() async throws {
        let app = try HeadlessProcess(environment: Self.loopback)
        _ = await app.waitForLine { $0["route"] as? String == "serverSetup" }
        app.send(#"{"action":"confirmPairing","accept":true}"#)
        #expect(await app.waitForLine { $0["event"] as? String == "error" && $0["code"] as? String == "badCommand" } != nil,
                "confirmPairing outside pairing")
        app.send(#"{"action":"openPairing"}"#)
        let code = try #require(await app.waitForLine { $0["event"] as? String == "pairingCode" }, "stderr: \(app.stderr)")
        app.send(#"{"action":"confirmPairing","accept":"yes"}"#)
        app.send(#"{"action":"confirmPairing"}"#)
        let errors = await app.waitForLines(count: 3) { $0["event"] as? String == "error" && $0["code"] as? String == "badCommand" }
        #expect(errors.count == 3, "\(app.allLines)")
        app.send(#"{"action":"closePairing"}"#)
        let routes = await app.waitForLines(count: 4) { $0["event"] as? String == "route" }.compactMap { $0["route"] as? String }
        #expect(routes == ["loading", "serverSetup", "pairing", "serverSetup"], "back to where it was")
        // Closed: the server no longer takes pairing requests.
        let target = PairingLinkTarget(uri: try #require(code["uri"] as? String))
        let info = try ToolProcess(["curl", "-sk", "--max-time", "10", "--pinnedpubkey", target.pin, "\(target.base)/api/v1/pair/info"]).finish()
        let object = try JSONSerialization.jsonObject(with: Data(info.output.utf8)) as? [String: Any]
        #expect(object?["pairing_open"] as? Bool == false, "\(info.output)")
        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)
    }

    @Test func dashDashPairOpensPairingAtStartOverTheSavedState() async throws {
        let app = try HeadlessProcess(arguments: ["--headless", "--pair"], environment: Self.loopback)
        #expect(await app.waitForLine { $0["event"] as? String == "pairingCode" } != nil, "stderr: \(app.stderr)")
        app.send(#"{"action":"closePairing"}"#)
        let routes = await app.waitForLines(count: 2) { $0["event"] as? String == "route" && $0["route"] as? String != "loading" }
            .compactMap { $0["route"] as? String }
        #expect(routes == ["pairing", "serverSetup"], "\(app.allLines)")
        app.send(#"{"action":"quit"}"#)
        #expect(await app.waitForExit() == 0)
    }
}
