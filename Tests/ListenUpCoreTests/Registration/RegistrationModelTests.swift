import Foundation
import Testing
@testable import ListenUpCore

/// The Create Account and Waiting for Approval models without a server:
/// the form's rules, the refusal codes, Cancel, and a restart while pending.
@MainActor
@Suite("Registration models")
struct RegistrationModelTests {
    let events = LockedValue<[AuthEvent]>([])

    func sender() -> @MainActor @Sendable (AuthEvent) -> Void {
        let events = events
        return { event in events.withLock { $0.append(event) } }
    }

    @Test func everyFieldIsCheckedBeforeAnythingIsSent() {
        let model = CreateAccountModel(server: .closedLoopback, dependencies: .test(), send: sender())
        model.fillForPreview(name: "  ", email: "ada@", password: "short")
        model.send(.create)
        #expect(model.status == .editing, "nothing is sent while the form is invalid")
        #expect(model.visibleError(for: .displayName) == "Enter your name.")
        #expect(model.visibleError(for: .email) == "Enter a valid email address, like ada@example.com.")
        #expect(model.visibleError(for: .password) == "Use at least 8 characters.")
        model.send(.changed(.password, String(repeating: "x", count: 1025)))
        #expect(model.visibleError(for: .password) == "Use at most 1024 characters.")
    }

    @Test func anUnreachableServerIsReportedAndCancelGoesBack() async {
        let model = CreateAccountModel(server: .closedLoopback, dependencies: .test(), send: sender())
        model.fillForPreview(name: "Ada Lovelace", email: "ada@example.com", password: "analytical-engine")
        model.send(.create)
        #expect(model.status == .creating)
        for _ in 0..<500 where model.status == .creating { try? await Task.sleep(for: .milliseconds(10)) }
        #expect(model.status == .failed(code: "unreachable", message: ServerError.transport(.unreachable("")).userMessage))
        model.send(.changed(.displayName, "Ada King"))
        #expect(model.status == .editing, "an edit clears the failure")
        model.send(.cancel)
        #expect(events.value == [.backToSignIn])
    }

    @Test func refusalsHaveTheirOwnCodes() {
        #expect(CreateAccountModel.code(for: .server(status: 409, message: "email already in use")) == "emailInUse")
        #expect(CreateAccountModel.code(for: .server(status: 403, message: "")) == "registrationClosed")
        #expect(CreateAccountModel.code(for: .server(status: 400, message: "")) == "invalidInput")
        #expect(CreateAccountModel.code(for: .rateLimitedFor(seconds: 12)) == "rateLimited")
        #expect(CreateAccountModel.code(for: .transport(.timedOut)) == "timedOut")
    }

    @Test func waitingShowsWhyTheWatchIsDownAndCancelForgetsTheRegistration() async {
        let pending = PendingRegistration(server: .closedLoopback, userID: "user-1", email: "ada@example.com")
        var settings = AppSettings(serverURL: "http://127.0.0.1:9")
        settings.pendingRegistration = pending
        let dependencies = Dependencies.test(settings: settings)
        let model = AwaitingApprovalModel(pending: pending, dependencies: dependencies, retryDelay: .milliseconds(50), send: sender())
        #expect(model.status == .waiting && model.email == "ada@example.com")
        for _ in 0..<500 where model.problem == nil { try? await Task.sleep(for: .milliseconds(10)) }
        #expect(model.problem == ServerError.transport(.unreachable("")).userMessage)
        #expect(dependencies.settings.load().pendingRegistration != nil, "a failed watch keeps waiting")
        model.send(.cancel)
        #expect(events.value == [.backToSignIn])
        #expect(dependencies.settings.load().pendingRegistration == nil)
        model.deactivate()
    }

    /// Approved, but signing in with the password typed a moment ago
    /// failed: Sign in says the account was approved and why signing in did
    /// not work, with the email filled.
    @Test func aFailedSignInAfterApprovalSaysWhy() {
        let pending = PendingRegistration(server: .closedLoopback, userID: "user-1", email: "ada@example.com")
        let navigator = AppNavigator(registry: .standard, dependencies: .test())
        navigator.update(.awaitingApproval(pending))
        navigator.send(.registrationApproved(email: "ada@example.com", signInFailure: .rateLimitedFor(seconds: 30)))
        let model = navigator.activeModel(.login)
        #expect(navigator.activeRoute == .login)
        #expect(model?.email == "ada@example.com")
        #expect(model?.signInNotice == .accountApproved)
        let failure = ServerError.rateLimitedFor(seconds: 30)
        #expect(model?.errorMessage == "Your account was approved, but signing in failed. \(failure.userMessage)")
        #expect(model?.status == .failed(code: failure.code, message: LoginModel.approvedButFailed(failure)))
        model?.send(.passwordChanged("analytical-engine"))
        #expect(model?.errorMessage == nil, "typing clears it, as after a failed attempt of its own")
        model?.deactivate()

        navigator.update(.awaitingApproval(pending))
        navigator.send(.registrationApproved(email: "ada@example.com", signInFailure: nil))
        #expect(navigator.activeModel(.login)?.errorMessage == nil, "approved after a restart: nothing failed")
        navigator.activeModel(.login)?.deactivate()
    }

    @Test func theAppReopensOnTheWaitingPage() async {
        var settings = AppSettings(serverURL: "http://127.0.0.1:9")
        settings.pendingRegistration = PendingRegistration(server: .closedLoopback, userID: "user-1", email: "ada@example.com")
        let navigator = AppNavigator(registry: .standard, dependencies: .test(settings: settings))
        navigator.start()
        for _ in 0..<500 where navigator.authState == .initializing { try? await Task.sleep(for: .milliseconds(10)) }
        #expect(navigator.activeRoute == .awaitingApproval, "\(navigator.authState.name)")
        let model = navigator.activeModel(.awaitingApproval)
        #expect(model?.email == "ada@example.com")
        #expect(model?.pending?.password == nil, "the password is never saved")
        model?.deactivate()
    }

    @Test func aPendingRegistrationOfAnotherServerIsIgnored() async {
        var settings = AppSettings(serverURL: "http://127.0.0.1:9")
        settings.pendingRegistration = PendingRegistration(server: KnownServer(url: URL(string: "http://127.0.0.1:10")!), userID: "u",
                                                           email: "ada@example.com")
        let navigator = AppNavigator(registry: .standard, dependencies: .test(settings: settings))
        navigator.start()
        for _ in 0..<500 where navigator.authState == .initializing { try? await Task.sleep(for: .milliseconds(10)) }
        #expect(navigator.activeRoute != .awaitingApproval)
    }
}
