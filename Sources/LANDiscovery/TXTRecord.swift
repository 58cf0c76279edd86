/// A ListenUp server's DNS-SD TXT record (`id`, `name`, `version`, `api`,
/// `remote`), parsed from raw `key=value` byte strings.
public struct ListenUpTXTRecord: Equatable, Sendable {
    /// The instance id (`data.id` of `/api/v1/instance`).
    public var id: String?
    /// The server's name.
    public var name: String?
    /// Always `1.0.0` on real servers.
    public var version: String?
    /// `v1`.
    public var api: String?
    /// The remote URL, when the server has one.
    public var remote: String?

    public init(id: String? = nil, name: String? = nil, version: String? = nil, api: String? = nil, remote: String? = nil) {
        self.id = id
        self.name = name
        self.version = version
        self.api = api
        self.remote = remote
    }

    /// Parses entries. Keys are case-insensitive (RFC 6763 §6.4); the first
    /// occurrence of a key wins; entries without `=`, with an empty key, or
    /// whose value is not UTF-8 are ignored; values are capped at 255 bytes.
    public init(entries: [[UInt8]]) {
        var fields: [String: String] = [:]
        for entry in entries {
            guard let equals = entry.firstIndex(of: UInt8(ascii: "=")), equals > 0 else { continue }
            guard let key = String(validating: entry[..<equals], as: UTF8.self)?.lowercased(),
                  let value = String(validating: entry[(equals + 1)...].prefix(255), as: UTF8.self) else { continue }
            if fields[key] == nil { fields[key] = value }
        }
        self.init(id: fields["id"].flatMap { $0.isEmpty ? nil : $0 }, name: fields["name"], version: fields["version"],
                  api: fields["api"], remote: fields["remote"].flatMap { $0.isEmpty ? nil : $0 })
    }
}
