import Foundation
import JSONToolkit
import ListenUpCore

extension ResetPasswordModel: HeadlessScreen {
    var snapshot: JSONValue {
        var errors: [String: JSONValue] = [:]
        for field in Field.allCases {
            if let message = visibleError(for: field) { errors[field.rawValue] = .string(message) }
        }
        var state: [String: JSONValue] = [
            "step": .string(step.name), "email": .string(email), "resetCode": .string(code),
            "server": .optional(serverURL?.absoluteString), "fieldErrors": .object(errors),
            "problem": .optional(problem),
            "expiresAt": .optional(expiresAt.map { ISO8601DateFormatter().string(from: $0) }),
        ]
        if case .ended(let end) = step {
            state["status"] = "ended"
            state["reason"] = .string(end.rawValue)
            state["message"] = .string(end.message)
        } else if let failure {
            state.recordFailure(code: failure.code, message: failure.message)
        } else {
            state["status"] = .string(step.name)
        }
        return .object(state)
    }

    /// Headless: `forgotPassword {email}` (asks; after an ended request,
    /// starts again), `resetPassword {code, password, confirmation?}`,
    /// `backToSignIn`.
    func handle(_ command: HeadlessCommand) -> Bool {
        switch command {
        case .forgotPassword(let email):
            if case .ended = step { send(.startAgain) }
            if !email.isEmpty { send(.changed(.email, email)) }
            send(.request)
            return true
        case .resetPassword(let code, let password, let confirmation):
            send(.changed(.code, code))
            send(.changed(.password, password))
            send(.changed(.confirmation, confirmation ?? password))
            send(.complete)
            return true
        case .backToSignIn:
            send(.cancel)
            return true
        default:
            return false
        }
    }
}
