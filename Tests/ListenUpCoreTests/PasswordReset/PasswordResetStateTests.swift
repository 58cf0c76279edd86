import Foundation
import Testing
@testable import ListenUpCore

/// Reset Password in the auth state machine and in its model, without a
/// server: where each event leads, the code's normalization, the claim, the
/// refusals' words, and the watch's de-duplication.
@MainActor
@Suite("Password reset states")
struct PasswordResetStateTests {
    nonisolated static let server = KnownServer(url: URL(string: "http://127.0.0.1:9")!, generation: .krpc)
    nonisolated static let session = Session.offline(serverURL: URL(string: "http://127.0.0.1:9")!)
    nonisolated static let states: [AuthState] = [
        .initializing, .needsServer, .needsLogin(server), .authenticated(session), .sessionLapsed(server, .sessionEnded),
        .creatingAccount(server), .accountApproved(server, email: "ada@example.com", signInFailure: nil),
        .resettingPassword(server, email: "ada@example.com"), .passwordChanged(server, email: "ada@example.com"),
    ]
    nonisolated static let events: [AuthEvent] = [
        .forgotPassword(email: "ada@example.com"), .passwordResetCompleted(email: "ada@example.com"), .backToSignIn, .signedIn(session),
        .createAccount, .changeServer,
    ]

    /// Where the reset's events lead, and what the new states accept.
    static func expected(_ state: AuthState, _ event: AuthEvent) -> AuthState? {
        switch (state, event) {
        case (.needsLogin, .forgotPassword), (.sessionLapsed, .forgotPassword), (.accountApproved, .forgotPassword),
             (.passwordChanged, .forgotPassword):
            .resettingPassword(server, email: "ada@example.com")
        case (.resettingPassword, .passwordResetCompleted): .passwordChanged(server, email: "ada@example.com")
        case (.resettingPassword, .backToSignIn), (.creatingAccount, .backToSignIn): .needsLogin(server)
        case (.needsLogin, .signedIn), (.sessionLapsed, .signedIn), (.creatingAccount, .signedIn), (.accountApproved, .signedIn),
             (.passwordChanged, .signedIn):
            .authenticated(session)
        case (.needsLogin, .createAccount), (.sessionLapsed, .createAccount), (.accountApproved, .createAccount),
             (.passwordChanged, .createAccount):
            .creatingAccount(server)
        case (.needsLogin, .changeServer), (.sessionLapsed, .changeServer), (.creatingAccount, .changeServer),
             (.accountApproved, .changeServer), (.passwordChanged, .changeServer):
            .needsServer
        default: nil
        }
    }

    @Test(arguments: states)
    func everyResetEventFromEveryState(_ state: AuthState) {
        for event in Self.events {
            #expect(state.applying(event) == Self.expected(state, event), "\(state.name) + \(event.name)")
        }
    }

