import Foundation
import ListenUpCore

extension HeadlessPresenter {
    /// `forgotPassword` sent on Sign in: opens Reset Password first (the
    /// page that takes it), as pressing *Forgot Password?* does.
    /// - Returns: false when the command was answered here (the server
    ///   can't reset passwords: an `error` line `passwordResetUnavailable`).
    func openResetPassword(for command: HeadlessCommand) -> Bool {
        guard case .forgotPassword = command, let login = navigator.activeModel(.login) else { return true }
        login.send(.forgotPassword)
        guard navigator.activeRoute == .resetPassword else {
            emitError(code: "passwordResetUnavailable", message: PasswordResetMessages.unavailable)
            return false
        }
        return true
    }
}
