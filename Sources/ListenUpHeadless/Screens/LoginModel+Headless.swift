import Foundation
import JSONToolkit
import ListenUpCore

extension LoginModel: HeadlessScreen {
    var snapshot: JSONValue {
        var state: [String: JSONValue] = [
            "email": .string(email),
            "server": .optional(serverURL?.absoluteString),
            "canSignIn": .bool(canSignIn),
            "notice": .optional(notice),
            "reason": .optional(signInNotice?.code),
            "registration": .optional(registrationMode?.rawValue),
            "passwordReset": .bool(offersPasswordReset),
        ]
        switch status {
        case .editing: state["status"] = "editing"
        case .signingIn: state["status"] = "signingIn"
        case .failed(let code, let message):
            state.recordFailure(code: code, message: message)
        }
        return .object(state)
    }

    /// Headless: `login {email, password}`, `changeServer`.
    func handle(_ command: HeadlessCommand) -> Bool {
        switch command {
        case .login(let email, let password):
            send(.emailChanged(email))
            send(.passwordChanged(password))
            send(.signIn)
            return true
        case .changeServer:
            send(.changeServer)
            return true
        default:
            return false
        }
    }
}
