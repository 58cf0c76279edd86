import Foundation
import Observation

/// Sign in: email and password for the saved server.
@MainActor @Observable
public final class LoginModel: ScreenModel {
    /// Where the screen stands.
    public enum Status: Equatable, Sendable {
        case editing
        case signingIn
        /// The attempt failed; `code` is machine-readable.
        case failed(code: String, message: String)
    }

    public enum Intent: Equatable, Sendable {
        case emailChanged(String)
        case passwordChanged(String)
        case signIn
        case changeServer
        /// *Use an Invite…*.
        case useInvite
        /// Create Account… (where the server takes registrations).
        case createAccount
        /// *Forgot Password?* (where the server can reset passwords).
        case forgotPassword
    }

    public private(set) var email = ""
    /// Kept only in memory, never in a snapshot or a log.
    @ObservationIgnored public private(set) var password = ""
    public private(set) var hasPassword = false
    public private(set) var status: Status = .editing
    /// The server being signed in to.
    public let server: KnownServer?
    /// The server's address, as the page shows it.
    public var serverURL: URL? { server?.url }
    /// Why the user is here again, if their session ended (or their account was just approved).
    public private(set) var signInNotice: SignInNotice?
    /// ``signInNotice``'s sentence, as the page shows it.
    public var notice: String? { signInNotice?.message }
    /// Whether the server takes new accounts, followed while this page
    /// shows (an administrator may open or close registration at any
    /// time: today's server tells at once, REST v1 is read each time the
    /// page shows); nil until it answers.
    public private(set) var registrationMode: RegistrationMode?
    /// Whether *Create Account…* is offered.
    public var offersCreateAccount: Bool { registrationMode?.allowsSignUp == true }
    /// Whether *Forgot Password?* is offered: only where the server can
    /// reset passwords (kRPC); REST v1 has no reset, and a control that can
    /// only say "no" is not shown (docs/architecture.md, Password reset).
    public private(set) var offersPasswordReset: Bool

    @ObservationIgnored private let dependencies: Dependencies
    @ObservationIgnored private let send: @MainActor @Sendable (AuthEvent) -> Void
    @ObservationIgnored private var attempt: Task<Void, Never>?
    @ObservationIgnored private var modeRead: Task<Void, Never>?

    /// - Parameters:
    ///   - server: the server to sign in to (from the auth state; nil only
    ///     in previews, which show no address).
    ///   - notice: why the session ended, when it did (the page says so).
    ///   - approvedEmail: the email of an account just approved (filled in,
    ///     and a notice says so).
    ///   - failure: why signing in to the account just approved failed,
    ///     shown as this page's own failed attempt.
    ///   - filledEmail: an email to start the form with (after a password reset).
    public init(server: KnownServer?, dependencies: Dependencies, notice: SignInNotice? = nil, approvedEmail: String? = nil,
                filledEmail: String? = nil, failure: ServerError? = nil, send: @escaping @MainActor @Sendable (AuthEvent) -> Void) {
        self.server = server
        self.dependencies = dependencies
        self.send = send
        signInNotice = notice
        offersPasswordReset = server?.offersPasswordReset == true
        if let filledEmail { email = filledEmail }
        if let approvedEmail {
            email = approvedEmail
            signInNotice = .accountApproved
        }
        if let failure { status = .failed(code: failure.code, message: Self.approvedButFailed(failure)) }
        if let server { followRegistrationMode(server) }
    }

    /// Follows whether the server takes new accounts (*Create Account…* is
    /// hidden until it answers). A watch that fails before its first answer
    /// (a server without it) falls back to one read; one that ends later
    /// leaves the last answer (the server counts watches: no loop).
    private func followRegistrationMode(_ server: KnownServer) {
        let connection = dependencies.connect(to: server)
        modeRead = Task { [weak self] in
            do {
                for try await mode in try await connection.registrationModes() {
                    guard !Task.isCancelled else { return }
                    self?.registrationMode = mode
                }
            } catch {
                guard !Task.isCancelled, self?.registrationMode == nil else { return }
                let mode = try? await connection.registrationMode()
                guard !Task.isCancelled, let mode else { return }
                self?.registrationMode = mode
            }
        }
    }

    /// The page shows one message: after an approval, the failure says the
    /// account was approved too.
    static func approvedButFailed(_ failure: ServerError) -> String {
        tr("Your account was approved, but signing in failed. %@", failure.userMessage)
    }

    /// Whether Sign in can be pressed.
    public var canSignIn: Bool {
        status != .signingIn && !email.trimmingCharacters(in: .whitespaces).isEmpty && hasPassword
    }

    /// The error to show, if any.
    public var errorMessage: String? {
        if case .failed(_, let message) = status { return message }
        return nil
    }

