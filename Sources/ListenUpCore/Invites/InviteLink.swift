import Foundation

/// An invite to a ListenUp server, read from the link the user pasted or
/// opened: which server (when the link says) and the invite's code.
///
/// Pure and safe with any input: a link is at most ``maximumLength``
/// bytes, a code only the URL-safe characters both servers mint
/// (``isValidCode(_:)``), a server an `http`/`https` address
/// ``ServerAddress`` accepts. Nothing is resolved or contacted.
///
/// The forms read (``parse(_:)``):
/// - today's apps (Kotlin server): `https://link.listenup.audio/o?t=invite&server=<url>&code=<code>[&remote=<url>]`,
///   read as `ShareLinkCodec.decode` reads it (`app/sharedLogic/…/client/share/ShareLinkCodec.kt` in
///   `ListenUpApp/ListenUp`, addendum §6.4): the prefix in any case, one optional `/` after `/o`, the
///   payload in the query or (legacy) the `#fragment`, values percent-decoded with `+` as a space;
/// - the Go server: `<serverURL>/join/<code>` (its HTML page, `internal/api/web_handlers.go` in
///   `ListenUpApp/server`) and the `listenup://join/<code>` that page opens, which names no server
///   (``server`` is nil: the app uses the server it knows).
public struct InviteLink: Equatable, Sendable {
    /// The server the invite is for; nil when the link does not say (`listenup://join/<code>`).
    public var server: ServerAddress?
    /// Another address of the same server (the Kotlin link's `remote`, for
    /// an invitee away from the server's network); nil when none.
    public var remote: ServerAddress?
    /// The invite's code.
    public var code: String

    /// Creates a link; each parameter sets the property of the same name.
    public init(server: ServerAddress?, remote: ServerAddress? = nil, code: String) {
        self.server = server
        self.remote = remote
        self.code = code
    }

    /// The longest text read as a link.
    public static let maximumLength = 4096
    /// The longest code accepted (today's codes have 22 characters).
    public static let maximumCodeLength = 256
    /// The share-link prefix of today's apps (`ShareLinkConstants.SHARE_URL_PREFIX`).
    static let sharePrefix = "https://link.listenup.audio/o"
    /// The scheme link the Go server's join page opens.
    static let schemePrefix = "listenup://join/"

