import Foundation
@testable import KRPCSession
import ListenUpKRPC
import ListenUpTestSupport
import Logging
import Testing

/// The frame log's redaction: secrets hidden at every JSON layer, the rest untouched.
@Suite("KRPCFrameRedactor")
struct KRPCFrameRedactorTests {
    @Test func theLoginRequestLosesItsPasswordAndKeepsTheRest() throws {
        let redacted = KRPCFrameRedactor.redact(ContractFrame.loginCall)
        #expect(!redacted.contains("correct horse"))
        let call = try callData(redacted)
        #expect(call.callId == "1:login:2" && call.method == "login")
        let request = try #require(try jsonObject(call.data)["request"] as? [String: Any])
        #expect(request["password"] as? String == "<redacted>")
        #expect(request["email"] as? String == "alice@example.com")
        #expect(request["timezone"] as? String == "Europe/Berlin")
        // Only the secret changed: the frame is otherwise byte for byte the same.
        #expect(redacted == ContractFrame.loginCall.replacingOccurrences(of: "correct horse", with: "<redacted>"))
    }

    @Test func theLoginSuccessLosesBothTokensAndKeepsTheUser() throws {
        let redacted = KRPCFrameRedactor.redact(ContractFrame.loginSuccess)
        #expect(!redacted.contains("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.e30.sig"))
        #expect(!redacted.contains("<opaque>"))
        let result = try jsonObject(try innerData(redacted))
        let session = try #require(result["data"] as? [String: Any])
        #expect(session["accessToken"] as? String == "<redacted>")
        #expect(session["refreshToken"] as? String == "<redacted>")
        #expect(session["accessTokenExpiresAt"] as? Int == 1_787_400_900_000)
        #expect(session["sessionId"] as? String == "<session-id>")
        #expect((session["user"] as? [String: Any])?["email"] as? String == "alice@example.com")
    }

    @Test func aRefreshSessionRequestLosesItsRefreshToken() throws {
        let arguments = try KRPCJSON.encode(RequestArguments(RefreshRequest(refreshToken: "rt-secret-123")))
        let frame = KRPCMessage.call(callId: "1:refreshSession:3", method: .refreshSession, arguments: arguments,
                                     connectionId: 1).encoded()
        let redacted = KRPCFrameRedactor.redact(frame)
        #expect(!redacted.contains("rt-secret-123"))
        #expect(try callData(redacted).data == #"{"request":{"refreshToken":"<redacted>"}}"#)
    }

    @Test func signedURLsLoseTheirSignatureAtEveryLayer() throws {
        let signature = String(repeating: "ab12", count: 16)
        let inner = #"{"type":"Success","data":{"bookId":"b","audioFiles":[{"fileId":"f","url":"/api/v1/audio/b/f?u=u1&exp=1787444200&sig=\#(signature)"}],"coverUrl":"/api/v1/cover-cast/b?sig=\#(signature)&u=u1"}}"#
        let frame = #"{"type":"org.jetbrains.krpc.RPCMessage.CallSuccess","callId":"1:prepare:6","data":"#
            + String(decoding: try JSONEncoder().encode(inner), as: UTF8.self) + "}"
        let redacted = KRPCFrameRedactor.redact(frame)
        #expect(!redacted.contains(signature))
        #expect(redacted.contains("exp=1787444200&sig=<redacted>"), "the rest of the URL stays for debugging")
        #expect(redacted.contains("cover-cast/b?sig=<redacted>&u=u1"))
        #expect(KRPCFrameRedactor.redact(#"{"title":"design=1&sig=nothex"}"#) == #"{"title":"design=1&sig=nothex"}"#)
        #expect(KRPCFrameRedactor.redact(#"{"title":"ensig=abc"}"#) == #"{"title":"ensig=abc"}"#, "only a query's sig parameter")
    }

