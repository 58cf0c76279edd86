import Foundation
import Pairing

/// What ``PairingModel`` needs from the pairing machinery, as closures so
/// tests and previews can swap them. ``live(_:)`` drives a real ``DiscoveryServer``.
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

    /// Drives `server` (built once in the composition root; stop it at quit).
    public static func live(_ server: DiscoveryServer) -> PairingClient {
        live(building: { server }, built: { server })
    }

    /// Drives a server made on first use (the app's `PairingClient.host(…)`).
    ///
    /// Closing and answering never build it: with no server there is nothing
    /// to close or answer. While it cannot be built, the events end at once,
    /// there are no devices, and starting or opening throws the reason.
    /// - Parameters:
    ///   - server: the server, built if it is not yet; throws if it cannot be.
    ///   - built: the server if it has been built, else nil.
    public static func live(building server: @escaping @Sendable () throws -> DiscoveryServer,
                            built: @escaping @Sendable () -> DiscoveryServer?) -> PairingClient {
        PairingClient(events: { (try? server())?.events() ?? AsyncStream { $0.finish() } },
                      start: { try await server().start() }, open: { try server().openPairing() },
                      close: { built()?.closePairing() }, answer: { built()?.answer($0, accept: $1) },
                      devices: { (try? server())?.devices ?? [] }, revoke: { try server().revoke(deviceID: $0) })
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
