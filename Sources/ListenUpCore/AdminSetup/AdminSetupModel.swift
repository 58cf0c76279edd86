import Foundation
import Observation

/// Create admin: the server has no users yet (`setup_required`); the first
/// account becomes its admin and is signed in.
@MainActor @Observable
public final class AdminSetupModel: ScreenModel, AccountFormModel {
    /// A field of the form.
    public enum Field: String, CaseIterable, Sendable {
        case firstName, lastName, email, password, confirmation
    }

    public typealias Status = AccountFormStatus

    public enum Intent: Equatable, Sendable {
        case changed(Field, String)
        case create
        case changeServer
    }

    /// The password the server accepts at least.
    public static let minimumPasswordLength = AccountFormRules.passwordLengths.lowerBound
    public static let maximumPasswordLength = AccountFormRules.passwordLengths.upperBound

    /// The form's texts and what the user has touched (the password held
    /// here, seen by the page only as a length and a match).
    public private(set) var form = AccountFormFields<Field>(password: .password, confirmation: .confirmation)
    public var firstName: String { form[.firstName] }
    public var lastName: String { form[.lastName] }
    public var email: String { form[.email] }
    public var passwordLength: Int { form.passwordLength }
    public var confirmationMatches: Bool { form.confirmationMatches }
    public private(set) var status: Status = .editing

    @ObservationIgnored private let dependencies: Dependencies
    @ObservationIgnored private let send: @MainActor @Sendable (AuthEvent) -> Void
    @ObservationIgnored private var attempt: Task<Void, Never>?

    /// - Parameter server: the server to set up (from the auth state; nil
    ///   only in previews, which show no address).
    public init(server: KnownServer?, dependencies: Dependencies, send: @escaping @MainActor @Sendable (AuthEvent) -> Void) {
        self.server = server
        self.dependencies = dependencies
        self.send = send
    }

    /// The server being set up.
    public let server: KnownServer?
    /// The server's address, as the page shows it.
    public var serverURL: URL? { server?.url }

    /// The local problem with `field`, if any (shown once touched or after Create).
    public func error(for field: Field) -> String? {
        switch field {
        case .firstName: form.trimmed(.firstName).isEmpty ? tr("Enter your first name.") : nil
        case .lastName: form.trimmed(.lastName).isEmpty ? tr("Enter your last name.") : nil
        case .email: AccountFormRules.emailProblem(email)
        case .password: form.passwordProblem
        case .confirmation: form.confirmationProblem
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
        case .changeServer:
            attempt?.cancel()
            send(.changeServer)
        }
    }

    /// Marks `field` as left by the user (its error may show).
    public func touch(_ field: Field) {
        form.touch(field)
    }

    private func create() {
        guard let server else { return }
        status = .creating
        let (first, last, email, password) = (form.trimmed(.firstName), form.trimmed(.lastName), form.trimmed(.email), form[.password])
        let dependencies = dependencies
        attempt = Task { [weak self] in
            let result = await dependencies.signIn(to: server) { connection throws(ServerError) in
                try await connection.setupAdmin(firstName: first, lastName: last, email: email, password: password)
            }
            guard !Task.isCancelled, let self else { return }
            switch result {
            case .success(let session):
                self.form.forgetPassword()
                self.send(.signedIn(session))
            case .failure(.server(409, _)):
                // Someone finished setup first: sign in instead.
                self.send(.adminAlreadyExists)
            case .failure(let error):
                self.status = .failed(code: error.code, message: error.userMessage)
            }
        }
    }

    public func deactivate() {
        attempt?.cancel()
        attempt = nil
    }

    /// Previews only.
    func fillForPreview(first: String, last: String, email: String, password: String, confirmation: String) {
        send(.changed(.firstName, first))
        send(.changed(.lastName, last))
        send(.changed(.email, email))
        send(.changed(.password, password))
        send(.changed(.confirmation, confirmation))
    }

    /// Previews only.
    func showForPreview(_ status: Status) {
        self.status = status
    }
}

extension ScreenKey where Model == AdminSetupModel {
    /// Create admin.
    public static var adminSetup: Self { Self(.adminSetup) }
}

extension RouteNode {
    /// Create admin: the server needs its first account.
    public static let adminSetup = RouteNode(
        .adminSetup,
        serves: { if case .needsAdminSetup = $0 { true } else { false } },
        model: { context in
            // `--preview adminSetup` has no server.
            let server: KnownServer? = if case .needsAdminSetup(let server) = context.authState { server } else { nil }
            return AdminSetupModel(server: server, dependencies: context.dependencies, send: context.send)
        },
        previews: [
            .init("empty") { _ in },
            .init("filled") { $0.fillForPreview(first: "Ada", last: "Lovelace", email: "ada@example.com", password: "analytical", confirmation: "analytical") },
            .init("invalid") {
                $0.fillForPreview(first: "Ada", last: "", email: "ada@", password: "short", confirmation: "shorter")
                $0.send(.create)
            },
            .init("creating") {
                $0.fillForPreview(first: "Ada", last: "Lovelace", email: "ada@example.com", password: "analytical", confirmation: "analytical")
                $0.showForPreview(.creating)
            },
            .init("failed") {
                $0.fillForPreview(first: "Ada", last: "Lovelace", email: "ada@example.com", password: "analytical", confirmation: "analytical")
                $0.showForPreview(.failed(code: "unreachable", message: ServerError.transport(.unreachable("")).userMessage))
            },
        ]
    )
}
