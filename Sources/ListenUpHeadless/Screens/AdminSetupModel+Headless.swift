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
    func handle(_ command: ScreenCommand) -> Bool {
        switch command.action {
        case "setupAdmin":
            var first = command.arguments["firstName"]?.stringValue ?? ""
            var last = command.arguments["lastName"]?.stringValue ?? ""
            if let name = command.arguments["name"]?.stringValue?.trimmingCharacters(in: .whitespaces), first.isEmpty, last.isEmpty {
                if let space = name.lastIndex(of: " ") {
                    first = String(name[..<space]).trimmingCharacters(in: .whitespaces)
                    last = String(name[name.index(after: space)...])
                } else {
                    first = name
                }
            }
            let password = command.arguments["password"]?.stringValue ?? ""
            send(.changed(.firstName, first))
            send(.changed(.lastName, last))
            send(.changed(.email, command.arguments["email"]?.stringValue ?? ""))
            send(.changed(.password, password))
            send(.changed(.confirmation, command.arguments["confirmation"]?.stringValue ?? password))
            send(.create)
            return true
        case "changeServer":
            send(.changeServer)
            return true
        default:
            return false
        }
    }
}
