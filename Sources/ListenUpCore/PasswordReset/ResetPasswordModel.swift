import Foundation
import Observation

/// Reset Password: a forgotten password, reset with an administrator's help
/// (issue 28, part 3; addendum §6.3, upstream `api/AuthService.kt`,
/// `server/.../services/PasswordResetService.kt`).
///
/// 1. The user enters their email; the app mints a ``DeviceClaim`` (memory
///    only) and asks (`requestPasswordReset`). The server always answers
///    with a ticket, so nothing here says whether the account exists.
/// 2. It waits, watching the ticket live: the server repeats the status
///    every 3 s, so only a change moves the page (``statusChanges``).
/// 3. Approved: the user enters the administrator's code and a new password
///    twice; `completePasswordReset` changes it and the server ends every
///    session of the account. Sign in then shows the email and a notice.
///
/// Denied, expired, unknown or spent requests end the flow with a plain
/// sentence and a way to start again. Cancel goes back to Sign in.
@MainActor @Observable
public final class ResetPasswordModel: ScreenModel {
    /// Where the flow stands.
    public enum Step: Equatable, Sendable {
        /// The email form.
        case enterEmail
        /// Asking the server for a reset.
        case requesting
        /// Waiting for an administrator's decision.
        case waiting
        /// Approved: the code and new password form.
        case enterCode
        /// Sending the code and new password.
        case completing
        /// The request is over without a new password.
        case ended(End)

        /// The step's name (headless `step`).
        public var name: String {
            switch self {
            case .enterEmail: "enterEmail"
            case .requesting: "requesting"
            case .waiting: "waiting"
            case .enterCode: "enterCode"
            case .completing: "completing"
            case .ended: "ended"
            }
        }
    }

    /// Why a request ended without a new password.
    public enum End: String, Equatable, Sendable {
        case denied, expired, notFound, attemptsExhausted

        /// What the page says.
        public var message: String {
            switch self {
            case .denied: tr("An administrator denied this reset. Ask them, then start again.")
            case .expired: tr("This reset expired before it was finished. Start again.")
            case .notFound: PasswordResetRefusal.notFound.userMessage
            case .attemptsExhausted: PasswordResetRefusal.attemptsExhausted.userMessage
            }
        }
    }

    /// A field of the two forms.
    public enum Field: String, CaseIterable, Sendable {
        case email, code, password, confirmation
    }

    public enum Intent: Equatable, Sendable {
        case changed(Field, String)
        /// Ask for a reset (the email form's button).
        case request
        /// Change the password (the code form's button).
        case complete
        /// After an ended request: the email form again.
        case startAgain
        /// Back to Sign in, at any step.
        case cancel
    }

    public private(set) var step: Step = .enterEmail
    /// The form's texts and what the user has touched (the new password
    /// held here, kept only in memory, seen by the page only as a length
    /// and a match).
    private var form = AccountFormFields<Field>(password: .password, confirmation: .confirmation)
    public var email: String { form[.email] }
    public var code: String { form[.code] }
    /// The new password's length.
    public var passwordLength: Int { form.passwordLength }
    /// Whether the confirmation repeats the password.
    public var confirmationMatches: Bool { form.confirmationMatches }
    /// The last refusal or failure on the current form: machine-readable code and sentence.
    public private(set) var failure: (code: String, message: String)?
    /// Fields the user has left at least once: their errors show from then on.
    public var touched: Set<Field> { form.touched }
    /// When the open request expires, once the server answered.
    public private(set) var expiresAt: Date?
    /// Every change of status the watch saw, in order (repeats dropped).
    public private(set) var statusChanges: [PasswordResetStatus] = []
    /// Why the watch is not open right now, if it isn't.
    public private(set) var problem: String?
    /// The server (nil only in previews).
    public let server: KnownServer?
    /// The server's address, as the page shows it.
    public var serverURL: URL? { server?.url }

    /// The first wait before a watch that ended without an answer is opened again.
    public nonisolated static let retryDelay: Duration = .seconds(5)
    static let longestRetryDelay: Duration = .seconds(60)

    @ObservationIgnored private let dependencies: Dependencies
    @ObservationIgnored private let send: @MainActor @Sendable (AuthEvent) -> Void
    @ObservationIgnored private let firstRetryDelay: Duration
    @ObservationIgnored private var attempt: Task<Void, Never>?
    @ObservationIgnored private var watch: Task<Void, Never>?
    @ObservationIgnored private var ticket: PasswordResetTicket?
    @ObservationIgnored private var claim: DeviceClaim?

    /// - Parameters:
    ///   - server: the server (from the auth state).
    ///   - email: what Sign in had typed.
    ///   - retryDelay: the first wait before a watch is opened again (tests shorten it).
    public init(server: KnownServer?, email: String, dependencies: Dependencies, retryDelay: Duration = ResetPasswordModel.retryDelay,
                send: @escaping @MainActor @Sendable (AuthEvent) -> Void) {
        self.server = server
        self.dependencies = dependencies
        self.send = send
        firstRetryDelay = retryDelay
        form.set(.email, to: email)
    }

    /// The local problem with `field`, if any.
    public func error(for field: Field) -> String? {
        switch field {
        case .email: AccountFormRules.emailProblem(email)
        case .code: PasswordResetCode.isComplete(code) ? nil : tr("Enter the 8-character code your administrator gave you.")
        case .password: form.passwordProblem
        case .confirmation: form.confirmationProblem
        }
    }

    /// The error to show under `field` now.
    public func visibleError(for field: Field) -> String? {
        form.visible(error(for: field), for: field)
    }

