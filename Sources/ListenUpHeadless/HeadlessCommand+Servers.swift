import Foundation
import JSONToolkit

extension HeadlessCommand {
    /// `servers`, `addServer`, `switchServer {id}` and `removeServer {id}`
    /// from their arguments (`id` is a saved server's, a non-empty string).
    static func savedServers(_ action: Action, _ arguments: [String: JSONValue]) throws(Problem) -> HeadlessCommand {
        switch action {
        case .addServer: return .addServer
        case .switchServer, .removeServer:
            guard let id = arguments["id"]?.stringValue, !id.isEmpty else { throw .badArguments(action) }
            return action == .switchServer ? .switchServer(id: id) : .removeServer(id: id)
        default: return .servers
        }
    }

    /// The line's members of the saved-server commands.
    var savedServersParts: (action: Action, arguments: [String: JSONValue]) {
        switch self {
        case .addServer: (.addServer, [:])
        case .switchServer(let id): (.switchServer, ["id": .string(id)])
        case .removeServer(let id): (.removeServer, ["id": .string(id)])
        default: (.servers, [:])
        }
    }
}
