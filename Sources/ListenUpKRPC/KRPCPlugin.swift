import Foundation

/// A kRPC protocol feature, as listed in a Handshake's `supportedPlugins`
/// (§2.2). On the wire it is a number: the plugin's index − 32768.
///
/// Open by design: a newer peer may list values this build does not know
/// (upstream golden frame §2.9(a) lists `32766` and `32767`); they decode,
/// compare and re-encode as themselves, and ``isKnown`` is false.
public struct KRPCPlugin: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The wire number (index − 32768).
    public let rawValue: Int

    /// Wraps a wire number.
    /// - Parameter rawValue: the number as sent, e.g. `-32767`.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The plugin's index in kRPC's enum (`rawValue + 32768`).
    public var index: Int { rawValue + 32_768 }

    /// HANDSHAKE (index 1, `-32767`).
    public static let handshake = KRPCPlugin(rawValue: -32_767)
    /// CANCELLATION (index 2, `-32766`): the server may send an ENDPOINT
    /// cancellation when it shuts down.
    public static let cancellation = KRPCPlugin(rawValue: -32_766)
    /// NON_SUSPENDING_SERVER_FLOWS (index 3, `-32765`).
    public static let nonSuspendingServerFlows = KRPCPlugin(rawValue: -32_765)
    /// NO_ACK_CANCELLATION (index 4, `-32764`): no CANCELLATION_ACK after a
    /// client cancellation.
    public static let noAckCancellation = KRPCPlugin(rawValue: -32_764)
    /// BACKPRESSURE (index 5, `-32763`). The Swift client does not advertise
    /// it: advertising it turns on per-call send windows (§2.3).
    public static let backpressure = KRPCPlugin(rawValue: -32_763)

    /// Every plugin this build knows, in index order.
    public static let all: [KRPCPlugin] = [.handshake, .cancellation, .nonSuspendingServerFlows, .noAckCancellation, .backpressure]

    /// Whether this build knows the plugin.
    public var isKnown: Bool { Self.all.contains(self) }


    /// The name for logs, e.g. `HANDSHAKE` or `UNKNOWN(32766)`.
    public var description: String {
        switch self {
        case .handshake: return "HANDSHAKE"
        case .cancellation: return "CANCELLATION"
        case .nonSuspendingServerFlows: return "NON_SUSPENDING_SERVER_FLOWS"
        case .noAckCancellation: return "NO_ACK_CANCELLATION"
        case .backpressure: return "BACKPRESSURE"
        default: return "UNKNOWN(\(rawValue))"
        }
    }
}

/// A key of a kRPC message's `pluginParams` (§2.2). On the wire it is the
/// key's index − 32768 written as a **quoted** string (`"-32763"`); a bare
/// number is accepted on input. Unknown keys are kept as themselves.
///
/// Not the same enum as ``KRPCPlugin``: `-32763` is BACKPRESSURE there but
/// ``nonSuspendingServerFlowMarker`` here.
public struct KRPCPluginKey: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The wire number (index − 32768).
    public let rawValue: Int

    /// Wraps a wire number.
    /// - Parameter rawValue: the number, e.g. `-32763`.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Reads a wire key such as `"-32763"`; nil when it is not a number.
    /// - Parameter wireKey: the `pluginParams` key as sent.
    public init?(wireKey: String) {
        guard let value = Int(wireKey.trimmingCharacters(in: .whitespaces)) else { return nil }
        self.init(rawValue: value)
    }

    /// The key as written on the wire, e.g. `"-32763"` (without quotes).
    public var wireKey: String { String(rawValue) }

    /// GENERIC_MESSAGE_TYPE (`"-32767"`): `"cancellation"` on cancellations.
    public static let genericMessageType = KRPCPluginKey(rawValue: -32_767)
    /// CANCELLATION_TYPE (`"-32766"`): a ``KRPCCancellationType`` name.
    public static let cancellationType = KRPCPluginKey(rawValue: -32_766)
    /// CANCELLATION_ID (`"-32765"`): the callId being cancelled.
    public static let cancellationId = KRPCPluginKey(rawValue: -32_765)
    /// CLIENT_SERVICE_ID (`"-32764"`): the serviceType fq-name, for a
    /// REQUEST cancellation.
    public static let clientServiceId = KRPCPluginKey(rawValue: -32_764)
    /// NON_SUSPENDING_SERVER_FLOW_MARKER (`"-32763"`): value `""`; its
    /// presence marks a Flow call, and the Swift client sends it on every call.
    public static let nonSuspendingServerFlowMarker = KRPCPluginKey(rawValue: -32_763)
    /// WINDOW_UPDATE (`"-32762"`): a decimal window size.
    public static let windowUpdate = KRPCPluginKey(rawValue: -32_762)
    /// WINDOW_KEY (`"-32761"`): `"<serviceType>/<callId>"`.
    public static let windowKey = KRPCPluginKey(rawValue: -32_761)

    /// Orders by wire number, i.e. by index (the order keys are written in).
    public static func < (lhs: KRPCPluginKey, rhs: KRPCPluginKey) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// The wire key, for logs.
    public var description: String { wireKey }
}

/// The `CANCELLATION_TYPE` value of a cancellation generic message (§2.2),
/// sent by **name**. Open: unknown names are kept.
public struct KRPCCancellationType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The name as sent.
    public let rawValue: String

    /// Wraps a name.
    /// - Parameter rawValue: e.g. `"REQUEST"`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `ENDPOINT`: the whole kRPC session is over.
    public static let endpoint = KRPCCancellationType(rawValue: "ENDPOINT")
    /// `REQUEST`: one call (stream) is cancelled.
    public static let request = KRPCCancellationType(rawValue: "REQUEST")
    /// `SERVICE` (deprecated upstream).
    public static let service = KRPCCancellationType(rawValue: "SERVICE")
    /// `CANCELLATION_ACK` (deprecated upstream; not sent when NO_ACK_CANCELLATION is advertised).
    public static let cancellationAck = KRPCCancellationType(rawValue: "CANCELLATION_ACK")

    /// The name.
    public var description: String { rawValue }
}
