import Foundation

/// One (server, account) pair the app keeps beside the others: what the
/// primary menu lists and a switch restores. No token: the session itself
/// stays in the secret store, one item per server URL (``SessionStore``).
///
/// Each pair has its own library cache, covers, downloads and listening
/// store, all named after the server URL and the user id
/// (`Dependencies.forgetAccount` deletes them).
public struct SavedServer: Codable, Equatable, Sendable, Identifiable {
    /// The server's normalised URL, as text: stable, and the key of the
    /// secret store's item.
    public var id: String { url.absoluteString }
    public var url: URL
    /// The protocol the server spoke when last verified.
    public var generation: ServerGeneration
    /// The instance id (`data.id`) the server gave, if known.
    public var instanceID: String?
    /// The account's user id (names the pair's files), once signed in.
    public var userID: String?
    /// The account's name, for the menu, once signed in.
    public var userDisplayName: String?

    public init(url: URL, generation: ServerGeneration = .restV1, instanceID: String? = nil, userID: String? = nil,
                userDisplayName: String? = nil) {
        self.url = url
        self.generation = generation
        self.instanceID = instanceID
        self.userID = userID
        self.userDisplayName = userDisplayName
    }

    private enum CodingKeys: String, CodingKey {
        case url, generation, instanceID, userID, userDisplayName
    }

    /// Reads an entry; everything but the URL may be missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        url = try container.decode(URL.self, forKey: .url)
        generation = (try? container.decodeIfPresent(ServerGeneration.self, forKey: .generation)) ?? .restV1
        instanceID = try? container.decodeIfPresent(String.self, forKey: .instanceID)
        userID = try? container.decodeIfPresent(String.self, forKey: .userID)
        userDisplayName = try? container.decodeIfPresent(String.self, forKey: .userDisplayName)
    }
}

extension AppSettings {
    /// The saved (server, account) pairs, in the order they were added. A
    /// settings file from before the list (only `serverURL`) reads as a
    /// list of that one server.
    public var savedServers: [SavedServer] {
        if !servers.isEmpty { return servers }
        guard let serverURL, let url = URL(string: serverURL) else { return [] }
        return [SavedServer(url: url, generation: serverGeneration, instanceID: instanceID)]
    }

    /// The saved pair `id`, if any.
    public func savedServer(id: String) -> SavedServer? {
        savedServers.first { $0.id == id }
    }

    /// Adds `server` to the list, or updates its entry (keeping its place;
    /// what `server` does not know is kept from the entry).
    public mutating func rememberServer(_ server: SavedServer) {
        var list = savedServers
        if let index = list.firstIndex(where: { $0.id == server.id }) {
            let old = list[index]
            list[index] = SavedServer(url: server.url, generation: server.generation, instanceID: server.instanceID ?? old.instanceID,
                                      userID: server.userID ?? old.userID, userDisplayName: server.userDisplayName ?? old.userDisplayName)
        } else {
            list.append(server)
        }
        servers = list
    }

    /// Removes the pair `id` from the list; when it was the active server,
    /// the next saved one becomes active (or none). A registration waiting
    /// on it is forgotten.
    public mutating func forgetServer(id: String) {
        let list = savedServers.filter { $0.id != id }
        servers = list
        if pendingRegistration?.serverURL.absoluteString == id { pendingRegistration = nil }
        guard serverURL == id else { return }
        makeActive(list.first)
    }

    /// Makes `server` the one restored at the next start (nil: none, server setup).
    public mutating func makeActive(_ server: SavedServer?) {
        serverURL = server?.id
        instanceID = server?.instanceID
        serverGeneration = server?.generation ?? .restV1
    }
}
