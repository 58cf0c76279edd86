import Foundation
import JSONToolkit
import ListenUpCore

extension ServerSetupModel: HeadlessScreen {
    var snapshot: JSONValue {
        var state: [String: JSONValue] = [
            "url": .string(urlText),
            "canConnect": .bool(canConnect),
            "discovered": .array(discovered.map { server in
                ["id": .string(server.id), "name": .string(server.name), "hostAndPort": .string(server.hostAndPort),
                 "version": .optional(server.version), "url": .string(server.url.absoluteString)]
            }),
        ]
        switch discoveryStatus {
        case .searching: state["discovery"] = "searching"
        case .unavailable(let reason):
            state["discovery"] = "unavailable"
            state["discoveryMessage"] = .string(reason)
        }
        switch status {
        case .editing:
            state["status"] = "editing"
        case .invalid(let error):
            state["status"] = "invalid"
            state["code"] = .string(error.code)
            state["message"] = .string(error.userMessage)
        case .checking(let address):
            state["status"] = "checking"
            state["normalizedURL"] = .string(address.url.absoluteString)
        case .failed(let address, let error):
            state.recordFailure(code: error.code, message: error.userMessage(for: address.url))
            state["normalizedURL"] = .string(address.url.absoluteString)
        case .verified(let server):
            state["status"] = "verified"
            state["normalizedURL"] = .string(server.url.absoluteString)
            state["server"] = ["id": .string(server.instanceID), "name": .string(server.name), "setupRequired": .bool(server.setupRequired)]
        }
        return .object(state)
    }

    /// Headless: `{"action":"connect","url":"…"}` types the URL and presses
    /// Connect; `{"action":"pick","id":"…"}` picks a discovered server.
    func handle(_ command: HeadlessCommand) -> Bool {
        switch command {
        case .connect(let url):
            send(.urlChanged(url))
            send(.connect)
            return true
        case .pick(let id):
            guard let server = discovered.first(where: { $0.id == id }) else { return false }
            send(.pick(server))
            return true
        default:
            return false
        }
    }
}
