import Foundation
import Observation

/// Create Account: a new member account on a server whose registration is
/// open or queued for approval (issue 28, item 1). Name, email, password,
/// checked as Create admin checks them; then the user is signed in (open)
/// or waits for an administrator (approval).
@MainActor @Observable
public final class CreateAccountModel: ScreenModel, AccountFormModel {
    /// A field of the form.
    public enum Field: String, CaseIterable, Sendable {
        case displayName, email, password
    }

    public typealias Status = AccountFormStatus

    public enum Intent: Equatable, Sendable {
        case changed(Field, String)
        case create
        /// Back to Sign in.
        case cancel
    }

    /// The form's texts and what the user has touched (the password held
    /// here, kept only in memory, seen by the page only as a length).
    public private(set) var form = AccountFormFields<Field>(password: .password)
    public var displayName: String { form[.displayName] }
    public var email: String { form[.email] }
    public var passwordLength: Int { form.passwordLength }
    public private(set) var status: Status = .editing
    /// The server the account is made on (nil only in previews).
    public let server: KnownServer?
    /// The server's address, as the page shows it.
    public var serverURL: URL? { server?.url }

    @ObservationIgnored private let dependencies: Dependencies
    @ObservationIgnored private let send: @MainActor @Sendable (AuthEvent) -> Void
    @ObservationIgnored private var attempt: Task<Void, Never>?

    /// - Parameter server: the server to register on (from the auth state).
    public init(server: KnownServer?, dependencies: Dependencies, send: @escaping @MainActor @Sendable (AuthEvent) -> Void) {
        self.server = server
        self.dependencies = dependencies
        self.send = send
    }

    /// The local problem with `field`, if any: the rules and words of
    /// Create admin (an email like `a@b.c`, a password of 8 to 1024 characters).
    public func error(for field: Field) -> String? {
        switch field {
        case .displayName: form.trimmed(.displayName).isEmpty ? tr("Enter your name.") : nil
        case .email: AccountFormRules.emailProblem(email)
        case .password: form.passwordProblem
        }
    }

    public func send(_ intent: Intent) {
        switch intent {
        case .changed(let field, let text):
            guard form.set(field, to: text) else { return }
            if case .failed = status { status = .editing }
        case .create:
            form.touch(Field.allCases)
            guard canCreate, isValid else { return }
            create()
        case .cancel:
            attempt?.cancel()
            send(.backToSignIn)
        }
    }

    /// Marks `field` as left by the user (its error may show).
    public func touch(_ field: Field) {
        form.touch(field)
    }

    private func create() {
        guard let server else { return }
        status = .creating
        let (name, email, password) = (form.trimmed(.displayName), form.trimmed(.email), form[.password])
        let dependencies = dependencies
        let connection = dependencies.connect(to: server)
        attempt = Task { [weak self] in
            let result: Result<RegistrationOutcome, ServerError>
            do throws(ServerError) {
                result = .success(try await connection.register(displayName: name, email: email, password: password))
            } catch {
                result = .failure(error)
            }
            guard !Task.isCancelled, let self else { return }
            switch result {
            case .success(.signedIn(let stored)):
                self.form.forgetPassword()
                self.send(.signedIn(Session(stored, connection: connection, generation: server.generation)))
            case .success(.pendingApproval(let userID)):
                self.form.forgetPassword()
                let pending = PendingRegistration(server: server, userID: userID, email: email, password: HeldPassword(password))
                dependencies.savePendingRegistration(pending)
                self.send(.registrationPending(pending))
            case .failure(let error):
                self.status = .failed(code: Self.code(for: error), message: error.userMessage)
            }
        }
    }

    /// The machine-readable code of a refusal, named for what it means here.
    nonisolated static func code(for error: ServerError) -> String {
        switch error {
        case .server(409, _): "emailInUse"
        case .server(403, _): "registrationClosed"
        case .server(400, _): "invalidInput"
        default: error.code
        }
    }

    public func deactivate() {
        attempt?.cancel()
        attempt = nil
    }

    /// Previews only.
    func fillForPreview(name: String, email: String, password: String) {
        send(.changed(.displayName, name))
        send(.changed(.email, email))
        send(.changed(.password, password))
    }

    /// Previews only.
    func showForPreview(_ status: Status) {
        self.status = status
    }
}

extension ScreenKey where Model == CreateAccountModel {
    /// Create Account.
    public static var createAccount: Self { Self(.createAccount) }
}

extension RouteNode {
    /// Create Account: the user asked for a new account on the server.
    public static let createAccount = RouteNode(
        .createAccount,
        serves: { if case .creatingAccount = $0 { true } else { false } },
        model: { context in
            let server: KnownServer? = if case .creatingAccount(let server) = context.authState { server } else { nil }
            return CreateAccountModel(server: server, dependencies: context.dependencies, send: context.send)
        },
        previews: [
            .init("empty") { _ in },
            .init("filled") { $0.fillForPreview(name: "Ada Lovelace", email: "ada@example.com", password: "analytical") },
            .init("invalid") {
                $0.fillForPreview(name: "", email: "ada@", password: "short")
                $0.send(.create)
            },
            .init("creating") {
                $0.fillForPreview(name: "Ada Lovelace", email: "ada@example.com", password: "analytical")
                $0.showForPreview(.creating)
            },
            .init("emailInUse") {
                $0.fillForPreview(name: "Ada Lovelace", email: "ada@example.com", password: "analytical")
                $0.showForPreview(.failed(code: "emailInUse", message: tr("An account with this email exists already.")))
            },
        ]
    )
}
