import Foundation
import Observation

/// Waiting for Approval: the account is registered and an administrator
/// must approve it. Watches the server live (kRPC
/// `observeRegistrationStatus`, REST v1 the registration status stream)
/// and, when approved, signs in with the password typed a moment ago (held
/// in memory only), or, after a restart (no password), goes to Sign in with
/// the email filled. Declined leads to a page that says so.
///
/// The server counts watches per address (20 a minute), so a watch that
/// ends without an answer or fails is opened again only after
/// ``retryDelay`` (doubling to a minute while it keeps failing), never in
/// a tight loop.
@MainActor @Observable
public final class AwaitingApprovalModel: ScreenModel {
    public enum Status: Equatable, Sendable {
        /// Waiting for an administrator (the watch is open or will be).
        case waiting
        /// Approved; signing in.
        case signingIn
    }

    public enum Intent: Equatable, Sendable {
        /// Forget the registration and go back to Sign in.
        case cancel
    }

    public private(set) var status: Status = .waiting
    /// Why the watch is not open right now (the network, the server), if it isn't.
    public private(set) var problem: String?
    /// The registration waited for (nil only in previews).
    public let pending: PendingRegistration?
    /// The email registered, as the page shows it.
    public private(set) var email: String
    /// The server's address, as the page shows it.
    public var serverURL: URL? { pending?.serverURL }

    /// The first wait before a watch is opened again.
    public nonisolated static let retryDelay: Duration = .seconds(5)
    static let longestRetryDelay: Duration = .seconds(60)

    @ObservationIgnored private let dependencies: Dependencies
    @ObservationIgnored private let send: @MainActor @Sendable (AuthEvent) -> Void
    @ObservationIgnored private var watch: Task<Void, Never>?
    @ObservationIgnored private let firstRetryDelay: Duration

    /// - Parameters:
    ///   - pending: the registration (from the auth state; nil in previews,
    ///     which watch nothing).
    ///   - retryDelay: the first wait before a watch is opened again (tests shorten it).
    public init(pending: PendingRegistration?, dependencies: Dependencies, retryDelay: Duration = AwaitingApprovalModel.retryDelay,
                send: @escaping @MainActor @Sendable (AuthEvent) -> Void) {
        self.pending = pending
        email = pending?.email ?? ""
        self.dependencies = dependencies
        self.send = send
        firstRetryDelay = retryDelay
        if let pending { startWatching(pending) }
    }

    public func send(_ intent: Intent) {
        switch intent {
        case .cancel:
            stop()
            dependencies.savePendingRegistration(nil)
            send(.backToSignIn)
        }
    }

    private func startWatching(_ pending: PendingRegistration) {
        let connection = dependencies.connect(to: pending.server)
        let logger = dependencies.logger
        let first = firstRetryDelay
        watch = Task { [weak self] in
            var delay = first
            while !Task.isCancelled {
                do {
                    let statuses = try await connection.registrationStatus(userID: pending.userID)
                    for try await status in statuses {
                        guard let self else { return }
                        self.problem = nil
                        if status.isTerminal {
                            self.finish(status, pending: pending)
                            return
                        }
                    }
                    // The watch ended with no answer: open another, later.
                } catch ServerError.server(status: 404, message: _) {
                    // The server knows no such registration: it was removed.
                    guard let self else { return }
                    self.finish(.declined(message: nil), pending: pending)
                    return
                } catch {
                    guard !Task.isCancelled, let self else { return }
                    let shown = (error as? ServerError) ?? .transport(.unreachable("\(type(of: error))"))
                    logger.info("Registration watch failed; waiting before watching again", metadata: ["code": "\(shown.code)"])
                    self.problem = shown.userMessage
                }
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, Self.longestRetryDelay)
            }
        }
    }

    private func finish(_ status: RegistrationStatus, pending: PendingRegistration) {
        dependencies.savePendingRegistration(nil)
        switch status {
        case .pending:
            return
        case .declined(let message):
            send(.registrationDeclined(message: message))
        case .approved:
            guard let password = pending.password else {
                send(.registrationApproved(email: pending.email, signInFailure: nil))
                return
            }
            self.status = .signingIn
            let dependencies = dependencies
            watch = Task { [weak self] in
                let result = await dependencies.signIn(to: pending.server) { connection throws(ServerError) in
                    try await connection.login(email: pending.email, password: password.value)
                }
                guard !Task.isCancelled, let self else { return }
                switch result {
                case .success(let session): self.send(.signedIn(session))
                case .failure(let error): self.send(.registrationApproved(email: pending.email, signInFailure: error))
                }
            }
        }
    }

    private func stop() {
        watch?.cancel()
        watch = nil
    }

    public func deactivate() {
        stop()
    }

    /// Previews only.
    func showForPreview(status: Status, problem: String? = nil) {
        email = "ada@example.com"
        self.status = status
        self.problem = problem
    }
}

extension ScreenKey where Model == AwaitingApprovalModel {
    /// Waiting for Approval.
    public static var awaitingApproval: Self { Self(.awaitingApproval) }
}

extension RouteNode {
    /// Waiting for Approval: a registration waits for an administrator.
    public static let awaitingApproval = RouteNode(
        .awaitingApproval,
        serves: { if case .awaitingApproval = $0 { true } else { false } },
        model: { context in
            let pending: PendingRegistration? = if case .awaitingApproval(let pending) = context.authState { pending } else { nil }
            return AwaitingApprovalModel(pending: pending, dependencies: context.dependencies, send: context.send)
        },
        previews: [
            .init("waiting") { $0.showForPreview(status: .waiting) },
            .init("signingIn") { $0.showForPreview(status: .signingIn) },
            .init("unreachable") {
                $0.showForPreview(status: .waiting, problem: ServerError.transport(.unreachable("")).userMessage)
            },
        ]
    )
}
