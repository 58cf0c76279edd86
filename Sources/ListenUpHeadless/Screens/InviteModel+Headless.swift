import Foundation
import JSONToolkit
import ListenUpCore

extension InviteModel: HeadlessScreen {
    /// `{"link", "status", "server"?, "invite"?, "displayName", "takesDisplayName", "canClaim", "code"?, "message"?}`;
    /// `invite` is the preview (`displayName`, `email`, `invitedBy`, `serverName`, `valid`, `reason`?).
    var snapshot: JSONValue {
        var state: [String: JSONValue] = [
            "link": .string(linkText),
            "displayName": .string(displayName),
            "takesDisplayName": .bool(takesDisplayName),
            "canClaim": .bool(canClaim),
        ]
        if let server {
            state["server"] = ["url": .string(server.url.absoluteString), "name": .string(server.name),
                               "generation": .string(server.generation.rawValue)]
        }
        if let preview {
            state["invite"] = ["displayName": .string(preview.displayName), "email": .string(preview.email),
                               "invitedBy": .string(preview.invitedByName), "serverName": .string(preview.serverName),
                               "valid": .bool(preview.isValid), "reason": .optional(preview.problem?.code)]
        }
        switch status {
        case .editing: state["status"] = "editing"
        case .checking: state["status"] = "checking"
        case .ready: state["status"] = "ready"
        case .claiming: state["status"] = "claiming"
        case .failed(let code, let message):
            state.recordFailure(code: code, message: message)
        case .unusable(let refusal):
            state["status"] = "unusable"
            state["code"] = .string(refusal.code)
            state["message"] = .string(refusal.userMessage)
        case .claimFailed(let code, let message):
            state["status"] = "claimFailed"
            state["code"] = .string(code)
            state["message"] = .string(message)
        }
        return .object(state)
    }

    /// Headless: `claimInvite {link, email?, password, displayName?}` looks
    /// the invite up and claims it; `changeServer` goes back.
    func handle(_ command: HeadlessCommand) -> Bool {
        switch command {
        case .claimInvite(let fields):
            claim(link: fields.link, password: fields.password, displayName: fields.displayName, email: fields.email)
            return true
        case .changeServer:
            send(.back)
            return true
        default:
            return false
        }
    }
}
