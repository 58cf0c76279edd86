import Foundation

extension ScreenKey where Model == ResetPasswordModel {
    /// Reset Password.
    public static var resetPassword: Self { Self(.resetPassword) }
}

extension RouteNode {
    /// Reset Password: the user chose *Forgot Password?* on Sign in.
    public static let resetPassword = RouteNode(
        .resetPassword,
        serves: { if case .resettingPassword = $0 { true } else { false } },
        model: { context in
            if case .resettingPassword(let server, let email) = context.authState {
                return ResetPasswordModel(server: server, email: email, dependencies: context.dependencies, send: context.send)
            }
            return ResetPasswordModel(server: nil, email: "", dependencies: context.dependencies, send: context.send)
        },
        previews: [
            .init("email") { $0.send(.changed(.email, "ada@example.com")) },
            .init("invalidEmail") {
                $0.send(.changed(.email, "ada@"))
                $0.send(.request)
            },
            .init("waiting") {
                $0.send(.changed(.email, "ada@example.com"))
                $0.showForPreview(step: .waiting)
            },
            .init("enterCode") {
                $0.send(.changed(.email, "ada@example.com"))
                $0.showForPreview(step: .enterCode, code: "ABCD-2345", passwordLength: 10)
            },
            .init("wrongCode") {
                $0.send(.changed(.email, "ada@example.com"))
                $0.showForPreview(step: .enterCode, code: "ABCD-2346", passwordLength: 10,
                                  failure: ("resetCodeIncorrect", PasswordResetRefusal.codeIncorrect(attemptsRemaining: 3).userMessage))
            },
            .init("denied") { $0.showForPreview(step: .ended(.denied)) },
            .init("expired") { $0.showForPreview(step: .ended(.expired)) },
        ]
    )
}
