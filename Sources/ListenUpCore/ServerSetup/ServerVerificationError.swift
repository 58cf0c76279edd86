import Foundation

/// A server that answered as a ListenUp server the app speaks to: REST v1
/// (`GET /api/v1/instance`) or kRPC (`/healthz`, then `getServerInfo`).
public struct VerifiedServer: Equatable, Sendable {
    /// The base URL that answered (the candidate that worked).
    public var url: URL
    /// The instance id (`data.id`, also the mDNS TXT `id`).
    public var instanceID: String
    /// The server's display name.
    public var name: String
    /// No admin exists yet: the next screen is Create admin.
    public var setupRequired: Bool
    /// Which protocol it speaks.
    public var generation: ServerGeneration

    public init(url: URL, instanceID: String, name: String, setupRequired: Bool, generation: ServerGeneration = .restV1) {
        self.url = url
        self.instanceID = instanceID
        self.name = name
        self.setupRequired = setupRequired
        self.generation = generation
    }
}

/// Why an address could not be verified. Each case has a machine-readable
/// ``code`` (headless `code`) and a plain ``userMessage(for:)``.
public enum ServerVerificationError: Error, Equatable, Sendable {
    /// Something answered, but not as a ListenUp server (404, HTML, not an
    /// envelope, truncated or oversized body). The text is for logs only.
    case notListenUp(String)
    /// A ListenUp envelope, but `v` is not 1.
    case unsupportedVersion(Int?)
    /// A kRPC ListenUp server whose `apiVersion` is not `v1` (the text).
    case unsupportedAPIVersion(String)
    /// No connection (refused, no route, name not found, reset).
    case unreachable
    /// The TLS handshake failed.
    case tlsFailure
    /// No complete answer within the time limit.
    case timedOut
    /// The server answered with a 5xx.
    case serverError(status: Int)
    /// The server redirects to another origin; the app does not follow.
    case redirected(to: String)

    public var code: String {
        switch self {
        case .notListenUp: "notListenUp"
        case .unsupportedVersion: "unsupportedVersion"
        case .unsupportedAPIVersion: "unsupportedAPIVersion"
        case .unreachable: "unreachable"
        case .tlsFailure: "tlsFailure"
        case .timedOut: "timedOut"
        case .serverError: "serverError"
        case .redirected: "redirected"
        }
    }

    /// What to tell the user about `url`.
    public func userMessage(for url: URL) -> String {
        let address = url.absoluteString
        switch self {
        case .notListenUp:
            return tr("Something answered at %@, but it isn't a ListenUp server. Check the address and the port.", address)
        case .unsupportedVersion:
            return tr("%@ runs a version of ListenUp this app can't talk to. Update the server or the app.", address)
        case .unsupportedAPIVersion(let version):
            // TRANSLATORS: %@ is the server address, then the API version it speaks (e.g. "v2").
            return tr("%@ runs a newer ListenUp (API %@) than this app can talk to. Update the app.", address, version)
        case .unreachable:
            return tr("Couldn't reach %@. Check the address, and that the server is running and on your network.", address)
        case .tlsFailure:
            return tr("Couldn't make a secure connection to %@: its certificate isn't trusted. If the server doesn't use HTTPS, type the address with http://.", address)
        case .timedOut:
            return tr("%@ didn't answer within 10 seconds. Check the address and try again.", address)
        case .serverError(let status):
            return tr("The server at %@ ran into a problem (error %@). Try again in a moment.", address, String(status))
        case .redirected(let target):
            return tr("%@ sends visitors on to %@. If you trust that address, enter it instead.", address, target)
        }
    }
}
