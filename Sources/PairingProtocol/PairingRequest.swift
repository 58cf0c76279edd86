import Foundation

/// A companion asking to pair: what the "Pair with …?" dialog shows, and the
/// id its answer goes back with (``DiscoveryServer/answer(_:accept:)``).
///
/// The server makes one for each `POST /api/v1/pair` that presents a valid
/// code and publishes it as ``PairingEvent/request(_:)``; previews and tests
/// make their own.
public struct PairingRequest: Sendable, Equatable, Identifiable {
    /// Pass it back to ``DiscoveryServer/answer(_:accept:)``.
    public let id: UUID
    /// `client_name` the companion sent (show it in "Pair with …?").
    public let clientName: String
    /// `client_model` the companion sent.
    public let clientModel: String
    /// Show it next to "Pair with <clientName>?"; the companion shows the same 6 digits.
    public let comparisonCode: String
    /// Where the request came from.
    public let remoteAddress: String

    /// A request.
    /// - Parameters:
    ///   - id: a fresh id unless given.
    ///   - clientName: `client_name` as sent.
    ///   - clientModel: `client_model` as sent.
    ///   - comparisonCode: the 6 digits both sides show.
    ///   - remoteAddress: the companion's address.
    public init(id: UUID = UUID(), clientName: String, clientModel: String, comparisonCode: String, remoteAddress: String) {
        self.id = id
        self.clientName = clientName
        self.clientModel = clientModel
        self.comparisonCode = comparisonCode
        self.remoteAddress = remoteAddress
    }
}
