import Foundation
import PairingProtocol

/// What ``PairingModel`` needs from the pairing machinery, as closures so
/// tests and previews can swap them. In `ListenUpLive`, `PairingClient.host(…)`
/// is the app's (a `DiscoveryServer` built on first use, through
/// `live(building:built:)`) and `live(_:)` drives a server built beforehand
/// (tests).
public struct PairingClient: Sendable {
    /// A new subscription to the server's events (current state first).
    public var events: @Sendable () -> AsyncStream<PairingEvent>
    /// Starts the discovery server if it is not running (idempotent).
    public var start: @Sendable () async throws -> Void
    /// Opens pairing, or shows a new code.
    public var open: @Sendable () throws -> Void
    /// Closes pairing (the server keeps serving paired devices).
    public var close: @Sendable () -> Void
    /// Answers a pairing request by id.
    public var answer: @Sendable (UUID, Bool) -> Void
    /// The paired devices.
    public var devices: @Sendable () -> [PairedDevice]
    /// Forgets a device.
    public var revoke: @Sendable (String) throws -> Void
    /// Starts the server if devices are paired (so they reach this desktop
    /// from launch, not only once the pairing screen has been opened); does
    /// nothing, and touches no files beyond a look, otherwise.
    public var resume: @Sendable () async -> Void = {}

    /// A client from its closures (tests and previews).
    public init(events: @escaping @Sendable () -> AsyncStream<PairingEvent>,
                start: @escaping @Sendable () async throws -> Void,
                open: @escaping @Sendable () throws -> Void,
                close: @escaping @Sendable () -> Void,
                answer: @escaping @Sendable (UUID, Bool) -> Void,
                devices: @escaping @Sendable () -> [PairedDevice],
                revoke: @escaping @Sendable (String) throws -> Void) {
        self.events = events
        self.start = start
        self.open = open
        self.close = close
        self.answer = answer
        self.devices = devices
        self.revoke = revoke
    }
}

extension PairingClient {
    /// A client for a server that could not be built: opening reports `message`.
    public static func unavailable(_ message: String) -> PairingClient {
        PairingClient(events: { AsyncStream { $0.finish() } }, start: { throw PairingError.storage(message) }, open: {},
                      close: {}, answer: { _, _ in }, devices: { [] }, revoke: { _ in })
    }

    /// No network, nothing happens (previews put the model in a state themselves).
    public static let inert = PairingClient(events: { AsyncStream { _ in } }, start: {}, open: {}, close: {},
                                            answer: { _, _ in }, devices: { [] }, revoke: { _ in })
}