    @Test func theNewStatesNameTheirServerAndSignInShowsTheNotice() {
        for state in Self.states.suffix(2) { #expect(state.serverURL == Self.server.url, "\(state.name)") }
        let model = LoginModel(server: Self.server, dependencies: .test(), notice: .passwordChanged, filledEmail: "ada@example.com",
                               send: { _ in })
        #expect(model.email == "ada@example.com")
        #expect(model.notice == "Your password was changed. Sign in with the new one.")
        #expect(model.signInNotice?.code == "passwordChanged")
        model.deactivate()
    }

    @Test func onlyAKRPCServerOffersTheReset() {
        let events = LockedValue<[AuthEvent]>([])
        let send: @MainActor @Sendable (AuthEvent) -> Void = { event in events.withLock { $0.append(event) } }
        let rest = LoginModel(server: KnownServer(url: Self.server.url, generation: .restV1), dependencies: .test(), send: send)
        #expect(!rest.offersPasswordReset)
        rest.send(.forgotPassword)
        #expect(events.value.isEmpty, "a REST v1 server has no password reset")
        let krpc = LoginModel(server: Self.server, dependencies: .test(), send: send)
        #expect(krpc.offersPasswordReset)
        krpc.send(.emailChanged(" ada@example.com "))
        krpc.send(.forgotPassword)
        #expect(events.value == [.forgotPassword(email: "ada@example.com")])
        rest.deactivate()
        krpc.deactivate()
    }

    @Test func theCodeIsUpperCasedAndStripped() {
        #expect(PasswordResetCode.normalized("abcd-2345") == "ABCD2345")
        #expect(PasswordResetCode.normalized(" ab cd\t23·45 ") == "ABCD2345")
        #expect(PasswordResetCode.isComplete("ABCD-2345"))
        #expect(!PasswordResetCode.isComplete("ABCD-234"))
        #expect(!PasswordResetCode.isComplete("ABCD-23456"))
    }

    @Test func eachClaimIsNewAndNeverPrinted() {
        let first = DeviceClaim.mint(), second = DeviceClaim.mint()
        #expect(first != second)
        #expect(first.value.count == 43, "32 bytes, base64url without padding")
        #expect(first.value.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        #expect(!"\(first)".contains(first.value) && !String(reflecting: first).contains(first.value))
    }

    @Test func theRefusalsSayWhatToDo() {
        #expect(ServerError.passwordReset(.codeIncorrect(attemptsRemaining: 3)).userMessage == "That code is not right. 3 tries left.")
        #expect(ServerError.passwordReset(.codeIncorrect(attemptsRemaining: 1)).userMessage == "That code is not right. 1 try left.")
        #expect(ServerError.passwordReset(.attemptsExhausted).userMessage == "Too many wrong codes. Start again.")
        #expect(ServerError.passwordReset(.notFound).code == "resetNotFound")
        #expect(ServerError.passwordReset(.notApproved).code == "resetNotApproved")
    }

    @Test func theFormsAreCheckedBeforeAnythingIsSent() {
        let model = ResetPasswordModel(server: Self.server, email: "ada@", dependencies: .test(), send: { _ in })
        model.send(.request)
        #expect(model.step == .enterEmail)
        #expect(model.visibleError(for: .email) == "Enter a valid email address, like ada@example.com.")
        model.showForPreview(step: .enterCode)
        model.send(.changed(.code, "abcd-234"))
        model.send(.changed(.password, "short"))
        model.send(.changed(.confirmation, "shorter"))
        model.send(.complete)
        #expect(model.step == .enterCode, "nothing is sent while the form is invalid")
        #expect(model.visibleError(for: .code) == "Enter the 8-character code your administrator gave you.")
        #expect(model.visibleError(for: .password) == "Use at least 8 characters.")
        #expect(model.visibleError(for: .confirmation) == "The passwords don't match.")
        model.send(.changed(.password, "shorter"))
        #expect(model.visibleError(for: .confirmation) == nil)
    }

    @Test func repeatedStatusesChangeNothing() {
        let model = ResetPasswordModel(server: Self.server, email: "ada@example.com", dependencies: .test(), send: { _ in })
        model.showForPreview(step: .waiting)
        for _ in 0..<3 { model.observe(.pending) }
        #expect(model.statusChanges == [.pending])
        model.observe(.approved)
        #expect(model.step == .enterCode)
        model.send(.changed(.code, "ABCD-2345"))
        for _ in 0..<3 { model.observe(.approved) }
        #expect(model.statusChanges == [.pending, .approved], "the stream repeats every 3 s; the page moves once")
        #expect(model.code == "ABCD-2345" && model.step == .enterCode, "a repeat keeps what was typed")
        model.observe(.expired)
        #expect(model.step == .ended(.expired))
        model.send(.startAgain)
        #expect(model.step == .enterEmail && model.code.isEmpty)
    }

    @Test func aDenialEndsTheWaitAndCancelGoesBack() {
        let events = LockedValue<[AuthEvent]>([])
        let model = ResetPasswordModel(server: Self.server, email: "ada@example.com", dependencies: .test(),
                                       send: { event in events.withLock { $0.append(event) } })
        model.showForPreview(step: .waiting)
        model.observe(.pending)
        model.observe(.denied)
        #expect(model.step == .ended(.denied))
        #expect(model.step.name == "ended")
        model.send(.cancel)
        #expect(events.value == [.backToSignIn])
    }
}
