import Foundation
import JSONToolkit
import ListenUpCore

extension CreateAccountModel: HeadlessScreen {
    var snapshot: JSONValue {
        var errors: [String: JSONValue] = [:]
        for field in Field.allCases {
            if let message = visibleError(for: field) { errors[field.rawValue] = .string(message) }
        }
        var state: [String: JSONValue] = [
            "displayName": .string(displayName), "email": .string(email),
            "server": .optional(serverURL?.absoluteString), "fieldErrors": .object(errors),
        ]
        switch status {
        case .editing: state["status"] = "editing"
        case .creating: state["status"] = "creating"
        case .failed(let code, let message): state.recordFailure(code: code, message: message)
        }
        if status == .editing, touched == Set(Field.allCases), !isValid { state["code"] = "invalidForm" }
        return .object(state)
    }

    /// Headless: `register {displayName, email, password}`, `backToSignIn`.
    func handle(_ command: HeadlessCommand) -> Bool {
        switch command {
        case .register(let displayName, let email, let password):
            send(.changed(.displayName, displayName))
            send(.changed(.email, email))
            send(.changed(.password, password))
            send(.create)
            return true
        case .backToSignIn:
            send(.cancel)
            return true
        default:
            return false
        }
    }
}

extension AwaitingApprovalModel: HeadlessScreen {
    var snapshot: JSONValue {
        .object([
            "status": status == .signingIn ? "signingIn" : "pendingApproval",
            "email": .string(email),
            "server": .optional(serverURL?.absoluteString),
            "problem": .optional(problem),
        ])
    }

    /// Headless: `backToSignIn` (forgets the registration).
    func handle(_ command: HeadlessCommand) -> Bool {
        guard case .backToSignIn = command else { return false }
        send(.cancel)
        return true
    }
}

extension RegistrationDeclinedModel: HeadlessScreen {
    var snapshot: JSONValue {
        .object([
            "status": "declined",
            "message": .string(message),
            "reason": .optional(reason),
            "server": .optional(serverURL?.absoluteString),
        ])
    }

    /// Headless: `backToSignIn`.
    func handle(_ command: HeadlessCommand) -> Bool {
        guard case .backToSignIn = command else { return false }
        send(.backToSignIn)
        return true
    }
}
