import Foundation
import Observation

/// Registration declined: an administrator turned the account down. Says
/// so, with the server's reason when it gave one, and leads back to Sign in.
@MainActor @Observable
public final class RegistrationDeclinedModel: ScreenModel {
    public enum Intent: Equatable, Sendable {
        /// Back to Sign in.
        case backToSignIn
    }

    /// The server's reason, as it gave it (nil: none given).
    public private(set) var reason: String?
    /// The server's address, as the page shows it.
    public let serverURL: URL?

    @ObservationIgnored private let report: @MainActor @Sendable (AuthEvent) -> Void

    /// - Parameters:
    ///   - server: the server that declined (nil in previews).
    ///   - reason: the server's reason, if any.
    public init(server: KnownServer?, reason: String?, send: @escaping @MainActor @Sendable (AuthEvent) -> Void) {
        serverURL = server?.url
        self.reason = reason.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        report = send
    }

    /// What the page says.
    public var message: String {
        tr("An administrator of this server declined your account.")
    }

    public func send(_ intent: Intent) {
        switch intent {
        case .backToSignIn: report(.backToSignIn)
        }
    }

    /// Previews only.
    func showForPreview(reason: String?) {
        self.reason = reason
    }
}

extension ScreenKey where Model == RegistrationDeclinedModel {
    /// Registration declined.
    public static var registrationDeclined: Self { Self(.registrationDeclined) }
}

extension RouteNode {
    /// Registration declined: the registration waited for was turned down.
    public static let registrationDeclined = RouteNode(
        .registrationDeclined,
        serves: { if case .registrationDeclined = $0 { true } else { false } },
        model: { context in
            if case .registrationDeclined(let server, let reason) = context.authState {
                return RegistrationDeclinedModel(server: server, reason: reason, send: context.send)
            }
            return RegistrationDeclinedModel(server: nil, reason: nil, send: context.send)
        },
        previews: [
            .init("declined") { _ in },
            .init("withReason") { $0.showForPreview(reason: "This library is for the family only.") },
        ]
    )
}