    /// Whether `code` looks like an invite code: 1 to ``maximumCodeLength``
    /// characters of the base64url alphabet (both servers mint base64url
    /// without padding), plus `.` and `~`, RFC 3986's other unreserved ones.
    public static func isValidCode(_ code: String) -> Bool {
        guard !code.isEmpty, code.utf8.count <= maximumCodeLength else { return false }
        return code.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "-_.~".unicodeScalars.contains(scalar))
        }
    }

    /// Reads an invite link.
    /// - Returns: the invite, or why `text` is not an invite link.
    public static func parse(_ text: String) -> Result<InviteLink, InviteLinkError> {
        let link = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !link.isEmpty else { return .failure(.empty) }
        guard link.utf8.count <= maximumLength else { return .failure(.notAnInvite) }
        guard !link.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.isWhitespace }) else {
            return .failure(.notAnInvite)
        }
        if hasPrefix(link, sharePrefix) { return shareLink(link) }
        if hasPrefix(link, schemePrefix) { return schemeLink(link) }
        return joinLink(link)
    }

    /// Case-insensitive prefix test on ASCII prefixes (the length in
    /// characters is the same either way).
    private static func hasPrefix(_ text: String, _ prefix: String) -> Bool {
        text.count >= prefix.count && text.prefix(prefix.count).lowercased() == prefix
    }

    /// `https://link.listenup.audio/o[/](?query|#fragment)`.
    private static func shareLink(_ link: String) -> Result<InviteLink, InviteLinkError> {
        var rest = Substring(link.dropFirst(sharePrefix.count))
        if rest.first == "/" { rest = rest.dropFirst() }
        // Beyond one slash the path must end at /o: `/o/x` or `/other` is no link of ours.
        if let first = rest.first, first != "?", first != "#" { return .failure(.notAnInvite) }
        let query = rest.drop { $0 != "?" }.dropFirst().prefix { $0 != "#" }
        let fragment = rest.drop { $0 != "#" }.dropFirst()
        let parameters = queryParameters(fragment.isEmpty ? query : fragment)
        guard parameters["t"] == "invite" else { return .failure(.notAnInvite) }
        guard let serverText = parameters["server"].flatMap(nonBlank) else { return .failure(.noServer) }
        guard let code = parameters["code"].flatMap(nonBlank) else { return .failure(.noCode) }
        guard isValidCode(code) else { return .failure(.badCode) }
        guard case .success(let server) = ServerAddress.parse(serverText), server.schemeWasTyped else { return .failure(.badServer) }
        // A remote that is not an address is dropped, as a blank one is: the server alone still works.
        let remote = parameters["remote"].flatMap(nonBlank).flatMap { text -> ServerAddress? in
            guard case .success(let address) = ServerAddress.parse(text), address.schemeWasTyped else { return nil }
            return address
        }
        return .success(InviteLink(server: server, remote: remote, code: code))
    }

    /// `listenup://join/<code>`: no server.
    private static func schemeLink(_ link: String) -> Result<InviteLink, InviteLinkError> {
        let code = link.dropFirst(schemePrefix.count)
        return joinCode(code).map { InviteLink(server: nil, code: $0) }
    }

    /// `<serverURL>/join/<code>`: everything before `/join/` is the server.
    private static func joinLink(_ link: String) -> Result<InviteLink, InviteLinkError> {
        guard let scheme = link.range(of: "://"), ["http", "https"].contains(link[..<scheme.lowerBound].lowercased()),
              let join = link.range(of: "/join/", options: .backwards), join.lowerBound > scheme.upperBound else {
            return .failure(.notAnInvite)
        }
        let serverText = String(link[..<join.lowerBound])
        // The server part is an address: no query or fragment in it.
        guard !serverText.contains("?"), !serverText.contains("#") else { return .failure(.notAnInvite) }
        guard case .success(let server) = ServerAddress.parse(serverText) else { return .failure(.badServer) }
        return joinCode(link[join.upperBound...]).map { InviteLink(server: server, code: $0) }
    }

    /// The code of a join link: up to an optional `/`, `?` or `#`, percent-decoded.
    private static func joinCode(_ text: Substring) -> Result<String, InviteLinkError> {
        var raw = text.prefix { $0 != "?" && $0 != "#" }
        if raw.last == "/" { raw = raw.dropLast() }
        guard !raw.isEmpty else { return .failure(.noCode) }
        guard let code = String(raw).removingPercentEncoding, isValidCode(code) else { return .failure(.badCode) }
        return .success(code)
    }

    /// `a=b&c=d`, percent-decoded, `+` as a space; the first of a repeated
    /// name wins (as Ktor's `Parameters.get` answers); undecodable values are dropped.
    static func queryParameters(_ query: Substring) -> [String: String] {
        var parameters: [String: String] = [:]
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ part: Substring) -> String? {
                part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            }
            guard let name = decode(parts[0]), let value = parts.count > 1 ? decode(parts[1]) : "" else { continue }
            if parameters[name] == nil { parameters[name] = value }
        }
        return parameters
    }

    private static func nonBlank(_ text: String) -> String? {
        text.trimmingCharacters(in: .whitespaces).isEmpty ? nil : text
    }
}

/// Why a text is not an invite the app can use.
public enum InviteLinkError: Error, Equatable, Sendable {
    /// Nothing pasted.
    case empty
    /// Not a ListenUp invite link (another kind of link, or no link).
    case notAnInvite
    /// A ListenUp invite link without its server.
    case noServer
    /// A link whose server is not an `http`/`https` address.
    case badServer
    /// A link without a code.
    case noCode
    /// A code with characters no invite code has, or too long.
    case badCode

    /// Machine-readable code (headless `code`).
    public var code: String {
        switch self {
        case .empty: "emptyLink"
        case .notAnInvite: "notAnInvite"
        case .noServer: "inviteWithoutServer"
        case .badServer: "inviteBadServer"
        case .noCode, .badCode: "inviteBadCode"
        }
    }

    /// What to tell the user.
    public var userMessage: String {
        switch self {
        case .empty: tr("Paste the invite link you were sent.")
        case .notAnInvite: tr("This isn't a ListenUp invite link. Check that you copied all of it.")
        case .noServer, .badServer: tr("This invite link doesn't say which server it's for. Ask for a new invite.")
        case .noCode, .badCode: tr("This invite link is incomplete. Check that you copied all of it.")
        }
    }
}
