import Testing
@testable import ListenUpCore

@MainActor
@Suite("ServerSetupModel")
struct ServerSetupModelTests {
    @Test func connectIsDisabledUntilSomethingIsTyped() {
        let model = ServerSetupModel()
        #expect(!model.canConnect)
        model.send(.urlChanged("   "))
        #expect(!model.canConnect)
        model.send(.urlChanged("example.com"))
        #expect(model.canConnect)
    }

    @Test func malformedURLShowsAMessageUnderTheField() {
        let model = ServerSetupModel()
        model.send(.urlChanged("ftp://example.com"))
        model.send(.connect)
        #expect(model.status == .invalid(.unsupportedScheme("ftp")))
        #expect(model.fieldError == ServerAddressError.unsupportedScheme("ftp").userMessage)
        #expect(model.snapshot["code"] == "unsupportedScheme")
        #expect(model.snapshot["message"]?.stringValue == model.fieldError)
        #expect(!model.canConnect, "the refused address cannot be re-sent unchanged")
    }

    @Test func editingClearsTheError() {
        let model = ServerSetupModel()
        model.send(.urlChanged("ftp://example.com"))
        model.send(.connect)
        model.send(.urlChanged("example.com"))
        #expect(model.status == .editing)
        #expect(model.fieldError == nil)
        #expect(model.canConnect)
    }

    @Test func validURLSaysVerificationIsNotAvailableAndNeverSucceeds() throws {
        let model = ServerSetupModel()
        model.send(.urlChanged(" Example.com:8080/ "))
        model.send(.connect)
        let address = try ServerAddress.parse("example.com:8080").get()
        #expect(model.status == .verificationUnavailable(address))
        #expect(model.notice?.contains("https://example.com:8080") == true)
        #expect(model.snapshot["status"] == "verificationUnavailable")
        #expect(model.snapshot["code"] == "verificationUnavailable")
        #expect(model.snapshot["normalizedURL"] == "https://example.com:8080")
    }

    @Test func headlessConnectCommand() {
        let model = ServerSetupModel()
        #expect(model.handle(ScreenCommand(action: "connect", arguments: ["url": "nope nope"])))
        #expect(model.snapshot["code"] == "urlContainsWhitespace")
        #expect(!model.handle(ScreenCommand(action: "dance")))
    }

    @Test func savedAddressIsPrefilled() throws {
        let address = try ServerAddress.parse("http://10.0.0.2:8080").get()
        let model = ServerSetupModel(address: address)
        #expect(model.urlText == "http://10.0.0.2:8080")
        #expect(model.status == .verificationUnavailable(address))
    }
}
