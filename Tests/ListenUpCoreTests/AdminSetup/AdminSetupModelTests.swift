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
        #expect(!model.isValid)
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

    @Test func anUnreachableServerIsReported() async {
        let model = makeModel()
        model.fillForPreview(first: "Ada", last: "Lovelace", email: "ada@example.com", password: "analytical-engine",
                             confirmation: "analytical-engine")
        model.send(.create)
        #expect(model.status == .creating)
        for _ in 0..<500 where model.status == .creating { try? await Task.sleep(for: .milliseconds(10)) }
        #expect(model.status == .failed(code: "unreachable", message: ServerError.transport(.unreachable("")).userMessage))
    }

    @Test func signInNeedsBothFieldsAndReportsAnUnreachableServer() async {
        let events = events
        let login = LoginModel(server: .closedLoopback, dependencies: .test(), notice: .sessionEnded,
                               send: { event in events.withLock { $0.append(event) } })
        #expect(login.notice != nil)
        #expect(!login.canSignIn)
        login.send(.emailChanged("ada@example.com"))
        #expect(!login.canSignIn)
        login.send(.passwordChanged("secret-words"))
        #expect(login.canSignIn)
        login.send(.signIn)
        #expect(login.status == .signingIn)
        for _ in 0..<500 where login.status == .signingIn { try? await Task.sleep(for: .milliseconds(10)) }
        guard case .failed(code: "unreachable", _) = login.status else {
            Issue.record("\(login.status)")
            return
        }
        login.send(.changeServer)
        #expect(events.value.last == .changeServer)
    }
}
