// Former names, kept only so code not yet moved over still builds: the
// pairing page (`ListenUpUI`, being split) and its UI test spell them. Remove
// them once nothing uses them.

/// The former pairing facade: ``DiscoveryServer`` is now the one object the app drives.
@available(*, deprecated, renamed: "DiscoveryServer")
public typealias PairingHost = DiscoveryServer

extension DiscoveryServer {
    /// The former name of ``PairingRequest`` (as `PairingHost.Request`).
    @available(*, deprecated, message: "use PairingRequest")
    public typealias Request = PairingRequest
}
