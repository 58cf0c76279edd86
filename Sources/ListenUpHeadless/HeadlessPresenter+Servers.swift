import Foundation
import JSONToolkit
import ListenUpCore

/// The saved (server, account) pairs, from any screen:
///
/// - `{"action":"servers"}` prints
///   `{"event":"servers","active":…,"servers":[{"id","url","user","generation"}…]}`
///   (`active` is the id of the pair in use, or null; `user` the account's
///   name, null before signing in); the line is printed again whenever the
///   list or the active pair changes;
/// - `{"action":"addServer"}` goes to server setup, the others kept signed in;
/// - `{"action":"switchServer","id"}` ends this session and restores that
///   pair's (its library, or its Sign in);
/// - `{"action":"removeServer","id"}` signs that pair out (best effort) and
///   deletes its keyring item, cache, covers, downloads and listening store.
///
/// An id that is no saved pair's answers `unknownServer`.
extension HeadlessPresenter {
    static func serversLine(active: String?, servers: [SavedServer]) -> JSONValue {
        ["event": "servers", "active": .optional(active), "servers": .array(servers.map { server in
            ["id": .string(server.id), "url": .string(server.url.absoluteString), "user": .optional(server.userDisplayName),
             "generation": .string(server.generation.rawValue)]
        })]
    }

    /// Follows the list and the active pair, printing them when they change.
    /// The first look is taken as the presenter starts, before the navigator
    /// restores the saved pairs, so a start with saved pairs prints them
    /// once; `servers` asks at any time.
    func followServers() {
        serversObservation = StateObservation { [weak self] in
            guard let self else { return }
            let line = Self.serversLine(active: navigator.activeServerID, servers: navigator.savedServers)
            defer { serversLine = line }
            if let printed = serversLine, printed != line { emit(line) }
        }
    }

    func handleServers(_ command: HeadlessCommand) {
        switch command {
        case .addServer:
            navigator.addServer()
        case .switchServer(let id):
            if !navigator.switchServer(id: id) { unknownServer(id) }
        case .removeServer(let id):
            Task { [weak self] in
                guard let self, !(await navigator.removeServer(id: id)) else { return }
                unknownServer(id)
            }
        default:
            let line = Self.serversLine(active: navigator.activeServerID, servers: navigator.savedServers)
            serversLine = line
            emit(line)
        }
    }

    /// `switchServer` or `removeServer` without an id says so.
    /// - Returns: false for the other actions (not answered here).
    func refusedServerCommand(_ action: HeadlessCommand.Action) -> Bool {
        guard action == .switchServer || action == .removeServer else { return false }
        emitError(code: "badCommand", message: "The “\(action.rawValue)” command needs a saved server's \"id\" string.")
        return true
    }

    private func unknownServer(_ id: String) {
        emitError(code: "unknownServer", message: "No saved server has the id “\(id)”.")
    }
}
