import Foundation
import JSONToolkit
import ListenUpCore

extension AdminSetupModel: HeadlessScreen {
    var snapshot: JSONValue {
        var errors: [String: JSONValue] = [:]
        for field in Field.allCases {
            if let message = visibleError(for: field) { errors[field.rawValue] = .string(message) }
        }
        var state: [String: JSONValue] = [
            "firstName": .string(firstName), "lastName": .string(lastName), "email": .string(email),
            "server": .optional(serverURL?.absoluteString), "fieldErrors": .object(errors),
        ]
        switch status {
        case .editing: state["status"] = "editing"
        case .creating: state["status"] = "creating"
        case .failed(let code, let message):
            state.recordFailure(code: code, message: message)
        }
        if status == .editing, touched == Set(Field.allCases), !isValid { state["code"] = "invalidForm" }
        return .object(state)
    }

    /// Headless: `setupAdmin {firstName, lastName, email, password}` (or
    /// `name` split at its last space), `changeServer`.
    func handle(_ command: HeadlessCommand) -> Bool {
        switch command {
        case .setupAdmin(let fields):
            send(.changed(.firstName, fields.firstName))
            send(.changed(.lastName, fields.lastName))
            send(.changed(.email, fields.email))
            send(.changed(.password, fields.password))
            send(.changed(.confirmation, fields.confirmation))
            send(.create)
            return true
        case .changeServer:
            send(.changeServer)
            return true
        default:
            return false
        }
    }
}
