import Foundation
import Testing
@testable import ListenUpKRPC

/// Auth requests (§3.2): every key sent, nulls explicit, the login frame of
/// the contract reproduced.
@Suite("Auth requests")
struct AuthRequestsTests {
    static let contractLogin = LoginRequest(
        email: "alice@example.com", password: "correct horse", sessionLabel: "Alice's desktop",
        deviceInfo: DeviceInfo(deviceType: "desktop", platform: "Linux", clientName: "ListenUp GTK", clientVersion: "0.1.0"),
        timezone: "Europe/Berlin")

    @Test func loginFrameMatchesTheContractPlusExplicitNulls() throws {
        let fixture = try Fixture.text("call_data_login.json")
        let arguments = try KRPCJSON.encode(RequestArguments(Self.contractLogin))
        let call = KRPCMessage.call(callId: "1:login:2", method: .login, arguments: arguments, connectionId: 1)
        #expect(Fixture.firstKey(call.encoded()) == "type")
        // Kotlin would omit the three null DeviceInfo fields; Swift sends them as null.
        let expected = Fixture.adding(["platformVersion": .null, "deviceName": .null, "deviceModel": .null],
                                      to: try Fixture.value(fixture), at: ["data", "request", "deviceInfo"])
        #expect(try Fixture.value(call.encoded()) == expected)
        #expect(try Fixture.message("call_data_login.json").callId == call.callId)
    }

    @Test func loginSendsEveryKeyEvenWhenNil() throws {
        let json = try KRPCJSON.encode(LoginRequest(email: "a@b.c", password: "12345678"))
        #expect(json == #"{"deviceInfo":null,"email":"a@b.c","password":"12345678","sessionLabel":null,"timezone":"UTC"}"#)
    }

    @Test func registerAndDeviceInfoSendEveryKey() throws {
        let register = try KRPCJSON.encode(RegisterRequest(email: "a@b.c", password: "12345678", displayName: "A"))
        #expect(register == #"{"deviceInfo":null,"displayName":"A","email":"a@b.c","password":"12345678","sessionLabel":null}"#)
        let device = try Fixture.value(try KRPCJSON.encode(DeviceInfo()))
        #expect(device.objectValue?.count == 7)
        #expect(device.objectValue?.values.allSatisfy(\.isNull) == true)
        #expect(try KRPCJSON.encode(RequestArguments(RefreshRequest(refreshToken: "r"))) == #"{"request":{"refreshToken":"r"}}"#)
    }

    @Test func requestsDecodeWithKotlinDefaults() throws {
        let login = try KRPCJSON.decode(LoginRequest.self, from: #"{"email":"a","password":"12345678"}"#)
        #expect(login == LoginRequest(email: "a", password: "12345678"))
        #expect(login.timezone == "UTC")
        let roundTrip = try KRPCJSON.decode(LoginRequest.self, from: try KRPCJSON.encode(Self.contractLogin))
        #expect(roundTrip == Self.contractLogin)
    }
}
