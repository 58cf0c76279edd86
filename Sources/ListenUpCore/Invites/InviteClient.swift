import Foundation

/// Where an invite is being accepted from: the link the app was asked to
/// open (nil: the user pastes one on the page) and the server the app knew
/// then (a `listenup://join/<code>` link names none; going back returns to it).
public struct InviteStart: Equatable, Sendable {
    /// The link, as opened (checked on the invite page, not before).
    public var link: String?
    /// The verified server of the state the invite was started from, if any.
    public var knownServer: KnownServer?

    /// Creates a start; each parameter sets the property of the same name.
    public init(link: String? = nil, knownServer: KnownServer? = nil) {
        self.link = link
        self.knownServer = knownServer
    }
}

/// What claiming an invite sends. Holds the password: never printed,
/// never compared, never kept after the call.
public struct InviteClaim: Sendable {
    public var code: String
    public var password: String
    /// The account's name; nil keeps the invite's (and REST v1 takes none).
    public var displayName: String?

    public init(code: String, password: String, displayName: String?) {
        self.code = code
        self.password = password
        self.displayName = displayName
    }
}

extension InviteClaim: CustomStringConvertible {
    public var description: String { "InviteClaim(code: \(code.prefix(4))…)" }
}

/// What the invite page needs from the app: the usual server check, the
/// invite's preview and its claim on that server, and saving the server for
/// the next launch. A struct of closures (``live(_:)``; tests script it).
public struct InviteClient: Sendable {
    /// Checks a server address as server setup does (``ServerVerifier``).
    public var verify: @Sendable (ServerAddress) async -> Result<VerifiedServer, ServerVerificationError>
    /// ``ServerConnection/lookupInvite(code:)`` on a new connection to the server.
    public var lookUp: @Sendable (KnownServer, String) async -> Result<InvitePreview, ServerError>
    /// ``ServerConnection/claimInvite(code:password:displayName:)`` on a new
    /// connection, which the session goes on with (``Dependencies/signIn(to:with:)``).
    public var claim: @Sendable (KnownServer, InviteClaim) async -> Result<Session, ServerError>
    /// Saves the server as the one to connect to at the next launch.
    public var remember: @Sendable (VerifiedServer) -> Void

    public init(verify: @escaping @Sendable (ServerAddress) async -> Result<VerifiedServer, ServerVerificationError>,
                lookUp: @escaping @Sendable (KnownServer, String) async -> Result<InvitePreview, ServerError>,
                claim: @escaping @Sendable (KnownServer, InviteClaim) async -> Result<Session, ServerError>,
                remember: @escaping @Sendable (VerifiedServer) -> Void) {
        self.verify = verify
        self.lookUp = lookUp
        self.claim = claim
        self.remember = remember
    }

    /// The app's: `dependencies`' verifier, connections and settings.
    public static func live(_ dependencies: Dependencies) -> InviteClient {
        InviteClient(
            verify: { address in await dependencies.verifier.verify(address) },
            lookUp: { server, code in
                let connection = dependencies.connect(to: server)
                do throws(ServerError) {
                    return .success(try await connection.lookupInvite(code: code))
                } catch {
                    return .failure(error)
                }
            },
            claim: { server, claim in
                await dependencies.signIn(to: server) { connection throws(ServerError) in
                    try await connection.claimInvite(code: claim.code, password: claim.password, displayName: claim.displayName)
                }
            },
            remember: { server in dependencies.settings.remember(server, logger: dependencies.logger) })
    }
}
