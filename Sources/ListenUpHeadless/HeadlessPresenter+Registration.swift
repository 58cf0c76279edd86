import Foundation
import ListenUpCore

extension HeadlessPresenter {
    /// `register` sent on Sign in: opens Create Account first (the page
    /// that takes it), as pressing *Create Account…* does.
    /// - Returns: false when the command was answered here (the server
    ///   takes no new accounts: an `error` line `registrationClosed`).
    func openCreateAccount(for command: HeadlessCommand) -> Bool {
        guard case .register = command, let login = navigator.activeModel(.login) else { return true }
        login.send(.createAccount)
        guard navigator.activeRoute == .createAccount else {
            emitError(code: "registrationClosed", message: RegistrationMessages.closed)
            return false
        }
        return true
    }
}
