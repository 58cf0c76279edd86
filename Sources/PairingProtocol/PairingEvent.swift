import Foundation

/// What the discovery server tells the app, through ``DiscoveryServer/events()``.
///
/// Each subscription starts with the current ``state(_:)`` and
/// ``devicesChanged(_:)``, so a consumer that applies events idempotently
/// never needs to ask separately.
public enum PairingEvent: Sendable, Equatable {
    /// The QR/URI, the code countdown, expiry or closing changed.
    case state(PairingState)
    /// Ask the user; answer with ``DiscoveryServer/answer(_:accept:)``.
    case request(PairingRequest)
    /// A request is no longer pending (answered, timed out, pairing closed): hide its dialog.
    case requestWithdrawn(UUID)
    /// The paired devices changed (paired, unpaired, revoked), oldest first.
    case devicesChanged([PairedDevice])
}
