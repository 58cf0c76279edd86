import Foundation
import JSONToolkit

extension HeadlessCommand {
    /// `forgotPassword {email}` and `resetPassword {code, password, confirmation?}`
    /// from their arguments (a missing string is empty; a missing
    /// confirmation repeats the password).
    static func passwordReset(_ action: Action, _ arguments: [String: JSONValue]) -> HeadlessCommand {
        func string(_ key: String) -> String { arguments[key]?.stringValue ?? "" }
        if action == .forgotPassword { return .forgotPassword(email: string("email")) }
        return .resetPassword(code: string("code"), password: string("password"), confirmation: arguments["confirmation"]?.stringValue)
    }

    /// The line's members of `forgotPassword` and `resetPassword`.
    var passwordResetParts: (action: Action, arguments: [String: JSONValue]) {
        switch self {
        case .forgotPassword(let email):
            return (.forgotPassword, ["email": .string(email)])
        case .resetPassword(let code, let password, let confirmation):
            var members: [String: JSONValue] = ["code": .string(code), "password": .string(password)]
            if let confirmation { members["confirmation"] = .string(confirmation) }
            return (.resetPassword, members)
        default:
            // Only the two commands above ask.
            return (.forgotPassword, [:])
        }
    }
}
