/// Timeouts and limits of a kRPC session. The defaults follow the contract
/// (§2.3: 10 s for the server's Handshake; §2.7: 15 s per unary call, as the
/// official client).
///
/// A value type; any thread.
public struct KRPCSessionConfiguration: Sendable, Equatable {
    /// How long the server may take to answer the client's Handshake.
    public var handshakeTimeout: Duration = .seconds(10)
    /// How long a unary call may wait for its `CallSuccess` or
    /// `CallException` unless the call names its own timeout. Streams have no
    /// timeout (a sync stream is quiet between its 25 s heartbeats; watch
    /// them above this layer).
    public var callTimeout: Duration = .seconds(15)
    /// How often ``KRPCSession`` checks the machine's deadlines. A timeout
    /// fires at most this much late.
    public var tickInterval: Duration = .milliseconds(250)
    /// The most characters of one frame the debug frame log writes (after
    /// redaction); longer frames are cut and their length noted. Sync pages
    /// can be megabytes.
    public var frameLogLimit = 256 * 1024

    /// The defaults.
    public init() {}

    /// A configuration with other timeouts (tests use short ones).
    /// - Parameters:
    ///   - handshakeTimeout: how long the server may take to answer the Handshake.
    ///   - callTimeout: the default timeout of a unary call.
    ///   - tickInterval: how often deadlines are checked.
    public init(handshakeTimeout: Duration, callTimeout: Duration, tickInterval: Duration = .milliseconds(250)) {
        self.handshakeTimeout = handshakeTimeout
        self.callTimeout = callTimeout
        self.tickInterval = tickInterval
    }
}