    /// The failure's sentence, if any.
    public var errorMessage: String? { failure?.message }

    /// Marks `field` as left by the user (its error may show).
    public func touch(_ field: Field) {
        form.touch(field)
    }

    public func send(_ intent: Intent) {
        switch intent {
        case .changed(let field, let text):
            change(field, to: text)
        case .request:
            form.touch(.email)
            guard step == .enterEmail, error(for: .email) == nil else { return }
            request()
        case .complete:
            form.touch(.code, .password, .confirmation)
            guard step == .enterCode, [Field.code, .password, .confirmation].allSatisfy({ error(for: $0) == nil }) else { return }
            complete()
        case .startAgain:
            guard case .ended = step else { return }
            forgetRequest()
            failure = nil
            form.untouch()
            step = .enterEmail
        case .cancel:
            forgetRequest()
            attempt?.cancel()
            send(.backToSignIn)
        }
    }

    private func change(_ field: Field, to text: String) {
        guard form.set(field, to: text) else { return }
        if failure != nil, step == .enterEmail || step == .enterCode { failure = nil }
    }

    private func request() {
        guard let server else { return }
        step = .requesting
        failure = nil
        let claim = DeviceClaim.mint()
        let email = form.trimmed(.email)
        let connection = dependencies.connect(to: server)
        attempt = Task { [weak self] in
            let result: Result<PasswordResetTicket, ServerError>
            do throws(ServerError) {
                result = .success(try await connection.requestPasswordReset(email: email, deviceClaim: claim.value))
            } catch {
                result = .failure(error)
            }
            guard !Task.isCancelled, let self else { return }
            switch result {
            case .success(let ticket):
                self.ticket = ticket
                self.claim = claim
                self.expiresAt = ticket.expiresAt
                self.statusChanges = []
                self.step = .waiting
                self.startWatching(ticket, connection: connection)
            case .failure(let error):
                self.step = .enterEmail
                self.failure = (error.code, error.userMessage)
            }
        }
    }

    private func startWatching(_ ticket: PasswordResetTicket, connection: any ServerConnection) {
        let first = firstRetryDelay
        let logger = dependencies.logger
        watch = Task { [weak self] in
            var delay = first
            while !Task.isCancelled {
                do {
                    let statuses = try await connection.passwordResetStatus(ticketID: ticket.ticketID)
                    for try await status in statuses {
                        guard let self else { return }
                        self.problem = nil
                        self.observe(status)
                        if status.isTerminal { return }
                    }
                } catch {
                    guard !Task.isCancelled, let self else { return }
                    let shown = (error as? ServerError) ?? .transport(.unreachable("\(type(of: error))"))
                    logger.info("Password reset watch failed; waiting before watching again", metadata: ["code": "\(shown.code)"])
                    self.problem = shown.userMessage
                }
                // The watch ended with no final answer: past the ticket's
                // time it has expired; otherwise watch again, later.
                if Date() >= ticket.expiresAt {
                    self?.observe(.expired)
                    return
                }
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, Self.longestRetryDelay)
            }
        }
    }

    /// One status from the watch; a repeat of the last one changes nothing.
    func observe(_ status: PasswordResetStatus) {
        guard statusChanges.last != status else { return }
        statusChanges.append(status)
        switch status {
        case .pending:
            return
        case .approved:
            if step == .waiting { step = .enterCode }
        case .denied:
            end(.denied)
        case .expired:
            end(.expired)
        case .consumed:
            // Completed here (the page already moved on) or elsewhere.
            if step != .completing { end(.notFound) }
        }
    }

    private func complete() {
        guard let server, let ticket, let claim else { return }
        step = .completing
        failure = nil
        let (code, password, email) = (PasswordResetCode.normalized(code), form[.password], form.trimmed(.email))
        let connection = dependencies.connect(to: server)
        attempt = Task { [weak self] in
            var failed: ServerError?
            do throws(ServerError) {
                try await connection.completePasswordReset(ticketID: ticket.ticketID, claimSecret: claim.value, code: code,
                                                           newPassword: password)
            } catch {
                failed = error
            }
            guard !Task.isCancelled, let self else { return }
            guard let failed else {
                self.forgetRequest()
                self.send(.passwordResetCompleted(email: email))
                return
            }
            self.refused(failed)
        }
    }

    private func refused(_ error: ServerError) {
        switch error {
        case .passwordReset(.notFound):
            end(.notFound)
        case .passwordReset(.attemptsExhausted):
            end(.attemptsExhausted)
        default:
            step = .enterCode
            failure = (error.code, error.userMessage)
        }
    }

    private func end(_ end: End) {
        watch?.cancel()
        watch = nil
        step = .ended(end)
        failure = nil
    }

    /// Drops the ticket and the claim (the claim lives no longer than its request).
    private func forgetRequest() {
        watch?.cancel()
        watch = nil
        ticket = nil
        claim = nil
        expiresAt = nil
        form.set(.code, to: "")
        form.forgetPassword()
    }

    public func deactivate() {
        attempt?.cancel()
        attempt = nil
        watch?.cancel()
        watch = nil
    }

    /// Previews only.
    func showForPreview(step: Step, code: String = "", passwordLength: Int = 0, failure: (code: String, message: String)? = nil) {
        self.step = step
        form.set(.code, to: code)
        // Any text of that length: previews hold no password.
        form.set(.password, to: String(repeating: "x", count: passwordLength))
        form.set(.confirmation, to: String(repeating: "x", count: passwordLength))
        self.failure = failure
        if step != .enterEmail { expiresAt = Date(timeIntervalSinceNow: 14 * 60) }
    }
}
