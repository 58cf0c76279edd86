import Foundation
import Testing
@testable import ListenUpCore

@MainActor
@Suite("Create admin and sign in models")
struct AdminSetupModelTests {
    let events = LockedValue<[AuthEvent]>([])

    func makeModel() -> AdminSetupModel {
        let events = events
        return AdminSetupModel(server: .closedLoopback, dependencies: .test(),
                               send: { event in events.withLock { $0.append(event) } })
    }

    @Test func everyFieldIsCheckedBeforeAnythingIsSent() {
        let model = makeModel()
        model.fillForPreview(first: "Ada", last: "", email: "ada@", password: "short", confirmation: "shorter")
        model.send(.create)
        #expect(model.status == .editing, "nothing is sent while the form is invalid")
        #expect(model.visibleError(for: .lastName) != nil)
        #expect(model.visibleError(for: .email) != nil)
        #expect(model.visibleError(for: .password) == "Use at least 8 characters.")
        #expect(model.visibleError(for: .confirmation) == "The passwords don't match.")
        #expect(model.visibleError(for: .firstName) == nil)
        #expect(model.snapshot["code"] == "invalidForm")
        #expect(!"\(model.snapshot)".contains("short"), "no password in the snapshot")
    }

    @Test func writingTheSameTextBackIsNotAnEdit() {
        let model = makeModel()
        model.fillForPreview(first: "Ada", last: "Lovelace", email: "ada@example.com", password: "analytical", confirmation: "analytical")
        model.showForPreview(.failed(code: "unreachable", message: "x"))
        model.send(.changed(.firstName, "Ada"))
        #expect(model.errorMessage == "x")
        model.send(.changed(.firstName, "Ada B"))
        #expect(model.errorMessage == nil)
    }

    @Test func headlessSetupSplitsTheNameAndReportsAnUnreachableServer() async {
        let model = makeModel()
        #expect(model.handle(ScreenCommand(action: "setupAdmin", arguments: [
            "name": "Ada King Lovelace", "email": "ada@example.com", "password": "analytical-engine",
        ])))
        #expect(model.firstName == "Ada King" && model.lastName == "Lovelace")
        for _ in 0..<100 where model.status == .creating { try? await Task.sleep(for: .milliseconds(10)) }
        #expect(model.status == .failed(code: "unreachable", message: APIClientError.transport(.unreachable("")).userMessage))
    }

    @Test func signInNeedsBothFieldsAndKeepsThePasswordOutOfTheSnapshot() async {
        let events = events
        let login = LoginModel(server: .closedLoopback, dependencies: .test(), lapsed: true,
                               send: { event in events.withLock { $0.append(event) } })
        #expect(login.notice != nil)
        #expect(!login.canSignIn)
        login.send(.emailChanged("ada@example.com"))
        #expect(!login.canSignIn)
        login.send(.passwordChanged("secret-words"))
        #expect(login.canSignIn)
        login.send(.signIn)
        #expect(!"\(login.snapshot)".contains("secret-words"))
        for _ in 0..<100 where login.status == .signingIn { try? await Task.sleep(for: .milliseconds(10)) }
        #expect(login.snapshot["code"] == "unreachable")
        login.send(.changeServer)
        #expect(events.value.last == .changeServer)
    }
}