    public func send(_ intent: Intent) {
        switch intent {
        case .emailChanged(let text):
            guard text != email else { return }
            email = text
            if case .failed = status { status = .editing }
        case .passwordChanged(let text):
            password = text
            hasPassword = !text.isEmpty
            if case .failed = status { status = .editing }
        case .signIn:
            guard canSignIn else { return }
            signIn()
        case .changeServer:
            attempt?.cancel()
            send(.changeServer)
        case .useInvite:
            attempt?.cancel()
            send(.inviteOpened(link: nil))
        case .createAccount:
            // Offered only where the server takes accounts; asked for before
            // it answered, the server itself decides (and says why not).
            guard status != .signingIn, registrationMode != .closed else { return }
            attempt?.cancel()
            send(.createAccount)
        case .forgotPassword:
            guard status != .signingIn, offersPasswordReset else { return }
            attempt?.cancel()
            send(.forgotPassword(email: email.trimmingCharacters(in: .whitespaces)))
        }
    }

    private func signIn() {
        guard let server else { return }
        status = .signingIn
        let email = email.trimmingCharacters(in: .whitespaces)
        let password = password
        let dependencies = dependencies
        attempt = Task { [weak self] in
            let result = await dependencies.signIn(to: server) { connection throws(ServerError) in
                try await connection.login(email: email, password: password)
            }
            guard !Task.isCancelled, let self else { return }
            switch result {
            case .success(let session):
                self.password = ""
                self.send(.signedIn(session))
            case .failure(let error):
                self.status = .failed(code: error.code, message: error.userMessage)
            }
        }
    }

    public func deactivate() {
        attempt?.cancel()
        attempt = nil
        modeRead?.cancel()
        modeRead = nil
    }

    /// Previews only.
    func showForPreview(email: String, password: Bool, status: Status, notice: SignInNotice? = nil, registration: RegistrationMode? = nil,
                        passwordReset: Bool = false) {
        offersPasswordReset = passwordReset
        if let notice { signInNotice = notice }
        registrationMode = registration
        self.email = email
        hasPassword = password
        self.status = status
    }
}

extension ScreenKey where Model == LoginModel {
    /// Sign in.
    public static var login: Self { Self(.login) }
}

extension RouteNode {
    /// Sign in: the server is known, nobody is signed in (or the session lapsed).
    public static let login = RouteNode(
        .login,
        serves: { state in
            switch state {
            case .needsLogin, .sessionLapsed, .accountApproved, .passwordChanged: true
            default: false
            }
        },
        model: { context in
            switch context.authState {
            case .needsLogin(let server):
                LoginModel(server: server, dependencies: context.dependencies, send: context.send)
            case .sessionLapsed(let server, let notice):
                LoginModel(server: server, dependencies: context.dependencies, notice: notice, send: context.send)
            case .accountApproved(let server, let email, let failure):
                LoginModel(server: server, dependencies: context.dependencies, approvedEmail: email, failure: failure, send: context.send)
            case .passwordChanged(let server, let email):
                LoginModel(server: server, dependencies: context.dependencies, notice: .passwordChanged, filledEmail: email,
                           send: context.send)
            default:
                // `--preview login`: no server.
                LoginModel(server: nil, dependencies: context.dependencies, send: context.send)
            }
        },
        previews: [
            .init("empty") { _ in },
            .init("filled") { $0.showForPreview(email: "ada@example.com", password: true, status: .editing) },
            .init("registrationOpen") { $0.showForPreview(email: "", password: false, status: .editing, registration: .open) },
            .init("signingIn") { $0.showForPreview(email: "ada@example.com", password: true, status: .signingIn) },
            .init("invalidCredentials") {
                $0.showForPreview(email: "ada@example.com", password: true,
                                  status: .failed(code: "invalidCredentials", message: ServerError.server(status: 401, message: "").userMessage))
            },
            .init("rateLimited") {
                $0.showForPreview(email: "ada@example.com", password: true,
                                  status: .failed(code: "rateLimited", message: ServerError.rateLimited.userMessage))
            },
            .init("sessionLapsed") { $0.showForPreview(email: "ada@example.com", password: false, status: .editing, notice: .sessionEnded) },
            .init("serverUpdated") { $0.showForPreview(email: "ada@example.com", password: false, status: .editing, notice: .serverUpdated) },
            .init("passwordChanged") {
                $0.showForPreview(email: "ada@example.com", password: false, status: .editing, notice: .passwordChanged,
                                  passwordReset: true)
            },
            .init("accountRemoved") {
                $0.showForPreview(email: "ada@example.com", password: false, status: .editing, notice: .accountRemoved(reason: nil))
            },
            .init("approvedSignInFailed") {
                $0.showForPreview(email: "ada@example.com", password: false,
                                  status: .failed(code: "unreachable", message: LoginModel.approvedButFailed(.transport(.unreachable("")))),
                                  notice: .accountApproved)
            },
            .init("unreachable") {
                $0.showForPreview(email: "ada@example.com", password: true,
                                  status: .failed(code: "unreachable", message: ServerError.transport(.unreachable("")).userMessage))
            },
        ]
    )
}