    @Test func secretsAreFoundAtEveryNestingLayer() throws {
        // A token three JSON-in-string layers down, like SyncFrame.json inside RpcEvent inside StreamMessage.
        let third = #"{"type":"Custom","ticket":"tk-3","note":"ok"}"#
        let second = try KRPCJSON.encode(["type": "RpcEvent.Data", "json": third, "token": "tk-2"])
        let frame = KRPCMessage.streamMessage(KRPCStreamMessage(callId: "1:x:1", serviceType: "s", data: second)).encoded()
        let redacted = KRPCFrameRedactor.redact(frame)
        for secret in ["tk-2", "tk-3"] { #expect(!redacted.contains(secret)) }
        let layer2 = try jsonObject(try innerData(redacted))
        #expect(layer2["token"] as? String == "<redacted>")
        let layer3 = try jsonObject(try #require(layer2["json"] as? String))
        #expect(layer3["ticket"] as? String == "<redacted>" && layer3["note"] as? String == "ok")
    }

    @Test func everyStringUnderASecretKeyIsHidden() {
        #expect(KRPCFrameRedactor.redact(#"{"password":{"old":"a","new":["b","c"]},"n":1}"#)
            == #"{"password":{"old":"<redacted>","new":["<redacted>","<redacted>"]},"n":1}"#)
        #expect(KRPCFrameRedactor.redact(#"{"Authorization":"Bearer x","newPassword":"y","tokenType":"z"}"#)
            == #"{"Authorization":"<redacted>","newPassword":"<redacted>","tokenType":"z"}"#)
        #expect(KRPCFrameRedactor.redact(#"[{"token" : "a"} , {"token":null,"x":"token"}]"#)
            == #"[{"token" : "<redacted>"} , {"token":null,"x":"token"}]"#)
    }

    @Test func framesWithoutSecretsAreUnchanged() {
        for frame in [ContractFrame.getServerInfoSuccess, ContractFrame.playbackPositionElement, ContractFrame.handshakeClient,
                      ContractFrame.streamCancel, "not json", "", #"{"unterminated":"#] {
            #expect(KRPCFrameRedactor.redact(frame) == frame)
        }
    }

    @Test func escapesAndUnicodeSurviveARedactedLayer() throws {
        let inner = #"{"title":"Ünïcode \"quoted\" / tab\t😀 \u0001","password":"p"}"#
        let frame = KRPCMessage.callSuccess(KRPCCallSuccess(callId: "1", serviceType: "s", data: inner)).encoded()
        let data = try innerData(KRPCFrameRedactor.redact(frame))
        #expect(data == inner.replacingOccurrences(of: #""password":"p""#, with: #""password":"<redacted>""#))
    }

    @Test func brokenTextHidesWhatItCan() {
        // Frames cut short (e.g. by a log limit upstream) stay cut short, secrets hidden.
        #expect(KRPCFrameRedactor.redact(#"{"password":"abc"#) == #"{"password":"<redacted>"#)
        #expect(KRPCFrameRedactor.redact(#"{"a":"{\"token\":\"t\""#) == #"{"a":"{\"token\":\"<redacted>\""#)
        #expect(KRPCFrameRedactor.redact(#"{"a":"{\"token\":\"t\"}","b":1}"#) == #"{"a":"{\"token\":\"<redacted>\"}","b":1}"#)
    }

    @Test func headersHideAuthorizationButKeepTheScheme() {
        let headers = KRPCFrameRedactor.redact(headers: [("Authorization", "Bearer eyJ.abc.def"), ("X-Client-Version", "0.1.0"),
                                                         ("cookie", "listenup_access=x"), ("Authorization", "opaque")])
        #expect(headers.map(\.value) == ["Bearer <redacted>", "0.1.0", "<redacted>", "<redacted>"])
    }

    @Test func theTraceFrameLogNeverShowsASecret() {
        let capture = LogCapture()
        let log = KRPCFrameLog(logger: capture.logger, limit: 1 << 20)
        log.record(.outgoing, ContractFrame.loginCall)
        log.record(.incoming, ContractFrame.loginSuccess)
        #expect(capture.text.contains("<redacted>"))
        #expect(capture.text.contains("kRPC frame"))
        for secret in ["correct horse", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9", "<opaque>"] {
            #expect(!capture.text.contains(secret))
        }
    }

    @Test func theFrameLogCutsLongFramesAndIsSilentAboveTrace() {
        let capture = LogCapture()
        let long = String(repeating: "x", count: 100)
        KRPCFrameLog(logger: capture.logger, limit: 10).record(.incoming, long)
        #expect(capture.text.contains("xxxxxxxxxx… (cut; 100 bytes in all)"))
        #expect(!capture.text.contains(String(repeating: "x", count: 11)))
        var quiet = capture.logger
        quiet.logLevel = .debug
        KRPCFrameLog(logger: quiet, limit: 10).record(.incoming, "quiet-frame")
        #expect(!capture.text.contains("quiet-frame"))
    }

    private func jsonObject(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }
}
