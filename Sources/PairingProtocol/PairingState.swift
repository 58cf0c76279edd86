import Foundation

/// Where pairing stands on the desktop: what the pairing page shows.
///
/// ``DiscoveryServer/state`` reads it; ``PairingEvent/state(_:)`` reports each change.
public enum PairingState: Sendable, Equatable {
    /// Pairing is closed (the page is not shown, or the server is not running).
    case closed
    /// `uri` is the current QR payload; its code is replaced at `codeRotatesAt`;
    /// pairing stops at `closesAt`.
    case open(uri: PairingURI, codeRotatesAt: Date, closesAt: Date)
    /// The 5-minute window ended: offer "Show a new code" (``DiscoveryServer/openPairing()``).
    case expired
}
